package ui

import (
	"context"
	"net/http"
	"time"

	"parking/internal/account"
	"parking/internal/localtime"
	"parking/internal/web/httpx"
)

// Staff accounts (docs/staff-and-audit.md): GET /admin/staff lists the ADMIN
// accounts; the form posts create one, disable, enable and set a new password.
// Browsers' form posts answer 303 back to the page with ?ok= or ?error= (as the
// catalog page); JSON clients get {success:true, message, staff} (201 on creation,
// 200 otherwise) or {success:false, message} with 400, 404 or 409.

// staffJSON is one staff account on the wire.
type staffJSON struct {
	ID         int64   `json:"id"`
	FullName   string  `json:"full_name"`
	Email      string  `json:"email"`
	Active     bool    `json:"active"`
	CreatedAt  string  `json:"created_at"`
	DisabledAt *string `json:"disabled_at"`
}

func (s accountPages) staffJSON(st account.Staff) staffJSON {
	out := staffJSON{ID: st.ID, FullName: st.Name, Email: st.Email, Active: st.Active(),
		CreatedAt: localtime.JSON(st.CreatedAt, s.cfg.Location)}
	if st.DisabledAt != nil {
		d := localtime.JSON(*st.DisabledAt, s.cfg.Location)
		out.DisabledAt = &d
	}
	return out
}

// staffPageView is the data of admin_staff.html.
type staffPageView struct {
	Notice, Error string
	Staff         []staffRowView
	Me            int64
}

type staffRowView struct {
	ID                  int64
	Name, Email         string
	Active              bool
	CreatedAt, Disabled time.Time
}

// adminStaff is GET /admin/staff.
func (s accountPages) adminStaff(w http.ResponseWriter, r *http.Request) {
	list, err := s.accounts.ListStaff(r.Context())
	if err != nil {
		s.listUnavailable(w, r, err, "error.staff_unavailable")
		return
	}
	if httpx.WantsJSON(r) {
		items := make([]staffJSON, len(list))
		for i, st := range list {
			items[i] = s.staffJSON(st)
		}
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"staff": items})
		return
	}
	q := r.URL.Query()
	v := staffPageView{Notice: q.Get("ok"), Error: q.Get("error"), Me: httpx.GuardedUser(r).ID}
	for _, st := range list {
		row := staffRowView{ID: st.ID, Name: st.Name, Email: st.Email, Active: st.Active(), CreatedAt: st.CreatedAt}
		if st.DisabledAt != nil {
			row.Disabled = *st.DisabledAt
		}
		v.Staff = append(v.Staff, row)
	}
	s.render(w, r, http.StatusOK, "admin_staff.html", "title.staff", v)
}

// staffWrite reads the body, runs do, and answers (a browser's form post: 303 back
// to the staff page with the outcome).
func (s accountPages) staffWrite(w http.ResponseWriter, r *http.Request, status int, message string,
	do func(in httpx.Input) (*account.Staff, error)) {
	page := httpx.BrowserForm(r)
	in, err := httpx.ReadInput(w, r)
	var st *account.Staff
	if err == nil {
		st, err = do(in)
	}
	switch {
	case page:
		s.backToPage(w, r, "/admin/staff", message, err)
	case err != nil:
		s.WriteSuccessFalse(w, r, err)
	default:
		body := map[string]any{"success": true, "message": message}
		if st != nil {
			body["staff"] = s.staffJSON(*st)
		}
		httpx.WriteJSON(w, status, body)
	}
}

// staffTexts reads the text fields of a staff form.
func staffTexts(in httpx.Input, names ...string) (map[string]*string, error) {
	return in.Texts(names...)
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// adminCreateStaff is POST /admin/staff: full_name, email, password, confirmPassword.
func (s accountPages) adminCreateStaff(w http.ResponseWriter, r *http.Request) {
	s.staffWrite(w, r, http.StatusCreated, s.T(r, "msg.staff_created"), func(in httpx.Input) (*account.Staff, error) {
		f, err := staffTexts(in, "full_name", "email", "password", "confirmPassword")
		if err != nil {
			return nil, err
		}
		st, err := s.accounts.CreateStaff(r.Context(), account.NewStaff{
			Name: str(f["full_name"]), Email: str(f["email"]), Password: str(f["password"]), Confirm: f["confirmPassword"]})
		return &st, err
	})
}

// adminDisableStaff is POST /admin/staff/{id}/disable.
func (s accountPages) adminDisableStaff(w http.ResponseWriter, r *http.Request) {
	s.staffSwitch(w, r, s.T(r, "msg.staff_disabled"), s.accounts.DisableStaff)
}

// adminEnableStaff is POST /admin/staff/{id}/enable.
func (s accountPages) adminEnableStaff(w http.ResponseWriter, r *http.Request) {
	s.staffSwitch(w, r, s.T(r, "msg.staff_enabled"), s.accounts.EnableStaff)
}

// staffSwitch runs turn (disable or enable) on the staff account of the path's {id}.
func (s accountPages) staffSwitch(w http.ResponseWriter, r *http.Request, message string,
	turn func(ctx context.Context, id int64) (account.Staff, error)) {
	s.staffWrite(w, r, http.StatusOK, message, func(httpx.Input) (*account.Staff, error) {
		id, err := httpx.PathID(r, "id", httpx.PathStaff)
		if err != nil {
			return nil, err
		}
		st, err := turn(r.Context(), id)
		return &st, err
	})
}

// adminStaffPassword is POST /admin/staff/{id}/password: password, confirmPassword.
// The account's other sessions and tokens end (the caller's own session stays).
func (s accountPages) adminStaffPassword(w http.ResponseWriter, r *http.Request) {
	s.staffWrite(w, r, http.StatusOK, s.T(r, "msg.staff_password"), func(in httpx.Input) (*account.Staff, error) {
		id, err := httpx.PathID(r, "id", httpx.PathStaff)
		if err != nil {
			return nil, err
		}
		f, err := staffTexts(in, "password", "confirmPassword")
		if err != nil {
			return nil, err
		}
		keep := ""
		if id == httpx.GuardedUser(r).ID {
			keep = httpx.SessionToken(r)
		}
		return nil, s.accounts.SetStaffPassword(r.Context(), id, keep, str(f["password"]), f["confirmPassword"])
	})
}
