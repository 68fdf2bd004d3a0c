package apptest

import (
	"context"
	"golang.org/x/crypto/bcrypt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"testing"

	"parking/internal/account"
	"parking/internal/app"
	"parking/internal/apptest/apispec"
	"parking/internal/reservation"
	"parking/internal/store"
)

// Client returns an HTTP client with a cookie jar that does not follow redirects,
// so tests see the 303s themselves.
func Client(tb testing.TB) *http.Client {
	tb.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		tb.Fatal(err)
	}
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if apispec.Enabled() { // PARKING_TEST_OPENAPI=1: every JSON exchange checked against the API document
		apispec.Client(tb, c)
	}
	return c
}

// Account creates an account of type typ directly in the database (phone may be "").
// A phone that reads as one is stored in its E.164 form, as the service stores it
// (docs/input-rules.md); any other text is stored as given (data from before the rule).
func Account(tb testing.TB, a *app.App, typ reservation.CustomerType, name, email, phone, password string) account.User {
	tb.Helper()
	ctx := context.Background()
	if p, err := a.Config.Input.Phone("phone", phone); err == nil {
		phone = p
	}
	hash, err := account.HashPassword(password, bcrypt.MinCost)
	if err != nil {
		tb.Fatal(err)
	}
	var id int64
	err = a.Store.InTx(ctx, func(tx *store.Tx) error {
		na := store.NewAccount{FullName: name, Email: email, Type: typ, PasswordHash: hash}
		if phone != "" {
			na.Phone = &phone
		}
		id, err = tx.Accounts().InsertAccount(ctx, na)
		return err
	})
	if err != nil {
		tb.Fatalf("create account %s: %v", email, err)
	}
	c, err := a.Store.Customers().Customer(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	return account.UserOf(c)
}

// LoggedIn returns a client holding a live session of the user (a session created
// directly, without the login page).
func LoggedIn(tb testing.TB, a *app.App, u account.User) *http.Client {
	tb.Helper()
	token, err := a.Accounts.StartSession(context.Background(), u.ID)
	if err != nil {
		tb.Fatal(err)
	}
	c := Client(tb)
	base, _ := url.Parse(a.URL)
	c.Jar.SetCookies(base, []*http.Cookie{{Name: "parking_session", Value: token, Path: "/"}})
	return c
}

// Admin creates an administrator and returns it with a logged-in client.
func Admin(tb testing.TB, a *app.App) (*http.Client, account.User) {
	tb.Helper()
	u := Account(tb, a, reservation.Admin, "Admin Test", "admin@example.com", "", "admin-password")
	return LoggedIn(tb, a, u), u
}

// Customer creates a REGISTRADO customer with that phone and a verified email, and
// returns it with a logged-in client.
func Customer(tb testing.TB, a *app.App, email, phone string) (*http.Client, account.User) {
	tb.Helper()
	u := Account(tb, a, reservation.Registered, "Cliente "+phone, email, phone, "customer-password")
	VerifyEmail(tb, a, u.ID)
	return LoggedIn(tb, a, u), u
}

// VerifyEmail marks an account's email verified directly in the database, as
// following its verification link would (docs/accounts.md#email-verification), and
// claims the bookings that qualify by it.
func VerifyEmail(tb testing.TB, a *app.App, id int64) {
	tb.Helper()
	ctx := context.Background()
	err := a.Store.InTx(ctx, func(tx *store.Tx) error {
		c, err := tx.Customers().Customer(ctx, id)
		if err != nil {
			return err
		}
		if _, err := tx.Customers().SetEmailVerified(ctx, id, *c.Email, tx.Now); err != nil {
			return err
		}
		_, err = tx.Customers().ClaimQualifying(ctx, id, reservation.Claimable)
		return err
	})
	if err != nil {
		tb.Fatalf("verify email of %d: %v", id, err)
	}
}
