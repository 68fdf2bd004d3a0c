package media

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Config is the S3-compatible object storage of PARKING_S3_* (docs/photos.md).
type S3Config struct {
	Endpoint  string // host[:port], without scheme (e.g. s3.eu-west-1.amazonaws.com, minio:9000)
	Bucket    string
	AccessKey string
	SecretKey string
	Region    string
	Insecure  bool   // plain http to the endpoint (a local MinIO); https otherwise
	Prefix    string // optional key prefix inside the bucket
}

// S3 is a Store in a bucket of S3-compatible object storage (AWS S3, MinIO, …),
// for several instances sharing the photos.
type S3 struct {
	client *minio.Client
	bucket string
	prefix string
}

// NewS3 connects to the bucket of cfg. The bucket must exist: the service does
// not create buckets (their policy and lifecycle are the operator's).
func NewS3(ctx context.Context, cfg S3Config) (*S3, error) {
	endpoint := strings.TrimPrefix(strings.TrimPrefix(cfg.Endpoint, "https://"), "http://")
	if endpoint == "" || cfg.Bucket == "" {
		return nil, errors.New("media: S3 needs an endpoint and a bucket")
	}
	c, err := minio.New(endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure: !cfg.Insecure,
		Region: cfg.Region,
	})
	if err != nil {
		return nil, fmt.Errorf("media: S3 client: %w", err)
	}
	ok, err := c.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("media: S3 bucket %s: %w", cfg.Bucket, err)
	}
	if !ok {
		return nil, fmt.Errorf("media: S3 bucket %s does not exist", cfg.Bucket)
	}
	prefix := strings.Trim(cfg.Prefix, "/")
	if prefix != "" {
		prefix += "/"
	}
	return &S3{client: c, bucket: cfg.Bucket, prefix: prefix}, nil
}

func (s *S3) name(key string) (string, error) {
	if !validKey(key) {
		return "", errBadKey
	}
	return s.prefix + key, nil
}

// Put uploads the blob under key (size -1 when unknown).
func (s *S3) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	name, err := s.name(key)
	if err != nil {
		return err
	}
	if _, err := s.client.PutObject(ctx, s.bucket, name, r, size, minio.PutObjectOptions{ContentType: contentType}); err != nil {
		return fmt.Errorf("media put %s: %w", key, err)
	}
	return nil
}

// Get opens the blob under key; ErrNotFound when there is none.
func (s *S3) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	name, err := s.name(key)
	if err != nil {
		return nil, err
	}
	obj, err := s.client.GetObject(ctx, s.bucket, name, minio.GetObjectOptions{})
	if err == nil {
		// GetObject is lazy: Stat makes the request and reports a missing key.
		_, err = obj.Stat()
	}
	if err != nil {
		if obj != nil {
			obj.Close()
		}
		if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("media get %s: %w", key, err)
	}
	return obj, nil
}

// Delete removes the blob under key (a missing key is not an error in S3).
func (s *S3) Delete(ctx context.Context, key string) error {
	name, err := s.name(key)
	if err != nil {
		return err
	}
	if err := s.client.RemoveObject(ctx, s.bucket, name, minio.RemoveObjectOptions{}); err != nil {
		return fmt.Errorf("media delete %s: %w", key, err)
	}
	return nil
}
