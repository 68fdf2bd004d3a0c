package ui

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"parking/internal/account"
	"parking/internal/fault"
	"parking/internal/i18n"
	"parking/internal/localtime"
	"parking/internal/money"
	"parking/internal/privacy"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// Privacy rights (GDPR arts. 15, 17, 20; docs/privacy.md):
//
//	GET  /users/profile/data          "Descargar mis datos": a JSON file of everything held
//	POST /users/profile/delete        "Eliminar mi cuenta": password (or, for a social-login
//	                                  account, confirm=ELIMINAR); personal data anonymised at once
//	GET  /admin/customers/{id}/data   the same file, for staff acting on a guest's request
//	POST /admin/customers/{id}/erase  the same erasure, confirm=ELIMINAR

// EraseConfirmWord is what a confirmation without a password types.
const EraseConfirmWord = "ELIMINAR"

// Messages of the erasure.
const (
	msgErased          = "msg.erased"
	msgStaffErased     = "msg.staff_erased"
	msgEraseConfirm    = "msg.erase_confirm"
	msgErasePassword   = "msg.erase_password"
	exportFileTemplate = "mis-datos-parking-%d.json"
)

// Wire shapes of the export (domain types carry no JSON tags).
type (
	exportJSON struct {
		GeneratedAt  string              `json:"generated_at"`
		Controller   exportController    `json:"controller"`
		Account      exportAccount       `json:"account"`
		Vehicles     []exportVehicle     `json:"vehicles"`
		Reservations []exportReservation `json:"reservations"`
	}
	exportController struct {
		Name    string `json:"name"`
		TaxID   string `json:"tax_id"`
		Address string `json:"address"`
		Email   string `json:"email"`
	}
	exportAccount struct {
		ID                 int64          `json:"id"`
		exportContact                     // the account's own name, email and phone
		Type               string         `json:"type"`
		CreatedAt          string         `json:"created_at"`
		HasPassword        bool           `json:"has_password"`
		PrivacyAckAt       *string        `json:"privacy_ack_at"`
		MarketingConsentAt *string        `json:"marketing_consent_at"`
		ErasedAt           *string        `json:"erased_at"`
		SocialLogins       []exportSocial `json:"social_logins"`
	}
	exportSocial struct {
		Provider string `json:"provider"`
		Subject  string `json:"subject"`
		Email    string `json:"email"`
		LinkedAt string `json:"linked_at"`
	}
	exportVehicle struct {
		LicensePlate string `json:"license_plate"`
		Brand        string `json:"brand"`
		Model        string `json:"model"`
		Color        string `json:"color"`
		Type         string `json:"vehicle_type"`
	}
	exportExtra struct {
		Name  string      `json:"name"`
		Price money.Cents `json:"price"`
	}
	exportContact struct {
		FullName string  `json:"full_name"`
		Email    *string `json:"email"`
		Phone    *string `json:"phone"`
	}
	exportPhoto struct {
		FilePath    string  `json:"file_path"`
		Description *string `json:"description"`
		TakenAt     string  `json:"taken_at"`
	}
	exportNotification struct {
		Type      string          `json:"type"`
		Status    string          `json:"status"`
		CreatedAt string          `json:"created_at"`
		SentAt    *string         `json:"sent_at"`
		Payload   json.RawMessage `json:"payload"`
	}
	exportReservation struct {
		reservationHeadJSON
		MainService        string        `json:"main_service"`
		AdditionalServices []exportExtra `json:"additional_services"`
		reservationPaymentJSON
		ParkingSpot        *string              `json:"parking_spot"`
		Notes              *string              `json:"notes"`
		Contact            *exportContact       `json:"contact"`
		Vehicle            exportVehicle        `json:"vehicle"`
		PrivacyAckAt       *string              `json:"privacy_ack_at"`
		MarketingConsentAt *string              `json:"marketing_consent_at"`
		Photos             []exportPhoto        `json:"photos"`
		Notifications      []exportNotification `json:"notifications"`
	}
)

func exportContactOf(c reservation.Contact) exportContact {
	return exportContact{FullName: c.FullName, Email: c.Email, Phone: c.Phone}
}

func exportVehicleOf(v reservation.Vehicle) exportVehicle {
	return exportVehicle{LicensePlate: v.LicensePlate, Brand: v.Brand, Model: v.Model, Color: v.Color, Type: v.Type}
}

func (s accountPages) exportBody(e privacy.Export) exportJSON {
	loc := s.cfg.Location
	ts := func(t time.Time) string { return localtime.JSON(t, loc) }
	opt := func(t *time.Time) *string {
		if t == nil {
			return nil
		}
		v := ts(*t)
		return &v
	}
	c := e.Area.Customer
	out := exportJSON{
		GeneratedAt: ts(e.GeneratedAt),
		Controller:  exportController{Name: e.Controller.Name, TaxID: e.Controller.TaxID, Address: e.Controller.Address, Email: e.Controller.Email},
		Account: exportAccount{ID: c.ID, exportContact: exportContactOf(c.Contact()), Type: string(c.Type),
			CreatedAt: ts(c.CreatedAt), HasPassword: account.HasOwnPassword(c.PasswordHash),
			PrivacyAckAt: opt(e.Extras.PrivacyAckAt), MarketingConsentAt: opt(e.Extras.MarketingConsentAt), ErasedAt: opt(e.Extras.ErasedAt),
			SocialLogins: []exportSocial{}},
		Vehicles:     []exportVehicle{},
		Reservations: []exportReservation{},
	}
	for _, si := range e.Extras.Identities {
		out.Account.SocialLogins = append(out.Account.SocialLogins, exportSocial{Provider: si.Provider, Subject: si.Subject, Email: si.Email, LinkedAt: ts(si.CreatedAt)})
	}
	for _, v := range e.Area.Vehicles {
		out.Vehicles = append(out.Vehicles, exportVehicleOf(v))
	}
	for _, r := range e.Area.Reservations {
		x := exportReservation{reservationHeadJSON: s.reservationHead(r.Reservation), MainService: r.MainServiceName, AdditionalServices: []exportExtra{},
			reservationPaymentJSON: reservationPayment(r.Reservation), ParkingSpot: r.Spot, Notes: r.Notes,
			Vehicle: exportVehicleOf(r.Vehicle),
			Photos:  []exportPhoto{}, Notifications: []exportNotification{}}
		if r.Contact != nil {
			contact := exportContactOf(*r.Contact)
			x.Contact = &contact
		}
		for _, ex := range r.Extras {
			x.AdditionalServices = append(x.AdditionalServices, exportExtra{Name: ex.Name, Price: ex.Price})
		}
		if rp := e.Extras.Reservations[r.ID]; rp != nil {
			x.PrivacyAckAt, x.MarketingConsentAt = opt(rp.PrivacyAckAt), opt(rp.MarketingConsentAt)
			for _, p := range rp.Photos {
				x.Photos = append(x.Photos, exportPhoto{FilePath: p.FilePath, Description: p.Description, TakenAt: ts(p.TakenAt)})
			}
			for _, n := range rp.Notifications {
				payload := json.RawMessage(n.Payload)
				if !json.Valid(payload) {
					payload, _ = json.Marshal(n.Payload)
				}
				x.Notifications = append(x.Notifications, exportNotification{Type: n.Type, Status: n.Status,
					CreatedAt: ts(n.CreatedAt), SentAt: opt(n.SentAt), Payload: payload})
			}
		}
		out.Reservations = append(out.Reservations, x)
	}
	return out
}

// writeExport answers the export as a file to download.
func (s accountPages) writeExport(w http.ResponseWriter, r *http.Request, customerID int64, asAccount bool) {
	e, err := s.privacy.Export(r.Context(), customerID, asAccount)
	if err != nil {
		s.privacyFailed(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="`+exportFileTemplate+`"`, customerID))
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusOK, s.exportBody(e))
}

// privacyFailed answers a refused export or erasure: JSON clients
// {success:false,message}, browsers the error page with a way back.
func (s accountPages) privacyFailed(w http.ResponseWriter, r *http.Request, err error) {
	if jsonClient(r) {
		s.WriteSuccessFalse(w, r, err)
		return
	}
	back, label := "/users/profile", "back.account"
	if strings.HasPrefix(r.URL.Path, "/admin/") {
		back, label = "/admin/history", "back.history"
	}
	s.renderError(w, r, err, "error.not_completed", back, label)
}

// customerExport is GET /users/profile/data.
func (s accountPages) customerExport(w http.ResponseWriter, r *http.Request) {
	s.writeExport(w, r, httpx.GuardedUser(r).ID, true)
}

// customerErase is POST /users/profile/delete: confirmed with the account's
// password, or, for an account without one (social login), by typing ELIMINAR.
func (s accountPages) customerErase(w http.ResponseWriter, r *http.Request) {
	u := httpx.GuardedUser(r)
	f, err := httpx.ReadTexts(w, r, "password", "confirm")
	if err != nil {
		s.privacyFailed(w, r, err)
		return
	}
	own, err := s.accounts.HasOwnPasswordOf(r.Context(), u.ID)
	if err != nil {
		s.privacyFailed(w, r, err)
		return
	}
	if own {
		pw := deref(f["password"])
		if pw == "" {
			s.privacyFailed(w, r, fault.Coded(fault.Invalid, msgErasePassword))
			return
		}
		if err := s.accounts.ConfirmPassword(r.Context(), u, pw, r.RemoteAddr); err != nil {
			httpx.SetRetryAfter(w, err) // throttled: when to try again
			s.privacyFailed(w, r, err)
			return
		}
	} else if !strings.EqualFold(strings.TrimSpace(deref(f["confirm"])), EraseConfirmWord) {
		s.privacyFailed(w, r, fault.Coded(fault.Invalid, msgEraseConfirm))
		return
	}
	if _, err := s.privacy.Erase(r.Context(), u.ID, true); err != nil {
		s.privacyFailed(w, r, err)
		return
	}
	s.ClearSessionCookie(w) // the session itself was deleted with the data
	if jsonClient(r) {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": s.T(r, msgErased)})
		return
	}
	s.render(w, r, http.StatusOK, "error.html", "error.account_deleted", errorView{
		Heading: "error.account_deleted", Message: "msg.erased_page",
		BackHref: "/", BackLabel: "back.home",
	})
}

// adminCustomerExport is GET /admin/customers/{id}/data.
func (s accountPages) adminCustomerExport(w http.ResponseWriter, r *http.Request) {
	id, err := httpx.PathID(r, "id", httpx.PathCustomer)
	if err != nil {
		s.privacyFailed(w, r, err)
		return
	}
	s.writeExport(w, r, id, false)
}

// adminCustomerErase is POST /admin/customers/{id}/erase, confirm=ELIMINAR; a
// browser goes back to the page it came from (back, under /admin/).
func (s accountPages) adminCustomerErase(w http.ResponseWriter, r *http.Request) {
	id, err := httpx.PathID(r, "id", httpx.PathCustomer)
	if err != nil {
		s.privacyFailed(w, r, err)
		return
	}
	f, err := httpx.ReadTexts(w, r, "confirm", "back")
	if err != nil {
		s.privacyFailed(w, r, err)
		return
	}
	if !strings.EqualFold(strings.TrimSpace(deref(f["confirm"])), EraseConfirmWord) {
		s.privacyFailed(w, r, fault.Coded(fault.Invalid, msgEraseConfirm))
		return
	}
	done, err := s.privacy.Erase(r.Context(), id, false)
	if err != nil {
		s.privacyFailed(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "customer data erased by staff", "id_customer", id, "by", httpx.GuardedUser(r).ID)
	if jsonClient(r) {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": s.T(r, msgStaffErased),
			"erased": map[string]any{"id_customer": id, "reservations": done.Reservations, "cancelled": done.Cancelled,
				"vehicles": done.Vehicles, "photos": len(done.PhotoFiles)}})
		return
	}
	back := httpx.LocalTarget(deref(f["back"]), "/admin/history")
	if !strings.HasPrefix(back, "/admin/") {
		back = "/admin/history"
	}
	httpx.SeeOther(w, r, back)
}

// customerConsents is POST /users/profile/consents: marketing_consent true gives
// the consent, false withdraws it (the page's form sends a hidden false before its
// checkbox; the last value wins). Browsers go back to the profile; JSON clients get
// {"success":true,"message","marketing_consent"}.
func (s accountPages) customerConsents(w http.ResponseWriter, r *http.Request) {
	in, err := httpx.ReadInput(w, r)
	if err != nil {
		s.privacyFailed(w, r, err)
		return
	}
	on, err := in.OptBool("marketing_consent")
	if err == nil && on == nil {
		err = fault.Coded(fault.Invalid, "err.ui.marketing_consent", "Field", i18n.FieldName("marketing_consent"))

	}
	if err == nil {
		err = s.accounts.SetMarketingConsent(r.Context(), httpx.GuardedUser(r).ID, *on)
	}
	if err != nil {
		s.privacyFailed(w, r, err)
		return
	}
	msg := s.T(r, "msg.marketing_off")
	if *on {
		msg = s.T(r, "msg.marketing_on")
	}
	if jsonClient(r) {
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": msg, "marketing_consent": *on})
		return
	}
	httpx.SeeOther(w, r, "/users/profile")
}
