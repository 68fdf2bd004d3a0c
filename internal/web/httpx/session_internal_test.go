package httpx

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"parking/internal/account"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
)

// The route guards (docs/errors.md#without-a-session): no session → 303 to the
// login page, or 401 JSON for JSON clients; a customer session is not enough for
// administrator routes; a cross-origin POST is refused before the handler runs.
func TestGuards(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		st := storetest.Open(t, d)
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		accounts := account.New(st, log, account.WithHashCost(bcrypt.MinCost))
		s := NewKit(log, accounts, "http://localhost")
		ctx := context.Background()

		newAccount := func(typ reservation.CustomerType, email string) string {
			hash, _ := account.HashPassword("password1", bcrypt.MinCost)
			var id int64
			err := st.InTx(ctx, func(tx *store.Tx) error {
				var err error
				id, err = tx.Accounts().InsertAccount(ctx, store.NewAccount{FullName: "X", Email: email, Type: typ, PasswordHash: hash})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			token, err := accounts.StartSession(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return token
		}
		adminToken := newAccount(reservation.Admin, "a@example.com")
		customerToken := newAccount(reservation.Registered, "c@example.com")

		reached := func(w http.ResponseWriter, r *http.Request) {
			WriteJSON(w, http.StatusOK, map[string]any{"id": GuardedUser(r).ID, "role": GuardedUser(r).Role})
		}
		mux := http.NewServeMux()
		mux.Handle("/admin/x", s.RequireAdmin(reached))
		mux.Handle("/users/x", s.RequireUser(reached))

		cases := []struct {
			name, method, path, token, accept, origin string
			wantStatus                                int
			wantLocation                              string
		}{
			{"admin route, no session, browser", "GET", "/admin/x", "", "text/html", "", 303, "/users/login"},
			{"admin route, no session, JSON", "GET", "/admin/x", "", "application/json", "", 401, ""},
			{"admin route, customer session", "GET", "/admin/x", customerToken, "text/html", "", 303, "/users/login"},
			{"admin route, customer session, JSON", "GET", "/admin/x", customerToken, "application/json", "", 401, ""},
			{"admin route, admin session", "GET", "/admin/x", adminToken, "", "", 200, ""},
			{"admin route, unknown token", "GET", "/admin/x", "forged", "", "", 303, "/users/login"},
			{"customer route, no session", "GET", "/users/x", "", "", "", 303, "/users/login"},
			{"customer route, customer session", "GET", "/users/x", customerToken, "", "", 200, ""},
			{"customer route, admin session", "GET", "/users/x", adminToken, "", "", 200, ""},
			{"cross-origin POST refused", "POST", "/users/x", customerToken, "", "https://evil.example", 403, ""},
			{"same-origin POST allowed", "POST", "/users/x", customerToken, "", "http://example.com", 200, ""},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				req := httptest.NewRequest(c.method, "http://example.com"+c.path, nil)
				if c.token != "" {
					req.AddCookie(&http.Cookie{Name: SessionCookie, Value: c.token})
				}
				if c.accept != "" {
					req.Header.Set("Accept", c.accept)
				}
				if c.origin != "" {
					req.Header.Set("Origin", c.origin)
				}
				rec := httptest.NewRecorder()
				mux.ServeHTTP(rec, req)
				if rec.Code != c.wantStatus {
					t.Fatalf("status = %d, want %d (body %s)", rec.Code, c.wantStatus, rec.Body)
				}
				if got := rec.Header().Get("Location"); got != c.wantLocation {
					t.Errorf("Location = %q, want %q", got, c.wantLocation)
				}
				if c.wantStatus == 401 && rec.Body.String() != `{"message":"Debe iniciar sesión para continuar.","success":false}`+"\n" {
					t.Errorf("body = %s", rec.Body)
				}
			})
		}

		// Ending the session makes its token worthless.
		if err := accounts.EndSession(ctx, customerToken); err != nil {
			t.Fatal(err)
		}
		if _, err := accounts.SessionUser(ctx, customerToken); err != account.ErrNoSession {
			t.Errorf("after EndSession: err = %v, want ErrNoSession", err)
		}
	})
}
