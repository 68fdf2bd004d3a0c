// Package reservation holds the domain records and the spec's state rules
// (States and transitions; per-state rules). It is pure: no SQL, no HTTP.
package reservation

import (
	"time"

	"parking/internal/money"
)

// Status is one of the four states of the spec.
type Status string

const (
	Pending   Status = "PENDIENTE"
	InCourse  Status = "EN CURSO"
	Finalized Status = "FINALIZADA"
	Cancelled Status = "CANCELADA"
)

// Statuses lists the states in their life order.
var Statuses = []Status{Pending, InCourse, Finalized, Cancelled}

// ParseStatus accepts exactly one of the four names.
func ParseStatus(s string) (Status, bool) {
	for _, st := range Statuses {
		if string(st) == s {
			return st, true
		}
	}
	return "", false
}

// Terminal: FINALIZADA and CANCELADA allow no edits, no cancel, no photos, no status change.
func (s Status) Terminal() bool { return s == Finalized || s == Cancelled }

// PaymentMethod is recorded at finalization.
type PaymentMethod string

const (
	Cash PaymentMethod = "EFECTIVO"
	Card PaymentMethod = "TARJETA"
)

// ParsePaymentMethod accepts EFECTIVO or TARJETA.
func ParsePaymentMethod(s string) (PaymentMethod, bool) {
	switch PaymentMethod(s) {
	case Cash, Card:
		return PaymentMethod(s), true
	}
	return "", false
}

// CustomerType values (CONTRACT §5).
type CustomerType string

const (
	Admin        CustomerType = "ADMIN"
	Registered   CustomerType = "REGISTRADO"
	Unregistered CustomerType = "NO-REGISTRADO"
)

// Reservation is the stored record (spec, Resources: Reservation).
type Reservation struct {
	ID              int64
	ReservationDate time.Time
	Entry           time.Time
	Exit            *time.Time
	Status          Status
	TotalPrice      money.Cents
	IsPaid          bool
	PaymentMethod   *PaymentMethod
	Notes           *string
	Spot            *string
	CustomerID      int64
	VehicleID       int64
	MainServiceID   int64
	UpdatedAt       time.Time
}

// Customer is a customer or staff account (spec, Resources: Customer).
type Customer struct {
	ID           int64
	FullName     string
	Phone        *string
	Email        *string
	Type         CustomerType
	PasswordHash *string
	CreatedAt    time.Time
}

// Vehicle (spec, Resources: Vehicle).
type Vehicle struct {
	ID           int64
	LicensePlate string
	Brand        string
	Model        string
	Color        string
	Type         string
}

// Default vehicle data for the booking flows (spec: Desconocida / Desconocido / No color).
const (
	DefaultBrand = "Desconocida"
	DefaultModel = "Desconocido"
	DefaultColor = "No color"
)

// MinPhotosToStart is the spec's limit: at least 5 photos before check-in.
const MinPhotosToStart = 5
