package notify_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/notify"
	"parking/internal/store"
	"parking/internal/storetest"
)

// The whole service with a webhook: the public booking answers at once, the
// dispatcher started by serve is woken by the commit, and the webhook gets the
// signed confirmation well within a second (not at the next 2 s poll).
func TestServiceDeliversBookingWithinASecond(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		secret := "whsec-test"
		p := newProgress()
		rc := newReceiver(t, p, ok)
		cfg := apptest.Config(t, d)
		cfg.WebhookURL, cfg.WebhookSecret = rc.URL, secret
		a := apptest.StartWith(t, cfg)
		a.Dispatcher.Observe(p.observe)

		id, answered := publicBooking(t, a)
		p.waitFor(t, 2*time.Second, "the delivery", func() bool { return len(rc.deliveries()) == 1 })
		g := rc.deliveries()[0]
		if delay := g.at.Sub(answered); delay > time.Second {
			t.Errorf("delivered %s after the booking answered, want < 1s", delay)
		}
		if g.kind != "booking_confirmation" || !notify.Verify([]byte(secret), g.body, g.signature) {
			t.Errorf("delivery type %q, signature %q: want a signed booking_confirmation", g.kind, g.signature)
		}
		var body notify.Nested
		if err := json.Unmarshal(g.body, &body); err != nil || body.Reserva.IDReservation != strconv.FormatInt(id, 10) {
			t.Errorf("payload reserva.id_reservation = %q (%v), want %d", body.Reserva.IDReservation, err, id)
		}
		p.waitFor(t, 2*time.Second, "the row to be sent", func() bool {
			h, _ := a.Records.NotificationHistory(t.Context(), id)
			return len(h) == 1 && h[0].Status == "sent"
		})
	})
}

// A receiver that hangs: the booking request still answers at once, and the
// delivery attempt ends at the configured timeout, recorded for a retry.
func TestHangingWebhookDoesNotSlowBooking(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		release := make(chan struct{})
		p := newProgress()
		rc := newReceiver(t, p, func(_ int, w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		})
		cfg := apptest.Config(t, d)
		cfg.WebhookURL, cfg.WebhookTimeout = rc.URL, 500*time.Millisecond
		a := apptest.StartWith(t, cfg)
		a.Dispatcher.Observe(p.observe)
		t.Cleanup(func() { close(release) })

		start := time.Now()
		id, _ := publicBooking(t, a)
		if took := time.Since(start); took > 400*time.Millisecond {
			t.Errorf("booking answered after %s with a hanging webhook, want at once", took)
		}
		// The second booking is not held up either, while the first delivery hangs.
		p.waitFor(t, 2*time.Second, "the delivery to start", func() bool { return len(rc.deliveries()) >= 1 })
		start = time.Now()
		publicBooking(t, a)
		if took := time.Since(start); took > 400*time.Millisecond {
			t.Errorf("booking during a hanging delivery answered after %s, want at once", took)
		}
		p.waitFor(t, 3*time.Second, "the timed-out attempt", func() bool {
			h, _ := a.Records.NotificationHistory(t.Context(), id)
			return len(h) == 1 && h[0].Attempts == 1
		})
		h, _ := a.Records.NotificationHistory(t.Context(), id)
		if h[0].Status != "pending" || deref(h[0].LastError) != "timeout after 500ms" {
			t.Errorf("history = %+v (%s), want pending with the timeout recorded", h[0], deref(h[0].LastError))
		}
	})
}

// POST /admin/reservations/{id}/invoice (docs/notifications.md#manual-invoice): administrators only (the
// guard itself, customers included, is tested with the accounts); 202
// {success, message}; 404 unknown; 400 CANCELADA.
func TestInvoiceRoute(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		p := newProgress()
		rc := newReceiver(t, p, ok)
		cfg := apptest.Config(t, d)
		cfg.WebhookURL = rc.URL
		a := apptest.StartWith(t, cfg)
		a.Dispatcher.Observe(p.observe)
		id, _ := publicBooking(t, a)
		admin, _ := apptest.Admin(t, a)
		invoice := func(c *http.Client, id string) (int, map[string]any) {
			req, _ := http.NewRequest("POST", a.URL+"/admin/reservations/"+id+"/invoice", nil)
			req.Header.Set("Accept", "application/json")
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body map[string]any
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatalf("body: %v", err)
			}
			return resp.StatusCode, body
		}

		if status, _ := invoice(apptest.Client(t), strconv.FormatInt(id, 10)); status != http.StatusUnauthorized {
			t.Errorf("anonymous: status %d, want 401", status)
		}
		status, body := invoice(admin, strconv.FormatInt(id, 10))
		if status != http.StatusAccepted || body["success"] != true || body["message"] == "" || len(body) != 2 {
			t.Errorf("admin: %d %v, want 202 {success:true, message}", status, body)
		}
		p.waitFor(t, 2*time.Second, "the invoice delivery", func() bool {
			for _, g := range rc.deliveries() {
				if g.kind == "invoice" {
					return true
				}
			}
			return false
		})
		for _, c := range []struct {
			id     string
			status int
		}{{"999999", 404}, {"abc", 404}, {"0", 404}} {
			status, body := invoice(admin, c.id)
			if status != c.status || body["success"] != false || body["message"] == "" {
				t.Errorf("id %s: %d %v, want %d {success:false, message}", c.id, status, body, c.status)
			}
		}
		if _, err := a.Store.WriteDB().Exec("UPDATE reservation SET status = 'CANCELADA' WHERE id_reservation = $1", id); err != nil {
			t.Fatal(err)
		}
		status, body = invoice(admin, strconv.FormatInt(id, 10))
		if status != http.StatusBadRequest || body["success"] != false || body["message"] != "La reserva "+strconv.FormatInt(id, 10)+" está CANCELADA: no se puede emitir la factura." {
			t.Errorf("cancelled: %d %v, want 400 with the reason", status, body)
		}
	})
}

// publicBooking books through the public API and returns the id and when the
// response arrived.
func publicBooking(t *testing.T, a *app.App) (int64, time.Time) {
	t.Helper()
	plateSeq.Lock()
	plateSeq.n++
	n := plateSeq.n
	plateSeq.Unlock()
	// Less than 24 hours ahead: no booking_reminder row beside the confirmation.
	entry := apptest.Now(a).In(madrid).Add(3 * time.Hour)
	body, _ := json.Marshal(map[string]any{
		"full_name": "Ana Pérez", "phone": "7" + pad(n), "email": "ana@example.com",
		"license_plate": "E" + pad(n), "vehicle_type": "COCHE",
		"entry_date": entry.Format("2006-01-02T15:04"), "exit_date": entry.AddDate(0, 0, 3).Format("2006-01-02T15:04"), "id_main_service": 1,
	})
	resp, err := http.Post(a.URL+"/api/reservations/public-new", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answered := time.Now()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		Data struct {
			ID int64 `json:"id_reservation"`
		} `json:"data"`
	}
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(raw, &out) != nil || out.Data.ID == 0 {
		t.Fatalf("booking: %d %s", resp.StatusCode, raw)
	}
	return out.Data.ID, answered
}
