package app

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"

	"parking/internal/media"
)

// openMedia opens the store of uploaded photos (docs/photos.md):
// S3-compatible object storage when PARKING_S3_BUCKET is set, else a local
// directory: PARKING_MEDIA_DIR, or by default "media" next to the SQLite file
// (for PostgreSQL, "media" in the working directory).
func openMedia(ctx context.Context, cfg Config) (media.Store, string, error) {
	if cfg.S3.Bucket != "" {
		s, err := media.NewS3(ctx, cfg.S3)
		if err != nil {
			return nil, "", err
		}
		return s, "s3://" + cfg.S3.Bucket + "/" + cfg.S3.Prefix, nil
	}
	dir := MediaDir(cfg)
	l, err := media.NewLocal(dir)
	if err != nil {
		return nil, "", err
	}
	return l, dir, nil
}

// MediaDir is the local photo directory cfg gives: PARKING_MEDIA_DIR, or "media"
// next to the SQLite database file, or "media" in the working directory.
func MediaDir(cfg Config) string {
	if cfg.MediaDir != "" {
		return cfg.MediaDir
	}
	if p, ok := strings.CutPrefix(cfg.DatabaseURL, "sqlite:"); ok {
		p, _, _ = strings.Cut(p, "?")
		p = strings.TrimPrefix(p, "file:")
		if p != "" && p != ":memory:" {
			return filepath.Join(filepath.Dir(p), "media")
		}
	}
	return "media"
}

// photoSweepEvery is how often expired photos are deleted (PhotoSweepEvery's
// default).
const photoSweepEvery = time.Hour

// startPhotoSweep deletes photos past their retention period (docs/photos.md),
// and Idempotency-Keys past theirs (docs/public-booking.md#retries-idempotency-key),
// every cfg.PhotoSweepEvery, first one interval after the start. The interval is
// real time; what counts as expired is read from the service's clock
// (handover.SweepExpiredPhotos), which tests move instead.
func (a *App) startPhotoSweep() {
	every := a.Config.PhotoSweepEvery
	if every <= 0 {
		every = photoSweepEvery
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	a.stopSweep = func() { cancel(); <-done }
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		a.catchUpReports(ctx) // a history just migrated joins the summary now, not at the first report
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			a.catchUpReports(ctx)
			n, err := a.Handover.SweepExpiredPhotos(ctx)
			switch {
			case err != nil && !errors.Is(err, context.Canceled):
				a.Log.Error("photo retention sweep failed; tried again at the next one", "deleted", n, "err", err)
			case n > 0:
				a.Log.Info("photos past their retention period deleted", "photos", n)
			}
			// Idempotency-Keys past their 24 h no longer count; the sweep only frees their rows.
			if n, err := a.Booking.PruneIdempotencyKeys(ctx); err != nil && !errors.Is(err, context.Canceled) {
				a.Log.Error("idempotency key sweep failed; tried again at the next one", "err", err)
			} else if n > 0 {
				a.Log.Info("expired idempotency keys deleted", "keys", n)
			}
			// Gate camera events are kept 90 days (docs/gate.md#the-event-list).
			if n, err := a.Gate.SweepEvents(ctx); err != nil && !errors.Is(err, context.Canceled) {
				a.Log.Error("gate event sweep failed; tried again at the next one", "err", err)
			} else if n > 0 {
				a.Log.Info("gate events past 90 days deleted", "events", n)
			}
		}
	}()
}

// catchUpReports brings the reports' summary to the current hour, a week of history
// per transaction (docs/reports.md#summary).
func (a *App) catchUpReports(ctx context.Context) {
	if err := a.Reports.CatchUp(ctx); err != nil && !errors.Is(err, context.Canceled) {
		a.Log.Error("reports summary catch-up failed; tried again at the next sweep", "err", err)
	}
}

func (a *App) stopPhotoSweep() {
	if a.stopSweep != nil {
		a.stopSweep()
	}
}

func validateS3(c *Config, bad func(env, format string, args ...any)) {
	if c.S3.Bucket == "" {
		return
	}
	if c.S3.Endpoint == "" {
		bad("PARKING_S3_ENDPOINT", "must be set with PARKING_S3_BUCKET (host[:port] of the S3-compatible service)")
	}
	if (c.S3.AccessKey == "") != (c.S3.SecretKey == "") {
		bad("PARKING_S3_ACCESS_KEY", "and PARKING_S3_SECRET_KEY must be set together")
	}
}
