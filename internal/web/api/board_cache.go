package api

import (
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// boardCache keeps the encoded JSON of recently requested daily boards, each with
// the board version it was read at (store.BoardVersion). A cached body is served
// only while the database's version is still the same, so it is never older than
// the last committed change: checking costs one primary-key read, against reading
// and encoding some 2,000 rows. Today's board also changes with time alone (its
// overdue list, docs/board.md#overdue): its body is kept with the instant it stops
// being true (records.Board.Until: the next exit to pass, or midnight) and is not
// served at or after it. It holds at most maxBytes (least recently used days are
// dropped first).
type boardCache struct {
	mu       sync.Mutex
	entries  map[string]*boardEntry
	inFlight map[string]*boardFlight // day@version being read
	bytes    int
	maxBytes int
	clock    uint64
	joined   func() // tests: called when a request waits for a read in flight
}

// boardFlight is one read of a board that concurrent requests for the same day and
// version wait for, instead of each reading it (several dashboards refresh at once
// after a change).
type boardFlight struct {
	done chan struct{}
	body boardBody
	err  error
}

// boardBody is a board's JSON and the same gzip-compressed, made once when it is
// cached: a day's board of a 1,000-place car park is some 400 KB of JSON and 40 KB
// compressed, which a phone on a slow line waits seconds less for; compressing it
// on every request would cost more than the cache saves.
type boardBody struct {
	json, gz []byte
}

func newBoardBody(json []byte) boardBody {
	return boardBody{json: json, gz: httpx.GzipBytes(&httpx.GzipFast, json)}
}

func (b boardBody) size() int { return len(b.json) + len(b.gz) }

type boardEntry struct {
	version int64
	until   time.Time // zero: no expiry by time
	body    boardBody
	used    uint64
}

func newBoardCache(maxBytes int) *boardCache {
	return &boardCache{entries: map[string]*boardEntry{}, inFlight: map[string]*boardFlight{}, maxBytes: maxBytes}
}

// load returns the body of day at version, as true at now: from the cache, from a
// read already in flight, or from read, which returns the version it actually read
// at (the same or newer), the body, and when the body stops being true (zero:
// never by time).
func (c *boardCache) load(day string, version int64, now time.Time, read func() (int64, []byte, time.Time, error)) (boardBody, error) {
	if body, ok := c.get(day, version, now); ok {
		return body, nil
	}
	key := day + "@" + strconv.FormatInt(version, 10)
	c.mu.Lock()
	if f, ok := c.inFlight[key]; ok {
		c.mu.Unlock()
		if c.joined != nil {
			c.joined()
		}
		<-f.done
		return f.body, f.err
	}
	f := &boardFlight{done: make(chan struct{})}
	c.inFlight[key] = f
	c.mu.Unlock()

	var readVersion int64
	var until time.Time
	var json []byte
	readVersion, json, until, f.err = read()
	if f.err == nil {
		f.body = newBoardBody(json) // cached before the flight ends: a request after finds one or the other
		c.put(day, readVersion, until, f.body)
	}
	c.mu.Lock()
	delete(c.inFlight, key)
	c.mu.Unlock()
	close(f.done)
	return f.body, f.err
}

// get returns the cached body of day if it was read at version and is still true
// at now.
func (c *boardCache) get(day string, version int64, now time.Time) (boardBody, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[day]
	if !ok || e.version != version || (!e.until.IsZero() && !now.Before(e.until)) {
		return boardBody{}, false
	}
	c.clock++
	e.used = c.clock
	return e.body, true
}

// put stores the body of day read at version (true until until; zero: no expiry),
// unless a newer one is there.
func (c *boardCache) put(day string, version int64, until time.Time, body boardBody) {
	if body.size() > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[day]; ok {
		if old.version > version {
			return
		}
		c.bytes -= old.body.size()
	}
	c.clock++
	c.entries[day] = &boardEntry{version: version, until: until, body: body, used: c.clock}
	c.bytes += body.size()
	for c.bytes > c.maxBytes {
		var oldest string
		var at uint64 = ^uint64(0)
		for d, e := range c.entries {
			if e.used < at {
				oldest, at = d, e.used
			}
		}
		c.bytes -= c.entries[oldest].body.size()
		delete(c.entries, oldest)
	}
}

// appendBoardJSON encodes a board exactly as WriteJSON would encode boardView(b)
// (a test holds them equal), several times faster: a busy day is some 2,000 items.
func appendBoardJSON(dst []byte, b records.Board, loc *time.Location) []byte {
	dst = append(dst, `{"date":`...)
	dst = appendJSONString(dst, b.Day)
	dst = append(dst, `,"stats":{"total_entries":`...)
	dst = strconv.AppendInt(dst, int64(len(b.Entries)), 10)
	dst = append(dst, `,"total_exits":`...)
	dst = strconv.AppendInt(dst, int64(len(b.Exits)), 10)
	dst = append(dst, `,"total_overdue":`...)
	dst = strconv.AppendInt(dst, int64(len(b.Overdue)), 10)
	dst = append(dst, `},"entries":`...)
	dst = appendBoardItems(dst, b.Entries, loc)
	dst = append(dst, `,"exits":`...)
	dst = appendBoardItems(dst, b.Exits, loc)
	dst = append(dst, `,"overdue":`...)
	dst = appendBoardItems(dst, b.Overdue, loc)
	return append(dst, "}\n"...)
}

func appendBoardItems(dst []byte, items []reservation.BoardItem, loc *time.Location) []byte {
	dst = append(dst, '[')
	for i, it := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"id_reservation":`...)
		dst = strconv.AppendInt(dst, it.ID, 10)
		dst = append(dst, `,"entry_date":"`...)
		dst = it.Entry.In(loc).AppendFormat(dst, time.RFC3339)
		dst = append(dst, `","exit_date":`...)
		if it.Exit == nil {
			dst = append(dst, "null"...)
		} else {
			dst = append(dst, '"')
			dst = it.Exit.In(loc).AppendFormat(dst, time.RFC3339)
			dst = append(dst, '"')
		}
		dst = append(dst, `,"status":`...)
		dst = appendJSONString(dst, string(it.Status))
		dst = append(dst, `,"license_plate":`...)
		dst = appendJSONString(dst, it.LicensePlate)
		dst = append(dst, `,"brand":`...)
		dst = appendJSONString(dst, it.Brand)
		dst = append(dst, `,"color":`...)
		dst = appendJSONString(dst, it.Color)
		dst = append(dst, `,"customer_name":`...)
		dst = appendJSONString(dst, it.CustomerName)
		dst = append(dst, `,"phone":`...)
		dst = appendJSONString(dst, it.Phone)
		dst = append(dst, `,"service_name":`...)
		dst = appendJSONString(dst, it.ServiceName)
		if it.ArrivedAt != nil {
			// Only a car a gate camera saw: every other item keeps the spec's ten fields.
			dst = append(dst, `,"arrived_at":"`...)
			dst = it.ArrivedAt.In(loc).AppendFormat(dst, time.RFC3339)
			dst = append(dst, '"')
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string the way encoding/json does with
// SetEscapeHTML(false): quotes, backslashes and control characters escaped,
// invalid UTF-8 replaced by U+FFFD, U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
