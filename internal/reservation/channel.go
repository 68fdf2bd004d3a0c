package reservation

import (
	"strconv"
	"strings"
	"time"

	"parking/internal/money"
)

// Channels (docs/partners.md#channels): every reservation says where it was sold.
const (
	// ChannelWeb is the public site and the customer area.
	ChannelWeb = "web"
	// ChannelCounter is a staff walk-in.
	ChannelCounter = "counter"
	// channelPartner prefixes a partner's id: partner:<id>.
	channelPartner = "partner:"
)

// PartnerChannel is the channel of partner id's bookings.
func PartnerChannel(id int64) string { return channelPartner + strconv.FormatInt(id, 10) }

// ChannelOf is the channel of a new reservation: a partner's when partner is not 0,
// the counter for a staff walk-in, the web otherwise.
func ChannelOf(by BookedBy, partner int64) string {
	switch {
	case partner != 0:
		return PartnerChannel(partner)
	case by == BookedStaff:
		return ChannelCounter
	}
	return ChannelWeb
}

// ValidChannel reports whether c names a channel (a filter's value): web, counter or
// partner:<id> with a positive id.
func ValidChannel(c string) bool {
	if c == ChannelWeb || c == ChannelCounter {
		return true
	}
	_, ok := ChannelPartner(c)
	return ok
}

// ChannelPartner is the partner's id of a partner:<id> channel (a positive id, as
// PartnerChannel writes it); false for any other channel.
func ChannelPartner(c string) (int64, bool) {
	id, ok := strings.CutPrefix(c, channelPartner)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 || strconv.FormatInt(n, 10) != id {
		return 0, false
	}
	return n, true
}

// PartnerSale is what a partner booking adds: whose it is, the partner's own
// reference, and the commission rate agreed when it was booked (hundredths of a
// percent, 0–10000).
type PartnerSale struct {
	PartnerID int64
	Reference string
	RateBP    int64
}

// Commission is what the partner earns on r (docs/partners.md#commission): the
// booked price (BookedPrice when an overstay repriced the stay: the partner sold
// the booked stay; TotalPrice otherwise) × the rate, rounded half away from zero to
// the cent; 0 once cancelled and for a reservation no partner sold.
func (r Reservation) Commission() money.Cents {
	if r.Sale == nil || r.Status == Cancelled {
		return 0
	}
	price := r.TotalPrice
	if r.BookedPrice != nil {
		price = *r.BookedPrice
	}
	return CommissionOf(price, r.Sale.RateBP)
}

// CommissionOf is price × rateBP / 10000, rounded half away from zero to the cent.
func CommissionOf(price money.Cents, rateBP int64) money.Cents {
	n := int64(price) * rateBP
	neg := n < 0
	if neg {
		n = -n
	}
	q, rem := n/10000, n%10000
	if rem*2 >= 10000 {
		q++
	}
	if neg {
		q = -q
	}
	return money.Cents(q)
}

// Partner is a sales channel that books through its own API (docs/partners.md):
// its commission rate in hundredths of a percent, the most places a day it may
// hold (nil: no cap of its own), and whether its keys are accepted.
type Partner struct {
	ID           int64
	Name         string
	CommissionBP int64
	Allotment    *int
	Active       bool
}

// PartnerKey is one of a partner's API keys as listed to staff: never the key, only
// its first characters.
type PartnerKey struct {
	ID         int64
	PartnerID  int64
	Prefix     string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}
