package notify

// BuildWith and Encode expose the payload builders with the outbox's extras (the
// manage link and the facility, CONTRACT §11) to the golden tests.
var (
	BuildWith = build
	Encode    = encode
)
