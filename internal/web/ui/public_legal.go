package ui

import (
	"net/http"

	"parking/internal/settings"
)

// The privacy policy (GET /privacidad) and the terms of service (GET /condiciones):
// Spanish texts for a car park under the GDPR and the LOPDGDD, with the facility's
// identity (name, tax id, address, contact email) from its settings (docs/settings.md),
// so the data controller named is always the one staff configured. See
// docs/privacy.md.

// legalView is the data of privacy.html and terms.html.
type legalView struct {
	F settings.Facility
	// Incomplete: the identity is not fully configured; staff see a reminder.
	Incomplete bool
	IsAdmin    bool
}

func (s publicPages) legalView(w http.ResponseWriter, r *http.Request) (legalView, bool) {
	f, err := s.catalogOps.Facility(r.Context())
	if err != nil {
		status := s.FailureStatus(r, err)
		s.ErrorPage(w, r, status, "error.unavailable", "error.unavailable_msg")
		return legalView{}, false
	}
	v := legalView{F: f, Incomplete: f.Name == "" || f.TaxID == "" || f.Address == "" || f.Email == ""}
	if u, ok := s.CurrentUser(r); ok {
		v.IsAdmin = u.IsAdmin()
	}
	return v, true
}

// privacyPage is GET /privacidad.
func (s publicPages) privacyPage(w http.ResponseWriter, r *http.Request) {
	if v, ok := s.legalView(w, r); ok {
		s.render(w, r, http.StatusOK, "privacy.html", "title.privacy", v)
	}
}

// termsPage is GET /condiciones.
func (s publicPages) termsPage(w http.ResponseWriter, r *http.Request) {
	if v, ok := s.legalView(w, r); ok {
		s.render(w, r, http.StatusOK, "terms.html", "title.terms", v)
	}
}

// consentBlock is the data of the privacy notice with its two checkboxes on the
// registration and booking pages (docs/manage-booking.md#pages).
type consentBlock struct {
	Error     string // the refusal of a post without the acknowledgement
	Marketing bool   // the marketing box ticked
	Purpose   string // what the data is for, in the notice's sentence
}

// accessibilityPage is GET /accesibilidad: the accessibility statement (target,
// conformance, how to report a problem: the facility's contact email when its
// settings have one, the terms page with the provider's identity otherwise).
func (s publicPages) accessibilityPage(w http.ResponseWriter, r *http.Request) {
	if v, ok := s.legalView(w, r); ok {
		s.render(w, r, http.StatusOK, "accessibility.html", "title.accessibility", v)
	}
}
