package ui_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// resetLinks returns the reset_url of every password_reset notification that sends
// a link, oldest first. The rows keep the link sealed: it is opened here as the
// dispatcher opens it.
func resetLinks(t *testing.T, a *app.App) []string {
	t.Helper()
	rows, err := a.Store.DB().Query(`SELECT payload FROM notification WHERE type = 'password_reset' ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p, "/users/password/reset") {
			t.Errorf("the outbox row shows the reset link: %s", p)
		}
		opened, err := a.Outbox.Sealer().Unseal([]byte(p))
		if err != nil {
			t.Fatal(err)
		}
		p = string(opened)
		var body struct {
			Type    string `json:"type"`
			Cliente struct {
				Nombre string `json:"nombre"`
				Email  string `json:"email"`
			} `json:"cliente"`
			ResetURL string `json:"reset_url"`
		}
		if err := json.Unmarshal([]byte(p), &body); err != nil {
			t.Fatal(err)
		}
		if body.Cliente.Email == "" && body.Cliente.Nombre == "" {
			continue // a request that sends nothing
		}
		if body.Type != "password_reset" || body.Cliente.Email == "" || body.Cliente.Nombre == "" {
			t.Errorf("password_reset payload %s", p)
		}
		out = append(out, body.ResetURL)
	}
	return out
}

func tokenOf(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("t")
}

// docs/manage-booking.md#password-reset: "¿Olvidó su contraseña?" → the same answer whether or not the
// email has an account (social-login accounts get nothing); a password_reset
// notification with a single-use link stored hashed; the reset sets the password
// and ends every session and API token; the link works once and for one hour.
func TestPasswordReset(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		a := apptest.StartWith(t, cfg)
		u := apptest.Account(t, a, reservation.Registered, "Carlos Cliente", "carlos@example.com", "600000001", "old-password")
		webtest.Exec(t, a, `INSERT INTO customer (full_name, email, type, password_hash, created_at) VALUES ('Social', 'social@example.com', 'REGISTRADO', 'SOCIAL_LOGIN_google_1', $1)`, apptest.Now(a))
		cl := apptest.Client(t)

		login := webtest.Do(t, cl, "GET", a.URL+"/users/login", nil)
		webtest.WantAll(t, "login page", login.Body, `href="/users/password/forgot"`, "¿Olvidó su contraseña?")
		page := webtest.Do(t, cl, "GET", a.URL+"/users/password/forgot", nil)
		webtest.WantStatus(t, page, http.StatusOK)
		webtest.CheckPage(t, page)

		var answers []string
		for _, email := range []string{"CARLOS@example.com", "nadie@example.com", "social@example.com"} {
			res := webtest.PostJSON(t, cl, a.URL+"/users/password/forgot", map[string]string{"email": email})
			webtest.WantStatus(t, res, http.StatusOK)
			answers = append(answers, res.Body)
		}
		if answers[0] != answers[1] || answers[0] != answers[2] {
			t.Errorf("answers differ: %q", answers)
		}
		// The browser form answers the same message on the page.
		res := webtest.PostForm(t, cl, a.URL+"/users/password/forgot", url.Values{"email": {"nadie@example.com"}})
		webtest.WantStatus(t, res, http.StatusOK)
		webtest.WantAll(t, "sent page", res.Body, "Si existe una cuenta con ese correo electrónico")
		if st, _ := webtest.CustCall(t, nil, "POST", a.URL+"/users/password/forgot", map[string]string{"email": "no es un correo"}); st != http.StatusBadRequest {
			t.Errorf("malformed email: %d, want 400", st)
		}

		links := resetLinks(t, a)
		if len(links) != 1 || !strings.HasPrefix(links[0], cfg.BaseURL+"/users/password/reset?t=") {
			t.Fatalf("reset links %q, want one for the account with a password", links)
		}
		token := tokenOf(t, links[0])
		sum := sha256.Sum256([]byte(token))
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM password_reset WHERE token_hash = $1 AND id_customer = $2`, hex.EncodeToString(sum[:]), u.ID); n != 1 {
			t.Errorf("stored reset rows by hash: %d, want 1", n)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM password_reset WHERE token_hash = $1`, token); n != 0 {
			t.Error("the token is stored in clear")
		}

		// Two sessions and an API token of the account, before the reset.
		other := apptest.LoggedIn(t, a, u)
		st, tok := webtest.CustCall(t, nil, "POST", a.URL+"/api/auth/token", map[string]string{"email": "carlos@example.com", "password": "old-password"})
		if st != http.StatusOK {
			t.Fatalf("token: %d %v", st, tok)
		}
		if st, _ := webtest.CustCall(t, other, "GET", a.URL+"/users/profile", nil); st != http.StatusOK {
			t.Fatalf("profile before the reset: %d", st)
		}

		page = webtest.Do(t, cl, "GET", a.URL+strings.TrimPrefix(links[0], cfg.BaseURL), nil)
		webtest.WantStatus(t, page, http.StatusOK)
		webtest.WantAll(t, "reset page", page.Body, `name="newPassword"`, `name="token" value="`+token+`"`)
		if bad := webtest.Do(t, cl, "GET", a.URL+"/users/password/reset?t=nope", nil); bad.StatusCode != http.StatusNotFound || !strings.Contains(bad.Body, "ha caducado") {
			t.Errorf("bad link page: %d", bad.StatusCode)
		}
		// Password rules first: too short, not confirmed.
		st, body := webtest.CustCall(t, nil, "POST", a.URL+"/users/password/reset", map[string]string{"token": token, "newPassword": "short", "confirmPassword": "short"})
		webtest.WantMessage(t, st, body, http.StatusBadRequest, "La nueva contraseña debe tener al menos 8 caracteres.")
		st, body = webtest.CustCall(t, nil, "POST", a.URL+"/users/password/reset", map[string]string{"token": token, "newPassword": "new-password", "confirmPassword": "new-passwort"})
		if st != http.StatusBadRequest {
			t.Errorf("mismatch: %d %v", st, body)
		}
		// The browser form: 303 to the login page with a notice.
		res = webtest.PostForm(t, cl, a.URL+"/users/password/reset", url.Values{"token": {token}, "newPassword": {"new-password"}, "confirmPassword": {"new-password"}})
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/users/login?reset=1" {
			t.Fatalf("reset: %d %s", res.StatusCode, res.Header.Get("Location"))
		}
		webtest.WantAll(t, "login after reset", webtest.Do(t, cl, "GET", a.URL+"/users/login?reset=1", nil).Body, "Contraseña cambiada")

		// Every session and API token of the account has ended.
		if st, _ := webtest.CustCall(t, other, "GET", a.URL+"/users/profile", nil); st != http.StatusUnauthorized {
			t.Errorf("profile with a session from before the reset: %d, want 401", st)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM api_token WHERE id_customer = $1 AND revoked_at IS NULL`, u.ID); n != 0 {
			t.Errorf("%d API tokens still live", n)
		}
		// The new password works, the old one does not; the link works once.
		webtest.WantStatus(t, webtest.Login(t, apptest.Client(t), a, "carlos@example.com", "old-password", "customer"), http.StatusUnauthorized)
		webtest.WantStatus(t, webtest.Login(t, apptest.Client(t), a, "carlos@example.com", "new-password", "customer"), http.StatusSeeOther)
		st, body = webtest.CustCall(t, nil, "POST", a.URL+"/users/password/reset", map[string]string{"token": token, "newPassword": "third-password", "confirmPassword": "third-password"})
		webtest.WantMessage(t, st, body, http.StatusBadRequest, "El enlace para restablecer la contraseña no es válido o ha caducado. Solicite uno nuevo.")

		// A new link expires after an hour.
		webtest.PostJSON(t, cl, a.URL+"/users/password/forgot", map[string]string{"email": "carlos@example.com"})
		links = resetLinks(t, a)
		clk.Advance(time.Hour + time.Second)
		st, _ = webtest.CustCall(t, nil, "POST", a.URL+"/users/password/reset", map[string]string{"token": tokenOf(t, links[len(links)-1]), "newPassword": "third-password", "confirmPassword": "third-password"})
		if st != http.StatusBadRequest {
			t.Errorf("expired link: %d, want 400", st)
		}
		webtest.WantStatus(t, webtest.Login(t, apptest.Client(t), a, "carlos@example.com", "new-password", "customer"), http.StatusSeeOther)

		// At most three links an hour to one account; the answer stays the same.
		for range 4 {
			webtest.WantStatus(t, webtest.PostJSON(t, cl, a.URL+"/users/password/forgot", map[string]string{"email": "carlos@example.com"}), http.StatusOK)
		}
		if n := len(resetLinks(t, a)); n != 2+3 {
			t.Errorf("%d reset links after 4 more requests in an hour, want 5", n)
		}
	})
}

// docs/public-booking.md#limits-on-anonymous-traffic: PARKING_PUBLIC_RATE applies to password-reset requests.
func TestPasswordResetRateLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg := apptest.Config(t, d)
		cfg.PublicRate = 1
		a := apptest.StartWith(t, cfg)
		cl := apptest.Client(t)
		webtest.WantStatus(t, webtest.PostJSON(t, cl, a.URL+"/users/password/forgot", map[string]string{"email": "a@example.com"}), http.StatusOK)
		res := webtest.PostJSON(t, cl, a.URL+"/users/password/forgot", map[string]string{"email": "b@example.com"})
		webtest.WantStatus(t, res, http.StatusTooManyRequests)
		if res.Header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
	})
}

// A reset request does the same work whether or not a link is sent: one
// password_reset row and one password_reset notification each (skipped, without
// recipient, when nothing is sent). The outbox row keeps the link sealed; the
// webhook gets the working link; `parking notifications list` never shows it
// (docs/security.md#password-reset).
func TestPasswordResetSealedUntilSent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		got := make(chan []byte, 8)
		hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			got <- b
			w.WriteHeader(http.StatusNoContent)
		}))
		t.Cleanup(hook.Close)
		cfg := apptest.Config(t, d)
		cfg.WebhookURL = hook.URL
		a := apptest.StartWith(t, cfg)
		apptest.Account(t, a, reservation.Registered, "Carlos Cliente", "carlos@example.com", "600000001", "old-password")
		cl := apptest.Client(t)

		counts := func() (int, int) {
			return webtest.CountRows(t, a, `SELECT COUNT(*) FROM password_reset`),
				webtest.CountRows(t, a, `SELECT COUNT(*) FROM notification WHERE type = 'password_reset'`)
		}
		for i, email := range []string{"nadie@example.com", "carlos@example.com"} {
			r0, n0 := counts()
			webtest.WantStatus(t, webtest.PostJSON(t, cl, a.URL+"/users/password/forgot", map[string]string{"email": email}), http.StatusOK)
			if r, n := counts(); r != r0+1 || n != n0+1 {
				t.Errorf("request %d (%s): %d reset and %d notification rows written, want 1 and 1", i, email, r-r0, n-n0)
			}
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM password_reset WHERE id_customer IS NULL`); n != 1 {
			t.Errorf("rows of requests that send nothing: %d, want 1", n)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM notification WHERE type = 'password_reset' AND status = 'skipped' AND payload NOT LIKE '%nadie%'`); n != 1 {
			t.Errorf("skipped password_reset rows without the unknown address: %d, want 1", n)
		}

		var delivered []byte
		select {
		case delivered = <-got:
		case <-time.After(30 * time.Second):
			t.Fatal("the reset link was not delivered")
		}
		var body struct {
			Cliente  struct{ Email string } `json:"cliente"`
			ResetURL string                 `json:"reset_url"`
		}
		if err := json.Unmarshal(delivered, &body); err != nil {
			t.Fatalf("delivered %s: %v", delivered, err)
		}
		if body.Cliente.Email != "carlos@example.com" || !strings.HasPrefix(body.ResetURL, cfg.BaseURL+"/users/password/reset?t=") {
			t.Fatalf("delivered %s, want carlos's reset link", delivered)
		}
		token := tokenOf(t, body.ResetURL)
		page := webtest.Do(t, cl, "GET", a.URL+strings.TrimPrefix(body.ResetURL, cfg.BaseURL), nil)
		webtest.WantStatus(t, page, http.StatusOK)
		webtest.WantAll(t, "reset page from the delivered link", page.Body, `name="token" value="`+token+`"`)

		// Nothing stored or listed shows the link or its token.
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM notification WHERE payload LIKE $1 OR payload LIKE '%/users/password/reset%'`, "%"+token+"%"); n != 0 {
			t.Errorf("%d outbox rows show the link", n)
		}
		var out, errw bytes.Buffer
		env := map[string]string{"PARKING_DATABASE_URL": cfg.DatabaseURL}
		if code := app.Run(context.Background(), []string{"notifications", "list"}, func(k string) string { return env[k] }, &out, &errw); code != 0 {
			t.Fatalf("notifications list: %d %s", code, errw.String())
		}
		if !strings.Contains(out.String(), "password_reset") || strings.Contains(out.String(), token) || strings.Contains(out.String(), "/users/password/reset") {
			t.Errorf("notifications list:\n%s", out.String())
		}
		select {
		case b := <-got:
			t.Errorf("a second delivery: %s", b)
		default:
		}
	})
}
