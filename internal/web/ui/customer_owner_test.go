package ui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"parking/internal/account"
	"parking/internal/app"
	"parking/internal/apptest"
	"parking/internal/clock/clocktest"
	"parking/internal/media/mediatest"
	"parking/internal/notify"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// Who sees a booking (docs/privacy.md#who-sees-a-booking): a booking that landed on
// an account by its phone is the account's only by the account's verified email.

// registerJSON registers an account through POST /users/register and returns its
// signed-in client.
func registerJSON(t *testing.T, a *app.App, name, email, phone string) *http.Client {
	t.Helper()
	c := apptest.Client(t)
	res := webtest.PostJSON(t, c, a.URL+"/users/register", map[string]string{
		"full_name": name, "email": email, "phone": phone, "password": "secret-password", "confirmPassword": "secret-password"})
	webtest.WantStatus(t, res, http.StatusCreated)
	return c
}

// verifyLinks returns the verification links sent to email, oldest first, as
// addresses of the running service. The outbox row must hold no readable link: its
// verify_url is sealed and opens with the service's key.
func verifyLinks(t *testing.T, a *app.App, email string) []string {
	t.Helper()
	rows, err := a.Store.DB().QueryContext(context.Background(),
		`SELECT payload FROM notification WHERE type = 'email_verification' ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var payload string
		if err := rows.Scan(&payload); err != nil {
			t.Fatal(err)
		}
		var stored struct {
			Cliente notify.ResetCliente `json:"cliente"`
		}
		if err := json.Unmarshal([]byte(payload), &stored); err != nil {
			t.Fatalf("payload %s: %v", payload, err)
		}
		if !strings.EqualFold(stored.Cliente.Email, email) {
			continue
		}
		if strings.Contains(payload, "/users/verify") || strings.Contains(payload, "t=") || !notify.HasSealed([]byte(payload)) {
			t.Fatalf("outbox row holds a readable link: %s", payload)
		}
		opened, err := a.Outbox.Sealer().Unseal([]byte(payload))
		if err != nil {
			t.Fatalf("sealed link does not open: %v", err)
		}
		var body struct {
			VerifyURL string `json:"verify_url"`
		}
		if err := json.Unmarshal(opened, &body); err != nil {
			t.Fatal(err)
		}
		link := body.VerifyURL
		path, ok := strings.CutPrefix(link, a.Config.BaseURL+"/users/verify?t=")
		if !ok || strings.Contains(payload, path) {
			t.Fatalf("link %q", link)
		}
		out = append(out, a.URL+"/users/verify?t="+path)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// lastVerifyLink is the newest verification link sent to email.
func lastVerifyLink(t *testing.T, a *app.App, email string) string {
	t.Helper()
	links := verifyLinks(t, a, email)
	if len(links) == 0 {
		t.Fatalf("no verification link sent to %s", email)
	}
	return links[len(links)-1]
}

// follow opens a link as a browser and returns the answer.
func follow(t *testing.T, c *http.Client, link string) webtest.Response {
	t.Helper()
	return webtest.Do(t, c, "GET", link, nil, "Accept: text/html")
}

// wantVerified follows link and expects the 303 to the profile.
func wantVerified(t *testing.T, c *http.Client, link string) {
	t.Helper()
	r := follow(t, c, link)
	if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/users/profile") {
		t.Fatalf("verify: %d %q, want 303 to /users/profile", r.StatusCode, r.Header.Get("Location"))
	}
}

// publicBooking books anonymously and returns the id and the reference.
func publicBooking(t *testing.T, a *app.App, name, email, phone, plate, day string) (int64, string) {
	t.Helper()
	req := map[string]any{"full_name": name, "phone": phone, "license_plate": plate, "vehicle_type": "COCHE",
		"entry_date": clocktest.D(day) + "T10:00", "exit_date": clocktest.D(day) + "T18:00", "id_main_service": 1}
	if email != "" {
		req["email"] = email
	}
	status, body := webtest.CustCall(t, nil, "POST", a.URL+"/api/reservations/public-new", req)
	if status != http.StatusCreated {
		t.Fatalf("booking: %d %v", status, body)
	}
	data := body["data"].(map[string]any)
	return int64(data["id_reservation"].(float64)), data["reference"].(string)
}

// listed returns the ids of the profile's reservations (JSON) and the raw body.
func listed(t *testing.T, a *app.App, c *http.Client) (map[int64]bool, string) {
	t.Helper()
	status, raw := webtest.CustCallRaw(t, c, "GET", a.URL+"/users/profile", nil, nil)
	if status != http.StatusOK {
		t.Fatalf("profile: %d %s", status, raw)
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	out := map[int64]bool{}
	for _, list := range []string{"active_reservations", "past_reservations"} {
		for _, it := range body[list].([]any) {
			out[int64(it.(map[string]any)["id_reservation"].(float64))] = true
		}
	}
	return out, string(raw)
}

func emailVerified(t *testing.T, a *app.App, c *http.Client) bool {
	t.Helper()
	_, body := webtest.CustCall(t, c, "GET", a.URL+"/users/profile", nil)
	return body["user"].(map[string]any)["email_verified"] == true
}

// TestAccountDoesNotSeeStrangersBookingByPhone: someone registers with another
// person's phone; that person's anonymous booking and a staff walk-in on the phone
// land on the account (customers are found by phone) but the account sees
// neither: not listed on the page, in the JSON or the data export, no plate among
// its vehicles; cancel, edit and receipt are the 403 of a reservation not owned;
// the photos the 404 of a missing photo. Staff still see everything.
func TestAccountDoesNotSeeStrangersBookingByPhone(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A
		mallory := registerJSON(t, a, "Mallory Malo", "mallory@example.com", "611222333")
		// Mallory verifies her own email: it does not make a stranger's booking hers.
		wantVerified(t, mallory, lastVerifyLink(t, a, "mallory@example.com"))
		own, _ := publicBookingSignedIn(t, a, mallory, "611222333", "7777MMM")

		victim, ref := publicBooking(t, a, "Víctor Víctima", "victor@example.com", "611 222 333", "9999VVV", "2026-12-10")
		fields := webtest.WalkInFields(1, clocktest.Shift(time.Date(2026, 12, 12, 10, 0, 0, 0, webtest.Madrid)), 2, "")
		fields["phone"], fields["email"], fields["license_plate"], fields["full_name"] = "611222333", "walter@example.com", "8888WWW", "Walter Walk"
		walkIn := e.WalkIn(fields)
		status, up := e.Upload(victim, [][]byte{mediatest.JPEG(t, 64, 48, 0, false)}, nil)
		if status != http.StatusCreated {
			t.Fatalf("upload: %d %v", status, up)
		}
		photo := photoPath(t, e, up["photos"].([]any)[0])

		ids, raw := listed(t, a, mallory)
		if !ids[own] || ids[victim] || ids[walkIn] {
			t.Errorf("listed %v, want only her own %d", ids, own)
		}
		page := webtest.Do(t, mallory, "GET", a.URL+"/users/profile", nil, "Accept: text/html")
		export := webtest.Do(t, mallory, "GET", a.URL+"/users/profile/data", nil)
		for what, body := range map[string]string{"profile JSON": raw, "profile page": page.Body, "data export": export.Body} {
			for _, secret := range []string{"9999VVV", "8888WWW", ref, "Víctor", "victor@example.com", "walter@example.com", photo} {
				if strings.Contains(body, secret) {
					t.Errorf("%s shows %q", what, secret)
				}
			}
		}
		if !strings.Contains(export.Body, "7777MMM") {
			t.Error("data export lacks her own booking")
		}

		// The refusals are those of a reservation that does not exist.
		_, missingCancel := webtest.CustCall(t, mallory, "DELETE", a.URL+"/users/profile/reservation/999999/cancel", nil)
		for _, id := range []int64{victim, walkIn} {
			before := webtest.CustSnapshot(t, a, id)
			base := fmt.Sprintf("%s/users/profile/reservation/%d", a.URL, id)
			status, body := webtest.CustCall(t, mallory, "DELETE", base+"/cancel", nil)
			if status != http.StatusForbidden || body["message"] != missingCancel["message"] {
				t.Errorf("cancel %d: %d %v, want 403 %v", id, status, body, missingCancel)
			}
			status, body = webtest.CustCall(t, mallory, "PUT", base+"/edit", map[string]any{"exit_date": clocktest.D("2026-12-20") + "T10:00"})
			if status != http.StatusForbidden || body["message"] != missingCancel["message"] {
				t.Errorf("edit %d: %d %v, want 403", id, status, body)
			}
			if status, body = webtest.CustCall(t, mallory, "GET", base+"/receipt", nil); status != http.StatusForbidden {
				t.Errorf("receipt %d: %d %v, want 403", id, status, body)
			}
			if r := webtest.Do(t, mallory, "GET", base+"/receipt.pdf", nil); r.StatusCode != http.StatusForbidden {
				t.Errorf("receipt PDF %d: %d, want 403", id, r.StatusCode)
			}
			webtest.CustWantUnchanged(t, a, before)
		}
		missing := webtest.Do(t, mallory, "GET", a.URL+"/media/photos/99999/large", nil, "Accept: text/html")
		for _, size := range []string{"large", "thumb"} {
			r := webtest.Do(t, mallory, "GET", a.URL+strings.TrimSuffix(photo, "large")+size, nil, "Accept: text/html")
			if r.StatusCode != http.StatusNotFound || r.Body != missing.Body {
				t.Errorf("photo %s: %d, want the 404 of a missing photo", size, r.StatusCode)
			}
		}
		// Staff views are unchanged.
		if r := webtest.Do(t, e.C, "GET", a.URL+photo, nil); r.StatusCode != http.StatusOK {
			t.Errorf("staff photo: %d", r.StatusCode)
		}
		if status, body := e.JSON("GET", fmt.Sprintf("/admin/reservations/details/%d", victim), nil); status != http.StatusOK {
			t.Errorf("staff detail: %d %v", status, body)
		}
	})
}

// publicBookingSignedIn books through the public route while signed in as the
// account with that phone (the booking is the account's own).
func publicBookingSignedIn(t *testing.T, a *app.App, c *http.Client, phone, plate string) (int64, string) {
	t.Helper()
	status, body := webtest.CustCall(t, c, "POST", a.URL+"/api/reservations/public-new", map[string]any{
		"full_name": "Yo", "phone": phone, "license_plate": plate, "vehicle_type": "COCHE",
		"entry_date": clocktest.D("2026-12-05") + "T10:00", "exit_date": clocktest.D("2026-12-06") + "T10:00", "id_main_service": 1})
	if status != http.StatusCreated {
		t.Fatalf("booking: %d %v", status, body)
	}
	data := body["data"].(map[string]any)
	return int64(data["id_reservation"].(float64)), data["reference"].(string)
}

// TestVerifiedEmailBringsBookingsAndKeepsThem: a booking made without signing in,
// with the account's email, is listed only once that email is verified; a booking
// made after the verification is listed at once; both stay the account's after the
// email changes (which resets the verification and sends a new link); a booking
// with the old email afterwards is not listed.
func TestVerifiedEmailBringsBookingsAndKeepsThem(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A
		ana := registerJSON(t, a, "Ana Anónima", "ana@example.com", "611444555")
		if emailVerified(t, a, ana) {
			t.Fatal("a new account starts verified")
		}
		page := webtest.Do(t, ana, "GET", a.URL+"/users/profile", nil, "Accept: text/html")
		webtest.WantAll(t, "unverified profile page", page.Body, "data-verify-banner", `action="/users/verify/resend"`, `action="/users/profile/claim"`)

		before, _ := publicBooking(t, a, "Ana", "ANA@Example.com", "611444555", "1111AAA", "2026-12-10")
		other, _ := publicBooking(t, a, "Otra Persona", "otra@example.com", "611444555", "2222BBB", "2026-12-11")
		if ids, _ := listed(t, a, ana); ids[before] || ids[other] {
			t.Errorf("unverified account lists %v", ids)
		}
		if status, _ := webtest.CustCall(t, ana, "DELETE", fmt.Sprintf("%s/users/profile/reservation/%d/cancel", a.URL, before), nil); status != http.StatusForbidden {
			t.Errorf("cancel before verification: %d, want 403", status)
		}
		status, up := e.Upload(before, [][]byte{mediatest.JPEG(t, 64, 48, 0, false)}, nil)
		if status != http.StatusCreated {
			t.Fatalf("upload: %d %v", status, up)
		}
		photo := photoPath(t, e, up["photos"].([]any)[0])
		if r := webtest.Do(t, ana, "GET", a.URL+photo, nil); r.StatusCode != http.StatusNotFound {
			t.Errorf("photo before verification: %d, want 404", r.StatusCode)
		}

		wantVerified(t, apptest.Client(t), lastVerifyLink(t, a, "ana@example.com")) // no session needed
		if !emailVerified(t, a, ana) {
			t.Fatal("not verified after the link")
		}
		page = webtest.Do(t, ana, "GET", a.URL+"/users/profile", nil, "Accept: text/html")
		if strings.Contains(page.Body, "data-verify-banner") {
			t.Error("banner still shown")
		}
		after, _ := publicBooking(t, a, "Ana", "ana@example.com", "611444555", "3333CCC", "2026-12-12")
		ids, _ := listed(t, a, ana)
		if !ids[before] || !ids[after] || ids[other] {
			t.Errorf("verified account lists %v, want %d and %d, not %d", ids, before, after, other)
		}
		if r := webtest.Do(t, ana, "GET", a.URL+photo, nil); r.StatusCode != http.StatusOK {
			t.Errorf("photo after verification: %d, want 200", r.StatusCode)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation WHERE claimed_at IS NOT NULL AND id_reservation IN ($1, $2)`, before, after); n != 2 {
			t.Errorf("claimed = %d, want 2 (recorded when they qualified)", n)
		}

		// An email change applies at once, resets the verification and sends a link.
		status, body := webtest.CustCall(t, ana, "PUT", a.URL+"/users/profile/update", map[string]any{"email": "ana.nueva@example.com"})
		if status != http.StatusOK {
			t.Fatalf("update: %d %v", status, body)
		}
		if emailVerified(t, a, ana) {
			t.Error("a new email is verified")
		}
		if links := verifyLinks(t, a, "ana.nueva@example.com"); len(links) != 1 {
			t.Errorf("links to the new email: %d, want 1", len(links))
		}
		late, _ := publicBooking(t, a, "Ana", "ana@example.com", "611444555", "4444DDD", "2026-12-13")
		ids, _ = listed(t, a, ana)
		if !ids[before] || !ids[after] || ids[other] || ids[late] {
			t.Errorf("after the email change lists %v, want %d and %d kept, %d and %d not", ids, before, after, other, late)
		}
		if status, body := webtest.CustCall(t, ana, "DELETE", fmt.Sprintf("%s/users/profile/reservation/%d/cancel", a.URL, before), nil); status != http.StatusOK {
			t.Errorf("cancel a claimed booking: %d %v", status, body)
		}
	})
}

// TestStaffWalkInWithAccountsEmail: a walk-in on the account's phone with its
// verified email is the account's; one with another email is not.
func TestStaffWalkInWithAccountsEmail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A
		ana, _ := apptest.Customer(t, a, "ana@example.com", "611555666") // verified
		walk := func(n int, email, plate string) int64 {
			f := webtest.WalkInFields(n, clocktest.Shift(time.Date(2026, 12, 12, 10, 0, 0, 0, webtest.Madrid)), 2, "")
			f["phone"], f["email"], f["license_plate"] = "611555666", email, plate
			return e.WalkIn(f)
		}
		mine, stranger := walk(1, "Ana@example.com", "5555EEE"), walk(2, "otro@example.com", "6666FFF")
		ids, raw := listed(t, a, ana)
		if !ids[mine] || ids[stranger] || strings.Contains(raw, "6666FFF") {
			t.Errorf("lists %v, want %d and not %d", ids, mine, stranger)
		}
	})
}

// TestEmailVerificationLink: a good link verifies and answers the same when
// followed again; a tampered link, an expired one (48 hours, the service's clock)
// and one sent to the account's earlier email are 400 pages that say so in Spanish,
// and verify nothing.
func TestEmailVerificationLink(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		a := apptest.StartWith(t, cfg)
		bea := registerJSON(t, a, "Bea Buena", "bea@example.com", "611666777")
		first := lastVerifyLink(t, a, "bea@example.com")
		verified := func() bool {
			return webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE email_verified_at IS NOT NULL`) > 0
		}
		wantRefused := func(what, link, words string) {
			t.Helper()
			r := follow(t, apptest.Client(t), link)
			if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, words) {
				t.Errorf("%s: %d, want 400 saying %q:\n%.300s", what, r.StatusCode, words, r.Body)
			}
			if verified() {
				t.Fatalf("%s verified the email", what)
			}
		}
		u, _ := url.Parse(first)
		tok := u.Query().Get("t")
		flip := "A"
		if strings.HasSuffix(tok, "A") {
			flip = "B"
		}
		wantRefused("tampered link", a.URL+"/users/verify?t="+url.QueryEscape(tok[:len(tok)-1]+flip), "no es válido")
		wantRefused("another account's id", a.URL+"/users/verify?t="+url.QueryEscape("2"+tok[strings.Index(tok, "."):]), "no es válido")
		wantRefused("empty link", a.URL+"/users/verify", "no es válido")

		// A link for an earlier email does not verify the current one.
		if status, body := webtest.CustCall(t, bea, "PUT", a.URL+"/users/profile/update", map[string]any{"email": "bea.nueva@example.com"}); status != http.StatusOK {
			t.Fatalf("update: %d %v", status, body)
		}
		toNew := lastVerifyLink(t, a, "bea.nueva@example.com")
		if status, body := webtest.CustCall(t, bea, "PUT", a.URL+"/users/profile/update", map[string]any{"email": "bea@example.com"}); status != http.StatusOK {
			t.Fatalf("update back: %d %v", status, body)
		}
		wantRefused("link sent to an earlier email", toNew, "no es válido")

		clk.Advance(48*time.Hour + time.Minute)
		wantRefused("expired link", first, "ha caducado")
		wantRefused("expired link to the current email", lastVerifyLink(t, a, "bea@example.com"), "ha caducado")

		var id int64
		if err := a.Store.DB().QueryRow(`SELECT id_customer FROM customer WHERE email = 'bea@example.com'`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		bea = apptest.LoggedIn(t, a, account.User{ID: id})
		if status, body := webtest.CustCall(t, bea, "POST", a.URL+"/users/verify/resend", nil); status != http.StatusOK {
			t.Fatalf("resend: %d %v", status, body)
		}
		good := lastVerifyLink(t, a, "bea@example.com")
		wantVerified(t, apptest.Client(t), good)
		wantVerified(t, apptest.Client(t), good) // again: mail scanners open links first
		if !emailVerified(t, a, bea) {
			t.Error("not verified")
		}
	})
}

// TestResendVerification: a signed-in account gets a new link on request, not two
// within two minutes (429), and none once verified (409); the page's form comes back
// to the profile.
func TestResendVerification(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		cfg, clk := apptest.ConfigClock(t, d)
		a := apptest.StartWith(t, cfg)
		carl := registerJSON(t, a, "Carl", "carl@example.com", "611777888")
		resend := func() (int, map[string]any) {
			return webtest.CustCall(t, carl, "POST", a.URL+"/users/verify/resend", nil)
		}
		if status, body := resend(); status != http.StatusTooManyRequests {
			t.Errorf("resend right after registration: %d %v, want 429", status, body)
		}
		clk.Advance(3 * time.Minute)
		if status, body := resend(); status != http.StatusOK || body["success"] != true {
			t.Errorf("resend: %d %v", status, body)
		}
		if n := len(verifyLinks(t, a, "carl@example.com")); n != 2 {
			t.Errorf("links = %d, want 2", n)
		}
		clk.Advance(3 * time.Minute)
		r := webtest.PostForm(t, carl, a.URL+"/users/verify/resend", url.Values{})
		if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/users/profile?verify=sent" {
			t.Errorf("form resend: %d %q", r.StatusCode, r.Header.Get("Location"))
		}
		wantVerified(t, carl, lastVerifyLink(t, a, "carl@example.com"))
		clk.Advance(3 * time.Minute)
		if status, body := resend(); status != http.StatusConflict {
			t.Errorf("resend when verified: %d %v, want 409", status, body)
		}
		if status, _ := webtest.CustCall(t, apptest.Client(t), "POST", a.URL+"/users/verify/resend", nil); status != http.StatusUnauthorized {
			t.Errorf("resend without a session: %d, want 401", status)
		}
	})
}

// TestClaimBooking: an account takes a booking made with another phone by its
// reference and manage token; a wrong token, reference or malformed reference is
// the same 404, and takes nothing.
func TestClaimBooking(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		dan, _ := apptest.Customer(t, a, "dan@example.com", "611888999")
		id, ref := publicBooking(t, a, "Dan", "dan.trabajo@example.com", "622000111", "7777GGG", "2026-12-10")
		r, err := a.Store.Reservations().Reservation(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		token, _ := a.Booking.ManageLink(r)
		other, otherRef := publicBooking(t, a, "Otro", "otro@example.com", "622000222", "8888HHH", "2026-12-11")
		claim := func(ref, token string) (int, map[string]any) {
			return webtest.CustCall(t, dan, "POST", a.URL+"/users/profile/claim", map[string]any{"reference": ref, "manage_token": token})
		}
		_, wrong := claim(ref, token+"x")
		for name, c := range map[string][2]string{"wrong token": {ref, token + "x"}, "another booking's reference": {otherRef, token},
			"malformed reference": {"nope", token}, "no token": {ref, ""}} {
			if status, body := claim(c[0], c[1]); status != http.StatusNotFound || body["message"] != wrong["message"] {
				t.Errorf("%s: %d %v, want the same 404 %v", name, status, body, wrong)
			}
		}
		if ids, _ := listed(t, a, dan); ids[id] || ids[other] {
			t.Fatalf("listed before the claim: %v", ids)
		}
		status, body := claim(strings.ToLower(ref), token)
		if status != http.StatusOK || body["success"] != true || body["reference"] != ref || body["id_reservation"] != float64(id) {
			t.Fatalf("claim: %d %v", status, body)
		}
		ids, raw := listed(t, a, dan)
		if !ids[id] || ids[other] || !strings.Contains(raw, "7777GGG") {
			t.Errorf("after the claim lists %v", ids)
		}
		if status, body := webtest.CustCall(t, dan, "DELETE", fmt.Sprintf("%s/users/profile/reservation/%d/cancel", a.URL, id), nil); status != http.StatusOK {
			t.Errorf("cancel the claimed booking: %d %v", status, body)
		}
		// The page's form.
		r2, _ := a.Store.Reservations().Reservation(context.Background(), other)
		token2, _ := a.Booking.ManageLink(r2)
		res := webtest.PostForm(t, dan, a.URL+"/users/profile/claim", url.Values{"reference": {otherRef}, "manage_token": {token2}})
		if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/users/profile?claimed=") {
			t.Errorf("form claim: %d %q", res.StatusCode, res.Header.Get("Location"))
		}
		page := webtest.Do(t, dan, "GET", a.URL+res.Header.Get("Location"), nil, "Accept: text/html")
		webtest.WantAll(t, "profile after a claim", page.Body, "La reserva "+otherRef+" está ahora en su cuenta.", "8888HHH")
	})
}

// TestAccountErasureKeepsStrangersBooking: an account that erases itself takes
// only its own bookings with it; a stranger's booking that landed on its phone is
// neither cancelled nor blanked, and stays findable by that phone.
func TestAccountErasureKeepsStrangersBooking(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		mallory := registerJSON(t, a, "Mallory Malo", "mallory@example.com", "611222333")
		own, _ := publicBookingSignedIn(t, a, mallory, "611222333", "7777MMM")
		victim, _ := publicBooking(t, a, "Víctor Víctima", "victor@example.com", "611222333", "9999VVV", "2026-12-10")
		if status, body := webtest.CustCall(t, mallory, "POST", a.URL+"/users/profile/delete", map[string]any{"password": "secret-password"}); status != http.StatusOK {
			t.Fatalf("erase: %d %v", status, body)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation r JOIN customer c ON c.id_customer = r.id_customer
			WHERE r.id_reservation = $1 AND r.status = 'PENDIENTE' AND r.contact_email = 'victor@example.com'
			AND c.phone = '+34611222333' AND c.type = 'NO-REGISTRADO' AND c.email IS NULL`, victim); n != 1 {
			t.Error("the stranger's booking did not survive the erasure on a record with its phone")
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation WHERE id_reservation = $1 AND status = 'CANCELADA' AND contact_email IS NULL`, own); n != 1 {
			t.Error("the account's own booking was not cancelled and blanked")
		}
		// The car park still finds it by the phone: a new booking with it lands beside it.
		next, _ := publicBooking(t, a, "Víctor Víctima", "victor@example.com", "611222333", "9999VVV", "2026-12-20")
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM reservation a JOIN reservation b ON a.id_customer = b.id_customer
			WHERE a.id_reservation = $1 AND b.id_reservation = $2`, victim, next); n != 1 {
			t.Error("a later booking with the phone is not on the same record")
		}
	})
}
