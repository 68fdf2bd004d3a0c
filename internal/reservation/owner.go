package reservation

import "strings"

// Who sees a booking (docs/privacy.md#who-sees-a-booking). A booking lands on the
// customer found by its phone, whoever made it; the account with that phone must
// not see someone else's booking just because it registered the number first.
// These two functions are the one rule every customer route applies (the profile
// lists, cancel, edit, receipts, photos and the data export).

// SeenBy reports whether account c sees reservation r as its own: r is on c's
// customer record and either it was booked while signed in to c, or it has been
// claimed (ClaimedAt), or it is claimable now (Claimable).
func SeenBy(r Reservation, c Customer) bool {
	if r.CustomerID != c.ID {
		return false
	}
	return r.BookedBy == BookedAccount || r.ClaimedAt != nil || Claimable(r, c)
}

// Claimable reports whether a reservation on c's record that c did not book while
// signed in qualifies to become c's: its contact email (what the booker typed, or
// c's own data for a reservation made before contacts were kept) equals c's email,
// ignoring case, and c has verified that email. The operations that can make it
// qualify (a booking, a verification, a staff change of the contact) record the
// claim in the same transaction, so that it stays c's after c's email changes.
func Claimable(r Reservation, c Customer) bool {
	if r.CustomerID != c.ID || !c.EmailVerified() {
		return false
	}
	email := ContactOf(r, c).Email
	return email != nil && strings.EqualFold(strings.TrimSpace(*email), strings.TrimSpace(*c.Email))
}

// SeenArea keeps, of a customer's stored area, what its account sees: the
// reservations SeenBy allows, and the vehicles linked to the record except those
// used only by reservations it does not see (a stranger's plate stays hidden).
func SeenArea(area CustomerArea) CustomerArea {
	seen := make([]CustomerReservation, 0, len(area.Reservations))
	hidden := map[int64]bool{} // vehicles of unseen reservations, unless a seen one uses them
	shown := map[int64]bool{}
	for _, cr := range area.Reservations {
		if SeenBy(cr.Reservation, area.Customer) {
			seen = append(seen, cr)
			shown[cr.VehicleID] = true
		} else {
			hidden[cr.VehicleID] = true
		}
	}
	vehicles := make([]Vehicle, 0, len(area.Vehicles))
	for _, v := range area.Vehicles {
		if !hidden[v.ID] || shown[v.ID] {
			vehicles = append(vehicles, v)
		}
	}
	area.Reservations, area.Vehicles = seen, vehicles
	return area
}
