package httpx

import "time"

// Config is what both surfaces need of the service configuration.
type Config struct {
	BaseURL  string
	Location *time.Location // the facility's time zone: dates in and out (docs/dates.md#accepted-forms)
	TokenTTL time.Duration  // lifetime of API tokens
	// FeedHeartbeat is how often the live board's stream sends a heartbeat when
	// nothing happens (0: every 15 s). Not a setting: tests shorten it.
	FeedHeartbeat time.Duration
	// PublicRate is PARKING_PUBLIC_RATE: requests per minute per client address on
	// the anonymous routes (docs/public-booking.md#limits-on-anonymous-traffic); 0: no limit.
	PublicRate int
	// DBTimeout is the deadline of each request's database work
	// (PARKING_DB_TIMEOUT, docs/reliability.md#every-requests-database-work-has-a-deadline; 0: 5 s).
	DBTimeout time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is believed
	// (PARKING_TRUSTED_PROXIES); empty: none.
	TrustedProxies TrustedProxies
	// VerifactuQRBase is the AEAT address receipts' QR codes point to
	// (PARKING_VERIFACTU_ENV; empty: the AEAT's test host).
	VerifactuQRBase string
}

// DefaultDBTimeout is PARKING_DB_TIMEOUT's default (docs/reliability.md#every-requests-database-work-has-a-deadline).
const DefaultDBTimeout = 5 * time.Second
