package app

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// Photo storage settings (docs/photos.md): the local directory defaults to media/
// next to the SQLite file (./media for PostgreSQL); PARKING_S3_* switch to S3 and
// are checked together.
func TestLoadConfigMedia(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{nil, "media"},
		{map[string]string{"PARKING_DATABASE_URL": "sqlite:/var/lib/parking/parking.db"}, filepath.FromSlash("/var/lib/parking/media")},
		{map[string]string{"PARKING_DATABASE_URL": "sqlite:data/p.db?_pragma=x"}, filepath.FromSlash("data/media")},
		{map[string]string{"PARKING_DATABASE_URL": "postgres://db/parking"}, "media"},
		{map[string]string{"PARKING_MEDIA_DIR": "/srv/fotos"}, "/srv/fotos"},
	} {
		cfg, err := LoadConfig(nil, env(c.env), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if got := MediaDir(cfg); got != c.want {
			t.Errorf("%v: MediaDir = %q, want %q", c.env, got, c.want)
		}
	}
	cfg, err := LoadConfig(nil, env(map[string]string{"PARKING_S3_ENDPOINT": "minio:9000", "PARKING_S3_BUCKET": "fotos",
		"PARKING_S3_ACCESS_KEY": "k", "PARKING_S3_SECRET_KEY": "s", "PARKING_S3_REGION": "eu-south-2", "PARKING_S3_INSECURE": "true", "PARKING_S3_PREFIX": "prod"}), io.Discard)
	if err != nil || cfg.S3.Endpoint != "minio:9000" || cfg.S3.Bucket != "fotos" || cfg.S3.AccessKey != "k" || cfg.S3.SecretKey != "s" ||
		cfg.S3.Region != "eu-south-2" || !cfg.S3.Insecure || cfg.S3.Prefix != "prod" {
		t.Errorf("S3: %+v %v", cfg.S3, err)
	}
	for name, c := range map[string]struct {
		env  map[string]string
		want string
	}{
		"no endpoint": {map[string]string{"PARKING_S3_BUCKET": "fotos"}, "PARKING_S3_ENDPOINT: must be set with PARKING_S3_BUCKET"},
		"half keys":   {map[string]string{"PARKING_S3_BUCKET": "fotos", "PARKING_S3_ENDPOINT": "x:9000", "PARKING_S3_ACCESS_KEY": "k"}, "PARKING_S3_ACCESS_KEY: and PARKING_S3_SECRET_KEY must be set together"},
		"insecure":    {map[string]string{"PARKING_S3_INSECURE": "maybe"}, "PARKING_S3_INSECURE (--s3-insecure): must be true or false"},
	} {
		if _, err := LoadConfig(nil, env(c.env), io.Discard); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}
