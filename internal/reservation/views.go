package reservation

import (
	"time"

	"parking/internal/money"
)

// The read models below are what the operations hand to their callers (the pages,
// the JSON API, the board): the store fills them from its queries, and they carry
// no wire format (no JSON tags; the web layer has its own wire structs).

// CustomerReservation is one reservation as the customer area lists it: the record
// with its vehicle, its main service's name and its booked additional services.
type CustomerReservation struct {
	Reservation
	Vehicle         Vehicle
	MainServiceName string
	Extras          []BookedExtraDetail
	// Photos are the uploaded photos of the car (docs/photos.md: personal data the
	// owner may see); photos given by address are staff's references, not listed.
	Photos []Photo
}

// CustomerArea is everything the profile page shows of one customer.
type CustomerArea struct {
	Customer     Customer
	Vehicles     []Vehicle
	Reservations []CustomerReservation // newest entry first
}

// HistoryRow is one reservation of the history with what the list shows of its
// contact (ContactOr: the name, phone and email the booker typed, or the
// customer's), vehicle and main service. AccountName is the name stored on the
// customer the reservation belongs to, which the search matches.
type HistoryRow struct {
	Reservation     Reservation
	CustomerName    string
	Phone           *string
	Email           *string
	AccountName     string
	LicensePlate    string
	Brand           string
	Model           string
	Color           string
	VehicleType     string
	MainServiceName string
}

// Photo is a photo evidence record (docs/reservations.md#photo-evidence).
type Photo struct {
	ID            int64
	ReservationID int64
	FilePath      string
	Description   *string
	TakenAt       time.Time
	// Phase is PhaseEntry (the spec's photos, counted toward the start) or
	// PhaseExit (at check-out); StorageKey names an uploaded photo's blobs in the
	// media store ("" for a photo given by URL).
	Phase      string
	StorageKey string
}

// Photo and hand-over phases (docs/photos.md).
const (
	PhaseEntry = "entrada"
	PhaseExit  = "salida"
)

// Handover is what staff record when the vehicle changes hands: at the start
// (PhaseEntry) and at finalize (PhaseExit). Every measure is optional.
type Handover struct {
	Phase       string
	MileageKm   *int
	FuelPercent *int // fuel or charge level, 0–100 %
	DamageNotes *string
	RecordedAt  time.Time
}

// Empty reports whether nothing was recorded.
func (h Handover) Empty() bool {
	return h.MileageKm == nil && h.FuelPercent == nil && h.DamageNotes == nil
}

// ParkingRow is a reservation on the parking board with its vehicle and contact
// (ContactOr: the one the booker typed, or the customer's data).
type ParkingRow struct {
	Reservation  Reservation
	CustomerName string
	Phone        *string
	LicensePlate string
	Brand        string
	Model        string
	Color        string
	VehicleType  string
}

// BoardItem is one line of the administrators' daily board (docs/board.md:
// reservation item).
type BoardItem struct {
	ID           int64
	Entry        time.Time
	Exit         *time.Time
	Status       Status
	LicensePlate string
	Brand        string
	Color        string
	CustomerName string
	Phone        string
	ServiceName  string
	// ArrivedAt: when a gate camera saw the car come in (docs/gate.md#arrival); entries only.
	ArrivedAt *time.Time
}

// BookedExtraDetail is a booked additional service with its name.
type BookedExtraDetail struct {
	ID    int64
	Name  string
	Price money.Cents
}
