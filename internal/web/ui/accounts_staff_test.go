package ui_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"parking/internal/account"
	"parking/internal/apptest"
	"parking/internal/audit"
	"parking/internal/fault"
	"parking/internal/reservation"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// TestAdminStaffAccounts: an administrator creates a staff account, which logs in
// and gets a token; disabling it ends its session and token at once and refuses its
// login; enabling it lets it back; a new password replaces the old one; the last
// active administrator cannot be disabled. Every change is on the audit trail.
func TestAdminStaffAccounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		a := e.A

		status, body := e.JSON("GET", "/admin/staff", nil)
		if status != 200 || len(body["staff"].([]any)) != 1 {
			t.Fatalf("GET /admin/staff: %d %v", status, body)
		}
		me := body["staff"].([]any)[0].(map[string]any)
		if me["email"] != "admin@example.com" || me["active"] != true || me["disabled_at"] != nil {
			t.Errorf("admin = %v", me)
		}
		adminID := int64(me["id"].(float64))

		// Refusals: nothing is created.
		for _, c := range []struct {
			body   map[string]any
			status int
			msg    string
		}{
			{map[string]any{"full_name": "Luis", "email": "luis@example.com", "password": "corta"}, 400, "La contraseña debe tener al menos 8 caracteres."},
			{map[string]any{"full_name": "Luis", "email": "luis@example.com", "password": "luis-pass-1", "confirmPassword": "otra-cosa"}, 400, "Las contraseñas no coinciden."},
			{map[string]any{"full_name": "Luis", "email": "no-es-correo", "password": "luis-pass-1"}, 400, ""},
			{map[string]any{"full_name": "", "email": "luis@example.com", "password": "luis-pass-1"}, 400, ""},
			{map[string]any{"full_name": "Otro", "email": "ADMIN@example.com", "password": "luis-pass-1"}, 409, "Ya existe una cuenta con el correo ADMIN@example.com."},
		} {
			status, out := e.JSON("POST", "/admin/staff", c.body)
			if status != c.status || out["success"] != false || (c.msg != "" && out["message"] != c.msg) {
				t.Errorf("create %v: %d %v, want %d %q", c.body, status, out, c.status, c.msg)
			}
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE type = 'ADMIN'`); n != 1 {
			t.Fatalf("refused creations left %d admins", n)
		}

		status, body = e.JSON("POST", "/admin/staff", map[string]any{"full_name": "Luis Mora", "email": "luis@example.com",
			"password": "luis-pass-1", "confirmPassword": "luis-pass-1"})
		if status != 201 || body["success"] != true {
			t.Fatalf("create: %d %v", status, body)
		}
		luis := body["staff"].(map[string]any)
		id := int64(luis["id"].(float64))
		if luis["full_name"] != "Luis Mora" || luis["active"] != true {
			t.Errorf("created = %v", luis)
		}

		// Luis logs in on the page and gets a token.
		lc := apptest.Client(t)
		if r := webtest.Login(t, lc, a, "luis@example.com", "luis-pass-1", "worker"); r.StatusCode != 303 {
			t.Fatalf("login: %d %s", r.StatusCode, r.Body)
		}
		tok := webtest.PostJSON(t, apptest.Client(t), a.URL+"/api/auth/token", map[string]string{"email": "luis@example.com", "password": "luis-pass-1"})
		if tok.StatusCode != 200 {
			t.Fatalf("token: %d %s", tok.StatusCode, tok.Body)
		}
		token := webtest.Decode(t, tok)["token"].(string)
		sessionOK := func() int {
			return webtest.Do(t, lc, "GET", a.URL+"/admin/staff", nil, "Accept: application/json").StatusCode
		}
		tokenOK := func() int {
			return webtest.Do(t, apptest.Client(t), "GET", a.URL+"/api/reservations", nil, "Authorization: Bearer "+token).StatusCode
		}
		if s, k := sessionOK(), tokenOK(); s != 200 || k != 200 {
			t.Fatalf("before disabling: session %d, token %d", s, k)
		}

		// Disabled: the session and the token stop working at once, their rows are gone.
		status, body = e.JSON("POST", fmt.Sprintf("/admin/staff/%d/disable", id), nil)
		if status != 200 || body["staff"].(map[string]any)["active"] != false || body["staff"].(map[string]any)["disabled_at"] == nil {
			t.Fatalf("disable: %d %v", status, body)
		}
		if s, k := sessionOK(), tokenOK(); s != 401 || k != 401 {
			t.Errorf("after disabling: session %d, token %d; want 401 and 401", s, k)
		}
		if n := webtest.CountRows(t, a, `SELECT COUNT(*) FROM web_session WHERE id_customer = $1`, id) +
			webtest.CountRows(t, a, `SELECT COUNT(*) FROM api_token WHERE id_customer = $1`, id); n != 0 {
			t.Errorf("%d sessions and tokens of the disabled account left", n)
		}
		r := webtest.Login(t, apptest.Client(t), a, "luis@example.com", "luis-pass-1", "worker")
		if r.StatusCode != 403 || !strings.Contains(r.Body, "Esta cuenta está desactivada") {
			t.Errorf("disabled login: %d, want 403 with the message", r.StatusCode)
		}
		if r := webtest.PostJSON(t, apptest.Client(t), a.URL+"/api/auth/token", map[string]string{"email": "luis@example.com", "password": "luis-pass-1"}); r.StatusCode != 403 {
			t.Errorf("disabled token: %d %s, want 403", r.StatusCode, r.Body)
		}
		// The wrong password still says only "wrong credentials".
		if r := webtest.Login(t, apptest.Client(t), a, "luis@example.com", "mala-clave-9", "worker"); r.StatusCode != 401 {
			t.Errorf("disabled account, wrong password: %d, want 401", r.StatusCode)
		}

		// The last active administrator stays: JSON 400, form 303 with the error.
		status, body = e.JSON("POST", fmt.Sprintf("/admin/staff/%d/disable", adminID), nil)
		webtest.WantMessage(t, status, body, 400, account.ErrLastAdmin.Message)
		st, loc, _ := e.Form(fmt.Sprintf("/admin/staff/%d/disable", adminID), url.Values{})
		if st != 303 || !strings.HasPrefix(loc, "/admin/staff?error=") {
			t.Errorf("form disable of the last admin: %d %s", st, loc)
		}

		// Enabled again (form): Luis logs in.
		st, loc, _ = e.Form(fmt.Sprintf("/admin/staff/%d/enable", id), url.Values{})
		if st != 303 || !strings.HasPrefix(loc, "/admin/staff?ok=") {
			t.Fatalf("form enable: %d %s", st, loc)
		}
		lc = apptest.Client(t)
		if r := webtest.Login(t, lc, a, "luis@example.com", "luis-pass-1", "worker"); r.StatusCode != 303 {
			t.Fatalf("login after enabling: %d", r.StatusCode)
		}
		// A new password (form): the old one and Luis's session stop working.
		st, loc, _ = e.Form(fmt.Sprintf("/admin/staff/%d/password", id), url.Values{"username": {"luis@example.com"}, "password": {"nueva-clave-2"}, "confirmPassword": {"nueva-clave-2"}})
		if st != 303 || !strings.HasPrefix(loc, "/admin/staff?ok=") {
			t.Fatalf("form password: %d %s", st, loc)
		}
		if s := sessionOK(); s != 401 {
			t.Errorf("session after the password was reset: %d, want 401", s)
		}
		if r := webtest.Login(t, apptest.Client(t), a, "luis@example.com", "luis-pass-1", "worker"); r.StatusCode != 401 {
			t.Errorf("old password: %d, want 401", r.StatusCode)
		}
		if r := webtest.Login(t, apptest.Client(t), a, "luis@example.com", "nueva-clave-2", "worker"); r.StatusCode != 303 {
			t.Errorf("new password: %d, want 303", r.StatusCode)
		}
		status, body = e.JSON("POST", fmt.Sprintf("/admin/staff/%d/password", id), map[string]any{"password": "x"})
		webtest.WantMessage(t, status, body, 400, "La contraseña debe tener al menos 8 caracteres.")
		status, body = e.JSON("POST", "/admin/staff/999999/disable", nil)
		if status != 404 {
			t.Errorf("unknown account: %d %v", status, body)
		}
		// A customer account is not staff.
		cust := apptest.Account(t, a, reservation.Registered, "Cliente", "c@example.com", "600123123", "customer-pass")
		if status, _ := e.JSON("POST", fmt.Sprintf("/admin/staff/%d/disable", cust.ID), nil); status != 404 {
			t.Errorf("disable a customer: %d, want 404", status)
		}

		// The trail: create, disable, enable, password: four entries by the admin.
		status, body = e.JSON("GET", "/admin/audit?person=admin@example.com", nil)
		if status != 200 {
			t.Fatalf("audit: %d %v", status, body)
		}
		var actions []string
		for _, x := range body["entries"].([]any) {
			en := x.(map[string]any)
			if en["entity"] == audit.EntityStaff && en["entity_id"] == fmt.Sprint(id) {
				actions = append(actions, en["action"].(string))
			}
		}
		if got := strings.Join(actions, ","); got != "password,enable,disable,create" {
			t.Errorf("staff trail = %s, want password,enable,disable,create", got)
		}

		// The page.
		page := webtest.Do(t, e.C, "GET", a.URL+"/admin/staff", nil, "Accept: text/html")
		webtest.CheckPage(t, page)
		if page.StatusCode != 200 || !strings.Contains(page.Body, "luis@example.com") || !strings.Contains(page.Body, `action="/admin/staff/`+fmt.Sprint(id)+`/disable"`) {
			t.Errorf("staff page: %d", page.StatusCode)
		}
	})
}

// TestLastAdminRace: two administrators disabling each other at the same moment
// leave exactly one of them active, on both databases, every time.
func TestLastAdminRace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		a := apptest.Start(t, d)
		ctx := audit.WithActor(context.Background(), audit.System)
		x := apptest.Account(t, a, reservation.Admin, "X", "x@example.com", "", "x-password")
		y := apptest.Account(t, a, reservation.Admin, "Y", "y@example.com", "", "y-password")
		for round := 0; round < 10; round++ {
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, pair := range [][2]int64{{x.ID, y.ID}, {y.ID, x.ID}} {
				wg.Add(1)
				go func(i int, target int64) {
					defer wg.Done()
					_, errs[i] = a.Accounts.DisableStaff(ctx, target)
				}(i, pair[1])
			}
			wg.Wait()
			ok := 0
			for _, err := range errs {
				switch {
				case err == nil:
					ok++
				case fault.MessageOf(err, "") != account.ErrLastAdmin.Message:
					t.Fatalf("round %d: %v", round, err)
				}
			}
			active := webtest.CountRows(t, a, `SELECT COUNT(*) FROM customer WHERE type = 'ADMIN' AND disabled_at IS NULL`)
			if ok != 1 || active != 1 {
				t.Fatalf("round %d: %d disables succeeded, %d administrators active; want 1 and 1", round, ok, active)
			}
			webtest.Exec(t, a, `UPDATE customer SET disabled_at = NULL WHERE type = 'ADMIN'`)
		}
	})
}
