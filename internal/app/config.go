package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // the facility's zone must load on machines without zoneinfo

	"parking/internal/clock"
	"parking/internal/input"
	"parking/internal/media"
	"parking/internal/receipt"
	"parking/internal/social"
	"parking/internal/store"
	"parking/internal/web/httpx"
)

// Config is the service configuration (docs/operations.md). Every field comes from a
// PARKING_* variable and can be overridden by the serve flag of the same name.
type Config struct {
	Addr           string
	DatabaseURL    string
	BaseURL        string
	Timezone       string
	Location       *time.Location
	WebhookURL     string
	WebhookSecret  string
	WebhookTimeout time.Duration
	AdminEmail     string
	AdminPassword  string
	TokenTTL       time.Duration
	LogFormat      string
	LogLevel       string
	Capacity       int
	SQLiteSync     store.SQLiteSync
	PhoneRegion    string
	// DBTimeout bounds each request's database work (PARKING_DB_TIMEOUT,
	// docs/reliability.md); past it the request is 503 and nothing is saved.
	DBTimeout time.Duration
	// DBWait bounds how long the service waits at start for a database that does
	// not answer (PARKING_DB_WAIT) before it gives up.
	DBWait time.Duration
	Input  input.Rules // phones read in PhoneRegion (docs/input-rules.md#phones)
	// VerifactuQR is the AEAT verification address receipts' QR codes carry
	// (PARKING_VERIFACTU_ENV: test or production; docs/receipts.md).
	VerifactuQR string
	// Clock is the service's clock (internal/clock); nil means clock.Real. Not a
	// setting: tests inject a fake one.
	Clock clock.Clock
	// OnListen, when set, is told the service's address as soon as Start listens,
	// before the database is ready. Not a setting: tests use it.
	OnListen func(url string)
	// FeedHeartbeat is the live board's heartbeat interval (0: 15 s). Not a setting:
	// tests shorten it.
	FeedHeartbeat time.Duration
	// HashCost is the bcrypt cost of new password hashes (0: account.BcryptCost). Not
	// a setting: tests lower it.
	HashCost int
	// PublicRate is requests per minute per client address on the anonymous routes
	// (docs/reliability.md); 0: no limit (the zero Config, as tests build it).
	PublicRate int
	// SecretKey signs manage and email-verification links and seals credential links
	// in the outbox (PARKING_SECRET_KEY, docs/manage-booking.md#the-token); empty: one is
	// generated once and kept in the database, so that every instance agrees.
	SecretKey string
	// MetricsToken, when set, is the bearer token GET /metrics requires
	// (PARKING_METRICS_TOKEN).
	MetricsToken string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names the
	// client (PARKING_TRUSTED_PROXIES).
	TrustedProxies httpx.TrustedProxies
	// WriteTimeout bounds writing an answer (0: DefaultWriteTimeout); the live
	// board's stream and the CSV export lift it. Not a setting: tests shorten it.
	WriteTimeout time.Duration
	// MediaDir is the local directory of uploaded photos (PARKING_MEDIA_DIR; ""
	// = next to the SQLite file, see MediaDir); S3 replaces it when S3.Bucket is
	// set (PARKING_S3_*; docs/photos.md).
	MediaDir string
	S3       media.S3Config
	// PhotoSweepEvery is how often expired photos are deleted (0: hourly). Not a
	// setting.
	PhotoSweepEvery time.Duration
	// OIDCProviders are the social-login providers (PARKING_OIDC_PROVIDERS and
	// PARKING_OIDC_<ID>_*, docs/social-login.md); none: no social login.
	OIDCProviders []social.ProviderConfig
	// Listener, when set, is where Start serves instead of listening on Addr. Not a
	// setting: tests that need PARKING_BASE_URL to carry the real port (a provider's
	// redirect back to the service) listen first.
	Listener net.Listener
}

// setting describes one configuration entry; the README's table lists the same.
type setting struct {
	env, flag, def, usage string
	set                   func(c *Config, v string) error
}

var settings = []setting{
	{"PARKING_ADDR", "addr", ":8080", "listen address", func(c *Config, v string) error { c.Addr = v; return nil }},
	{"PARKING_DATABASE_URL", "database-url", "sqlite:parking.db", "sqlite:PATH or postgres://…", func(c *Config, v string) error { c.DatabaseURL = v; return nil }},
	{"PARKING_BASE_URL", "base-url", "http://localhost:8080", "public address (https makes cookies Secure)", func(c *Config, v string) error { c.BaseURL = strings.TrimRight(v, "/"); return nil }},
	{"PARKING_TIMEZONE", "timezone", "Europe/Madrid", "the facility's IANA time zone", func(c *Config, v string) error { c.Timezone = v; return nil }},
	{"PARKING_WEBHOOK_URL", "webhook-url", "", "notification webhook; empty: recorded, not sent", func(c *Config, v string) error { c.WebhookURL = v; return nil }},
	{"PARKING_WEBHOOK_SECRET", "webhook-secret", "", "HMAC-SHA256 key for webhook signatures", func(c *Config, v string) error { c.WebhookSecret = v; return nil }},
	{"PARKING_WEBHOOK_TIMEOUT", "webhook-timeout", "10s", "per-delivery timeout", durationSetter(func(c *Config) *time.Duration { return &c.WebhookTimeout })},
	{"PARKING_ADMIN_EMAIL", "admin-email", "", "create this ADMIN at start if missing (with the password)", func(c *Config, v string) error { c.AdminEmail = v; return nil }},
	{"PARKING_ADMIN_PASSWORD", "admin-password", "", "password of that ADMIN", func(c *Config, v string) error { c.AdminPassword = v; return nil }},
	{"PARKING_TOKEN_TTL", "token-ttl", "12h", "lifetime of API tokens", durationSetter(func(c *Config) *time.Duration { return &c.TokenTTL })},
	{"PARKING_LOG_FORMAT", "log-format", "text", "text or json", func(c *Config, v string) error { c.LogFormat = v; return nil }},
	{"PARKING_LOG_LEVEL", "log-level", "info", "debug, info, warn or error", func(c *Config, v string) error { c.LogLevel = v; return nil }},
	{"PARKING_CAPACITY", "capacity", "0", "places in the facility; 0 = not configured", func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return errors.New("must be a whole number")
		}
		c.Capacity = n
		return nil
	}},
	{"PARKING_SQLITE_SYNC", "sqlite-sync", "FULL", "SQLite durability: FULL, or NORMAL (faster; a power cut can lose the last bookings)", func(c *Config, v string) error {
		s, err := store.ParseSQLiteSync(v)
		if err != nil {
			return errors.New("must be FULL or NORMAL")
		}
		c.SQLiteSync = s
		return nil
	}},
	{"PARKING_DB_TIMEOUT", "db-timeout", "5s", "deadline of each request's database work; past it: 503, nothing saved", durationSetter(func(c *Config) *time.Duration { return &c.DBTimeout })},
	{"PARKING_DB_WAIT", "db-wait", "2m", "how long to wait at start for an unreachable database before exiting", durationSetter(func(c *Config) *time.Duration { return &c.DBWait })},
	{"PARKING_PHONE_REGION", "phone-region", input.DefaultRegion, "region for phone numbers typed without a country code (ES, PT, FR…)", func(c *Config, v string) error {
		c.PhoneRegion = strings.ToUpper(v)
		return nil
	}},
	{"PARKING_SECRET_KEY", "secret-key", "", "key that signs manage-my-booking and email-verification links and seals links in the outbox; empty: generated once and kept in the database", func(c *Config, v string) error {
		if v != "" && len(v) < 16 {
			return errors.New("must be at least 16 characters")
		}
		c.SecretKey = v
		return nil
	}},
	{"PARKING_VERIFACTU_ENV", "verifactu-env", "test", "AEAT environment the receipts' QR codes point to: test or production", func(c *Config, v string) error {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "test":
			c.VerifactuQR = receipt.QRHostTest
		case "production":
			c.VerifactuQR = receipt.QRHostProduction
		default:
			return errors.New("must be test or production")
		}
		return nil
	}},
	{"PARKING_OIDC_PROVIDERS", "oidc-providers", "", "social-login provider ids, comma-separated; each needs PARKING_OIDC_<ID>_ISSUER, _CLIENT_ID, _CLIENT_SECRET (and _NAME)", func(*Config, string) error {
		return nil // read with the per-provider variables in LoadConfig (oidcProviders)
	}},
	{"PARKING_PUBLIC_RATE", "public-rate", "30", "requests per minute per client address on public booking, registration and token requests; 0 = off", func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1_000_000 {
			return errors.New("must be a whole number between 0 and 1000000")
		}
		c.PublicRate = n
		return nil
	}},
	{"PARKING_TRUSTED_PROXIES", "trusted-proxies", "", "comma-separated CIDRs of the reverse proxies whose X-Forwarded-For is believed; empty: none", func(c *Config, v string) error {
		t, err := httpx.ParseTrustedProxies(v)
		if err != nil {
			return err
		}
		c.TrustedProxies = t
		return nil
	}},
	{"PARKING_METRICS_TOKEN", "metrics-token", "", "bearer token GET /metrics requires; empty: open (restrict it at the proxy)", func(c *Config, v string) error { c.MetricsToken = v; return nil }},
	{"PARKING_MEDIA_DIR", "media-dir", "", "directory of uploaded photos; empty: media/ next to the SQLite file (PostgreSQL: ./media)", func(c *Config, v string) error { c.MediaDir = v; return nil }},
	{"PARKING_S3_ENDPOINT", "s3-endpoint", "", "S3-compatible storage for photos: host[:port] (with PARKING_S3_BUCKET)", func(c *Config, v string) error { c.S3.Endpoint = v; return nil }},
	{"PARKING_S3_BUCKET", "s3-bucket", "", "bucket for photos; set: photos go to S3, not PARKING_MEDIA_DIR", func(c *Config, v string) error { c.S3.Bucket = v; return nil }},
	{"PARKING_S3_ACCESS_KEY", "s3-access-key", "", "S3 access key", func(c *Config, v string) error { c.S3.AccessKey = v; return nil }},
	{"PARKING_S3_SECRET_KEY", "s3-secret-key", "", "S3 secret key", func(c *Config, v string) error { c.S3.SecretKey = v; return nil }},
	{"PARKING_S3_REGION", "s3-region", "", "S3 region (empty: the endpoint's default)", func(c *Config, v string) error { c.S3.Region = v; return nil }},
	{"PARKING_S3_PREFIX", "s3-prefix", "", "key prefix inside the bucket", func(c *Config, v string) error { c.S3.Prefix = v; return nil }},
	{"PARKING_S3_INSECURE", "s3-insecure", "false", "true: plain http to the S3 endpoint (a local MinIO)", func(c *Config, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errors.New("must be true or false")
		}
		c.S3.Insecure = b
		return nil
	}},
}

func durationSetter(field func(*Config) *time.Duration) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil {
			return errors.New("must be a duration such as 10s, 5m or 12h")
		}
		*field(c) = d
		return nil
	}
}

// LoadConfig reads the variables through getenv, then the flags in args, and
// validates the result. Errors name the variable and say what is expected.
func LoadConfig(args []string, getenv func(string) string, stderr io.Writer) (Config, error) {
	values := map[string]*string{}
	fs := flag.NewFlagSet("parking serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	for _, s := range settings {
		v := s.def
		if e := getenv(s.env); e != "" {
			v = e
		}
		values[s.env] = fs.String(s.flag, v, s.usage+" ("+s.env+")")
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	var c Config
	var errs []error
	for _, s := range settings {
		if err := s.set(&c, strings.TrimSpace(*values[s.env])); err != nil {
			errs = append(errs, fmt.Errorf("%s (--%s): %w", s.env, s.flag, err))
		}
	}
	var err error
	if c.OIDCProviders, err = oidcProviders(*values["PARKING_OIDC_PROVIDERS"], getenv); err != nil {
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		errs = append(errs, c.validate()...)
	}
	return c, errors.Join(errs...)
}

func (c *Config) validate() []error {
	var errs []error
	bad := func(env, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{env}, args...)...))
	}
	if c.Addr == "" {
		bad("PARKING_ADDR", "must not be empty (e.g. :8080)")
	}
	if !strings.HasPrefix(c.DatabaseURL, "sqlite:") && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		bad("PARKING_DATABASE_URL", "%q must be sqlite:PATH or postgres://…", c.DatabaseURL)
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("PARKING_BASE_URL", "%q must be an absolute http(s) address", c.BaseURL)
	}
	if loc, err := time.LoadLocation(c.Timezone); err != nil || c.Timezone == "" {
		bad("PARKING_TIMEZONE", "%q is not an IANA time zone such as Europe/Madrid", c.Timezone)
	} else {
		c.Location = loc
	}
	if c.WebhookURL != "" {
		if u, err := url.Parse(c.WebhookURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("PARKING_WEBHOOK_URL", "%q must be an absolute http(s) address", c.WebhookURL)
		}
	}
	if c.WebhookTimeout <= 0 || c.WebhookTimeout > 5*time.Minute {
		bad("PARKING_WEBHOOK_TIMEOUT", "must be between 1ms and 5m")
	}
	if (c.AdminEmail == "") != (c.AdminPassword == "") {
		bad("PARKING_ADMIN_EMAIL", "and PARKING_ADMIN_PASSWORD must be set together")
	}
	if c.TokenTTL < time.Minute || c.TokenTTL > 30*24*time.Hour {
		bad("PARKING_TOKEN_TTL", "must be between 1m and 720h")
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		bad("PARKING_LOG_FORMAT", "%q must be text or json", c.LogFormat)
	}
	if _, err := parseLevel(c.LogLevel); err != nil {
		bad("PARKING_LOG_LEVEL", "%q must be debug, info, warn or error", c.LogLevel)
	}
	if c.Capacity < 0 || c.Capacity > 1_000_000 {
		bad("PARKING_CAPACITY", "must be between 0 and 1000000")
	}
	if c.DBTimeout < time.Millisecond || c.DBTimeout > 10*time.Minute {
		bad("PARKING_DB_TIMEOUT", "must be between 1ms and 10m")
	}
	if c.DBWait < 0 || c.DBWait > 24*time.Hour {
		bad("PARKING_DB_WAIT", "must be between 0 and 24h")
	}
	validateS3(c, bad)
	if r, err := input.New(c.PhoneRegion); err != nil {
		bad("PARKING_PHONE_REGION", "%v", err)
	} else {
		c.Input = r
	}
	return errs
}

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	err := l.UnmarshalText([]byte(s))
	return l, err
}

// NewLogger builds the slog logger the configuration asks for.
func NewLogger(c Config, w io.Writer) *slog.Logger {
	level, _ := parseLevel(c.LogLevel)
	opts := &slog.HandlerOptions{Level: level}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// WriteSettings prints the configuration table (parking help).
func WriteSettings(w io.Writer) {
	for _, s := range settings {
		def := s.def
		if def == "" {
			def = `""`
		}
		fmt.Fprintf(w, "  %-24s --%-16s default %-24s %s\n", s.env, s.flag, def, s.usage)
	}
	// cmd/parking's collector settings (docs/operations.md): Go reads these itself.
	fmt.Fprintf(w, "  %-24s %-18s default %-24s %s\n", "GOGC", "", "800", "Go's collector target; set it to override the service's default")
	fmt.Fprintf(w, "  %-24s %-18s default %-24s %s\n", "GOMEMLIMIT", "", "256MiB", "Go's soft memory limit; set it to what the machine gives the process")
}
