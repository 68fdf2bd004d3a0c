package notify

// BuildWith and Encode expose the payload builders with the outbox's extras (the
// manage link and the facility, docs/manage-booking.md#the-token) to the golden tests.
var (
	BuildWith = build
	Encode    = encode
)
