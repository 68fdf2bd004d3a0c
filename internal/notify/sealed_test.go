package notify_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"parking/internal/notify"
	"parking/internal/store"
	"parking/internal/storetest"
)

// The email_verification row holds its link sealed; the dispatcher posts it opened
// (and signs what it posts). A dispatcher that cannot open it fails the row at once
// rather than post the sealed text.
func TestEmailVerificationSealedInOutbox(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := newEnv(t, d, true)
		ctx := context.Background()
		link := "https://parking.example/users/verify?t=1.abc.mac"
		sealer := notify.NewSealer([]byte("service secret"))
		e.outbox.SetSealer(sealer)
		enqueue := func() {
			t.Helper()
			if err := e.st.InTx(ctx, func(tx *store.Tx) error {
				return e.outbox.EnqueueEmailVerification(ctx, tx, "Ana", "ana@example.com", "", link)
			}); err != nil {
				t.Fatal(err)
			}
		}
		enqueue()
		var stored string
		if err := e.st.DB().QueryRow(`SELECT payload FROM notification WHERE type = 'email_verification'`).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(stored, "/users/verify") || strings.Contains(stored, "abc.mac") {
			t.Fatalf("the outbox row holds the link: %s", stored)
		}

		rc := newReceiver(t, e.p, ok)
		tune := withTimeout(fast())
		disp := notify.NewDispatcher(e.st, notify.NewHTTPSender(rc.URL, "hook-secret", tune.Timeout, 8).WithClock(e.st.Clock()), e.outbox.Wake(), testLog(), tune)
		disp.SetSealer(sealer)
		disp.Observe(e.p.observe)
		disp.Start()
		e.p.waitFor(t, 5*time.Second, "the verification to be sent", func() bool {
			return countRows(t, e.st, "type = 'email_verification' AND status = 'sent'") == 1
		})
		disp.Stop()
		got := rc.deliveries()
		if len(got) != 1 {
			t.Fatalf("deliveries = %d", len(got))
		}
		var body struct {
			Cliente   notify.ResetCliente `json:"cliente"`
			VerifyURL string              `json:"verify_url"`
		}
		if err := json.Unmarshal(got[0].body, &body); err != nil || body.VerifyURL != link || body.Cliente.Email != "ana@example.com" {
			t.Errorf("posted %s (%v), want the opened link", got[0].body, err)
		}
		if !notify.Verify([]byte("hook-secret"), got[0].body, got[0].signature) {
			t.Error("the signature is not over the posted body")
		}

		// Another key (PARKING_SECRET_KEY changed): failed, nothing posted.
		enqueue()
		other := notify.NewDispatcher(e.st, notify.NewHTTPSender(rc.URL, "", tune.Timeout, 8).WithClock(e.st.Clock()), e.outbox.Wake(), testLog(), tune)
		other.SetSealer(notify.NewSealer([]byte("another secret")))
		other.Observe(e.p.observe)
		other.Start()
		t.Cleanup(other.Stop)
		e.p.waitFor(t, 5*time.Second, "the row to fail", func() bool {
			return countRows(t, e.st, "type = 'email_verification' AND status = 'failed'") == 1
		})
		if n := len(rc.deliveries()); n != 1 {
			t.Errorf("deliveries = %d, want none more", n)
		}
	})
}

// The verification email's body (the n8n workflow's test reads its fields).
func TestGoldenEmailVerification(t *testing.T) {
	// The row keeps the link sealed; the golden file is the body the webhook gets.
	sealer := notify.NewSealer([]byte("test-secret-key-0123456789"))
	stored, err := notify.Encode(notify.EmailVerification, notify.EmailVerificationData{Type: notify.EmailVerification, Idioma: "es",
		Cliente: notify.ResetCliente{Nombre: "Ana Pérez", Email: "ana@example.com"}, VerifyURL: sealer.Seal("https://parking.example/users/verify?t=1.mjk8a0.abc")})
	if err != nil {
		t.Fatal(err)
	}
	body, err := sealer.Unseal(stored)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "email_verification", body)
	checkTypes(t, body, map[string]string{"type": "string", "cliente.nombre": "string", "cliente.email": "string", "verify_url": "string"})
}
