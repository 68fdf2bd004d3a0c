package booking

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"time"

	"parking/internal/feed"
)

// Several instances on one PostgreSQL (docs/deploy.md). Everything the operations
// keep in memory that another instance must see is announced through the store's
// signals (store.Signal / store.Listen, PostgreSQL NOTIFY):
//   - the live parking board's events: an operation on one instance reaches the
//     streams open on every instance;
//   - the catalog snapshot: a catalog change reloads it everywhere;
//   - the quote's copy of the facility settings: a change drops it everywhere (it
//     also expires after FacilityCacheTTL, should an announcement be lost).
// The rest is already shared through the database: sessions, API tokens, login
// throttling, idempotency keys, the outbox, the facility settings (read from the database by
// every operation but the quote), and the daily
// board's cache (checked against the database's board version on every request).
// The anonymous rate limit stays per instance (docs/public-booking.md#limits-on-anonymous-traffic).

// signal is one message between instances. Its JSON is the wire form; the domain
// event (feed.Event) carries no tags.
type signal struct {
	Origin        string    `json:"o"` // the sending instance (Service.origin): it has applied the change already
	Type          string    `json:"t"` // "board", "catalog" or "settings"
	Kind          string    `json:"k,omitempty"`
	ReservationID int64     `json:"r,omitempty"`
	Status        string    `json:"s,omitempty"`
	Spot          *string   `json:"p,omitempty"`
	PreviousSpot  *string   `json:"pp,omitempty"`
	At            time.Time `json:"at,omitzero"`
}

const (
	signalBoard   = "board"
	signalCatalog = "catalog"
	// signalSettings: the facility settings changed; the quote's copy is dropped.
	signalSettings = "settings"
)

// signalTimeout bounds sending one signal after a commit.
const signalTimeout = 2 * time.Second

// announce sends a signal to the other instances (this one hears it too, and
// skips it by its origin: it has already applied the change). A failure is
// logged: the change itself is committed, and the other instances' boards catch up
// at their next reload.
func (s *Service) announce(m signal) {
	m.Origin = s.origin
	b, err := json.Marshal(m)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), signalTimeout)
		defer cancel()
		err = s.store.Signal(ctx, string(b))
	}
	if err != nil {
		s.log.Warn("could not tell the other instances about a change", "type", m.Type, "err", err)
	}
}

// newOrigin names this instance in its announcements.
func newOrigin() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ListenShared receives the other instances' announcements until
// ctx ends; ready is called once listening has started the first time. It does
// nothing but call ready when the database is not shared (SQLite).
func (s *Service) ListenShared(ctx context.Context, log *slog.Logger, ready func()) {
	if !s.store.Shared() {
		ready()
		return
	}
	first := true
	_ = s.store.Listen(ctx, log, func() {
		if first {
			first = false
			ready()
			return
		}
		// Announcements sent while the connection was down are lost: the open
		// streams end (browsers reconnect and reload the board) and the catalog
		// is read again.
		s.admin.feed.Reset()
		s.forgetFacility()
		s.reloadAnnounced(ctx)
	}, func(payload string) {
		var m signal
		if err := json.Unmarshal([]byte(payload), &m); err != nil {
			log.Warn("unreadable announcement from another instance", "err", err)
			return
		}
		if m.Origin == s.origin {
			return // this instance's own change, already applied
		}
		switch m.Type {
		case signalBoard:
			s.admin.feed.Publish(feed.Event{Kind: feed.Kind(m.Kind), ReservationID: m.ReservationID, Status: m.Status,
				Spot: m.Spot, PreviousSpot: m.PreviousSpot, At: m.At})
		case signalCatalog:
			s.reloadAnnounced(ctx)
		case signalSettings:
			s.forgetFacility()
		}
	})
}

// reloadAnnounced reloads the catalog after another instance changed it, in order
// with this instance's own changes (catalogMu).
func (s *Service) reloadAnnounced(ctx context.Context) {
	s.admin.catalogMu.Lock()
	defer s.admin.catalogMu.Unlock()
	_ = s.ReloadCatalog(ctx) // logs its own failure
}
