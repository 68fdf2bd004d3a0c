package benchsetup

import (
	"flag"
	"net/url"
	"os"
	"strings"
)

// Timing is the flags of a tool that times a series of questions: how many, how
// many asked first and not timed (to warm the caches), and whether to ask them
// through the HTTP service rather than the operation.
type Timing struct {
	Queries, Warmup int
	HTTP            bool
}

// TimingFlags adds -queries, -warmup and -http to the tool's flags; what names the
// questions ("ranges", "searches"), viaHTTP says what -http does.
func TimingFlags(queries, warmup int, what, viaHTTP string) *Timing {
	t := &Timing{}
	flag.IntVar(&t.Queries, "queries", queries, what+" to time")
	flag.IntVar(&t.Warmup, "warmup", warmup, what+" asked first, untimed")
	flag.BoolVar(&t.HTTP, "http", false, viaHTTP)
	return t
}

// LoadAverage is the machine's load average over 1, 5 and 15 minutes (the figures
// mean little without it); "unknown" where /proc/loadavg is not.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// Redact is a database address fit to print: without its password.
func Redact(dbURL string) string {
	if p, err := url.Parse(dbURL); err == nil && p.User != nil {
		p.User = url.User(p.User.Username())
		return p.String()
	}
	return dbURL
}
