package web_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/notify"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// deliveryCounter is one webhook receiver for both instances: it counts every
// delivery by its X-Parking-Delivery id.
type deliveryCounter struct {
	mu   sync.Mutex
	seen map[string]int
}

func newDeliveryCounter(t *testing.T) (*deliveryCounter, string) {
	c := &deliveryCounter{seen: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.seen[r.Header.Get(notify.HeaderDelivery)]++
		c.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return c, srv.URL
}

// Two instances of the service on one PostgreSQL database, as behind a proxy
// (docs/deploy.md): a session made on one works on the other; a check-in on one
// reaches the live board open on the other within a second; concurrent walk-ins
// for one spot, starts of one reservation and assignments of one spot through both
// leave one winner each; every notification is delivered exactly once although
// both instances run a dispatcher.
func TestTwoInstancesOnOnePostgres(t *testing.T) {
	if os.Getenv(storetest.EnvPostgres) == "" {
		t.Skip(storetest.EnvPostgres + " not set: several instances need PostgreSQL")
	}
	hook, hookURL := newDeliveryCounter(t)
	cfg := apptest.Config(t, store.Postgres)
	cfg.WebhookURL = hookURL
	a := apptest.StartWith(t, cfg)
	b := apptest.StartWith(t, cfg) // the same database and clock, another port
	both := []*app.App{a, b}

	// A session made on A (cookies are per host, not per port: one jar serves both).
	admin, _ := apptest.Admin(t, a)
	envA := &webtest.AdminEnv{T: t, A: a, C: admin}
	envB := &webtest.AdminEnv{T: t, A: b, C: admin}
	if status, body := envB.JSON("GET", "/admin/dashboard", nil); status != 200 {
		t.Fatalf("instance B with A's session: %d %v", status, body)
	}

	// The live board open on B hears a check-in made on A.
	walkIn := func(n int, spot string) map[string]any {
		f := webtest.WalkInFields(n, apptest.Now(a), 2, spot)
		f["email"] = fmt.Sprintf("cliente%d@example.com", n) // notifications go to contacts with an email
		return f
	}
	id := envA.WalkIn(walkIn(1, "A-01"))
	envA.AddPhotos(id, 5)
	events := openStream(t, b, admin)
	began := time.Now()
	if status, body := envA.JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", id), nil); status != 200 {
		t.Fatalf("start on A: %d %v", status, body)
	}
	want := fmt.Sprintf(`"id_reservation":%d`, id)
	select {
	case ev := <-events:
		if !strings.Contains(ev, `"type":"started"`) || !strings.Contains(ev, want) {
			t.Errorf("B's board got %s, want the start of %d", ev, id)
		}
		if took := time.Since(began); took > time.Second {
			t.Errorf("B's board heard the check-in after %s, want within 1 s", took)
		}
	case <-time.After(time.Second):
		t.Fatal("B's board did not hear A's check-in within 1 s")
	}

	// A catalog change on A reprices quotes on B. Announcements arrive in order, so
	// once B's board has heard of a walk-in made after the change, B has reloaded.
	if status, body := envA.JSON("PATCH", "/admin/catalog/rates/1", map[string]any{"daily_price": "13.50"}); status != 200 {
		t.Fatalf("rate change on A: %d %v", status, body)
	}
	marker := envA.WalkIn(walkIn(2, "F-01"))
	select {
	case ev := <-events:
		if !strings.Contains(ev, fmt.Sprintf(`"id_reservation":%d`, marker)) {
			t.Errorf("B's board got %s, want the walk-in %d", ev, marker)
		}
	case <-time.After(time.Second):
		t.Fatal("B's board did not hear A's walk-in within 1 s")
	}
	entry := apptest.Now(a).AddDate(0, 0, 3)
	res := webtest.PostJSON(t, apptest.Client(t), b.URL+"/api/pricing/dynamic", map[string]any{
		"entry_date": entry.Format(time.RFC3339), "exit_date": entry.AddDate(0, 0, 2).Format(time.RFC3339),
		"vehicle_type": "TURISMO", "id_main_service": 1})
	if q := webtest.Decode(t, res); q["total_price"] != 27.0 {
		t.Errorf("quote on B after A's rate change = %v, want 27 (2 days × 13.50)", q["total_price"])
	}

	// Concurrent walk-ins for one spot, through both instances: one is booked.
	statuses := concurrently(8, func(i int) int {
		s, _ := []*webtest.AdminEnv{envA, envB}[i%2].JSON("POST", "/admin/reservations/new", walkIn(10+i, "C-01"))
		return s
	})
	wantOneWinner(t, "walk-ins for spot C-01", statuses, http.StatusCreated, http.StatusConflict)
	if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation WHERE cod_parking_spot = 'C-01'`); n != 1 {
		t.Errorf("spot C-01 held by %d reservations, want 1", n)
	}

	// Concurrent starts of one reservation: one checks it in, one entry notification.
	ready := envA.WalkIn(walkIn(30, "D-01"))
	envA.AddPhotos(ready, 5)
	statuses = concurrently(8, func(i int) int {
		s, _ := []*webtest.AdminEnv{envA, envB}[i%2].JSON("PATCH", fmt.Sprintf("/admin/reservations/%d/start", ready), nil)
		return s
	})
	wantOneWinner(t, "starts of one reservation", statuses, http.StatusOK, http.StatusBadRequest)

	// Concurrent assignments of one spot to overlapping reservations: one holds it.
	var ids []int64
	for i := range 6 {
		ids = append(ids, envA.WalkIn(walkIn(40+i, "")))
	}
	statuses = concurrently(len(ids), func(i int) int {
		s, _ := []*webtest.AdminEnv{envA, envB}[i%2].JSON("POST", fmt.Sprintf("/admin/reservations/%d/edit", ids[i]), map[string]any{"cod_parking_spot": "E-01"})
		return s
	})
	wantOneWinner(t, "assignments of spot E-01", statuses, http.StatusOK, http.StatusConflict)
	if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation WHERE cod_parking_spot = 'E-01'`); n != 1 {
		t.Errorf("spot E-01 held by %d reservations, want 1", n)
	}

	// Every notification is delivered, by one of the two dispatchers, once.
	total := webtest.CountRows(t, a, `SELECT COUNT(*) FROM notification`)
	recorded := make(chan struct{}, 1)
	for _, x := range both {
		x.Dispatcher.Observe(func(p notify.Progress) {
			if p.Recorded > 0 {
				select {
				case recorded <- struct{}{}:
				default:
				}
			}
		})
	}
	deadline := time.After(15 * time.Second)
	for webtest.CountRows(t, a, `SELECT COUNT(*) FROM notification WHERE status <> 'sent'`) > 0 {
		select {
		case <-recorded: // outcomes written by either dispatcher: look again
		case <-deadline:
			t.Fatalf("notifications not all sent: %d of %d pending", webtest.CountRows(t, a, `SELECT COUNT(*) FROM notification WHERE status <> 'sent'`), total)
		}
	}
	for _, x := range both {
		x.Close() // both dispatchers stopped: nothing more can arrive
	}
	hook.mu.Lock()
	defer hook.mu.Unlock()
	if len(hook.seen) != total {
		t.Errorf("receiver saw %d distinct deliveries, want %d (one per notification)", len(hook.seen), total)
	}
	for id, n := range hook.seen {
		if n != 1 {
			t.Errorf("delivery %s received %d times, want once", id, n)
		}
	}
	if total < 1+1+1+1+1+6 { // confirmations of every walk-in made, two entries
		t.Errorf("only %d notifications were made", total)
	}
}

// openStream opens the live board on x and returns its "parking" events' data.
func openStream(t *testing.T, x *app.App, c *http.Client) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", x.URL+"/admin/parking/events", nil)
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("event stream: %d", res.StatusCode)
	}
	lines := bufio.NewScanner(res.Body)
	for lines.Scan() && lines.Text() != ": connected" { // subscribed before this line is sent
	}
	out := make(chan string, 16)
	go func() {
		defer res.Body.Close()
		for lines.Scan() {
			if data, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
				out <- data
			}
		}
	}()
	return out
}

// concurrently runs n calls at once and returns their statuses.
func concurrently(n int, call func(i int) int) []int {
	out := make([]int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = call(i)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// wantOneWinner checks that exactly one call got win and every other lose.
func wantOneWinner(t *testing.T, what string, statuses []int, win, lose int) {
	t.Helper()
	wins := 0
	for _, s := range statuses {
		switch s {
		case win:
			wins++
		case lose:
		default:
			t.Errorf("%s: status %d, want %d or %d (all: %v)", what, s, win, lose, statuses)
		}
	}
	if wins != 1 {
		t.Errorf("%s: %d winners, want 1 (statuses %v)", what, wins, statuses)
	}
}
