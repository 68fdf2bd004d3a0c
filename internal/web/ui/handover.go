package ui

import "net/http"

// handoverPages are the hand-over of a vehicle: its photos (handover_photos.go;
// docs/photos.md), the hand-over records at check-in and check-out, and the entry
// document (handover_entry_document.go; docs/entry-document.md).
type handoverPages struct{ *base }

func (s handoverPages) routes(mux *http.ServeMux) {
	// A photo of a reservation, by address or uploaded: also an administrator's API
	// token (docs/photos.md#api-tokens).
	mux.Handle("POST /admin/reservations/{id}/photos", s.RequireAdminOrToken(s.adminAddPhoto))
	// Uploaded photos: to staff and to the reservation's customer; the handler
	// checks who asks.
	mux.HandleFunc("GET /media/photos/{id}/{size}", s.mediaPhoto)
	// The vehicle's entry document, for staff, the owner and the manage link.
	s.adminOnly(mux)("GET /admin/reservations/details/{id}/justificante", s.adminEntryDocument)
	mux.Handle("GET /users/profile/reservation/{id}/justificante", s.RequireUser(s.customerEntryDocument))
	mux.HandleFunc("GET /reserva/{reference}/justificante", s.manageEntryDocument)
}
