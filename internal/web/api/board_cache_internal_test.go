package api

import (
	"bytes"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parking/internal/records"
	"parking/internal/reservation"
	"parking/internal/web/httpx"
)

// The hand-written board encoder must write exactly what encoding/json writes
// for the same board (WriteJSON of boardView), whatever the text holds.
func TestBoardJSONEncoding(t *testing.T) {
	madrid, _ := time.LoadLocation("Europe/Madrid")
	s := &Server{cfg: httpx.Config{Location: madrid}}
	entry := time.Date(2026, 3, 29, 0, 30, 0, 0, time.UTC)
	exit := time.Date(2026, 3, 29, 21, 30, 15, 123456000, time.UTC)
	tricky := []string{
		"", "Plain", "María Núñez", `Quote " and \ backslash`, "tab\there, new\nline, cr\r",
		"bell\x07 bs\b ff\f nul\x00 us\x1f del\x7f", "<script>&amp;</script>", "bad utf8 \xff\xfe end",
		"line sep \u2028 para sep \u2029", "emoji 🚗", "ñ" + strings.Repeat("x", 300),
	}
	var b records.Board
	b.Day = "2026-03-29"
	for i, txt := range tricky {
		it := reservation.BoardItem{ID: int64(i + 1), Entry: entry, Status: "EN CURSO", LicensePlate: txt, Brand: txt, Color: txt, CustomerName: txt, Phone: txt, ServiceName: txt}
		if i%2 == 0 {
			it.Exit = &exit
		}
		b.Entries = append(b.Entries, it)
		if i%3 == 0 {
			b.Exits = append(b.Exits, it)
		}
	}
	b.Overdue = b.Exits[:1]
	for _, board := range []records.Board{b, {Day: "2030-01-01", Entries: []reservation.BoardItem{}, Exits: []reservation.BoardItem{}, Overdue: []reservation.BoardItem{}}} {
		rec := httptest.NewRecorder()
		httpx.WriteJSON(rec, 200, s.boardView(board))
		got := appendBoardJSON(nil, board, madrid)
		if !bytes.Equal(got, rec.Body.Bytes()) {
			t.Errorf("encodings differ:\nfast: %s\njson: %s", got, rec.Body.Bytes())
		}
	}
}

// The cache serves a body only at the version it was read at, keeps the newest
// version of a day, stays within its byte budget dropping the least recently used
// day, and lets concurrent requests for one day and version share one read.
func TestBoardCache(t *testing.T) {
	c := newBoardCache(100)
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	c.put("2026-01-01", 5, time.Time{}, newBoardBody([]byte("aaaa")))
	if _, ok := c.get("2026-01-01", 6, t0); ok {
		t.Error("served at another version")
	}
	if b, ok := c.get("2026-01-01", 5, t0); !ok || string(b.json) != "aaaa" {
		t.Error("miss at the same version")
	}
	c.put("2026-01-01", 4, time.Time{}, newBoardBody([]byte("old")))
	if _, ok := c.get("2026-01-01", 5, t0); !ok {
		t.Error("an older read replaced a newer one")
	}
	c.put("2026-01-02", 5, time.Time{}, newBoardBody(bytes.Repeat([]byte("b"), 50)))
	c.get("2026-01-01", 5, t0) // 01-01 is now the most recently used
	c.put("2026-01-03", 5, time.Time{}, newBoardBody(bytes.Repeat([]byte("c"), 50)))
	if _, ok := c.get("2026-01-02", 5, t0); ok {
		t.Error("least recently used day kept beyond the budget")
	}
	if _, ok := c.get("2026-01-01", 5, t0); !ok {
		t.Error("recently used day dropped")
	}
	if c.bytes > c.maxBytes {
		t.Errorf("cache holds %d bytes, budget %d", c.bytes, c.maxBytes)
	}
	c.put("huge", 5, time.Time{}, newBoardBody(bytes.Repeat([]byte("h"), 101)))
	if _, ok := c.get("huge", 5, t0); ok {
		t.Error("a body larger than the budget was kept")
	}

	var reads atomic.Int32
	release := make(chan struct{})
	var wg, joined sync.WaitGroup
	bodies := make([]string, 8)
	joined.Add(len(bodies) - 1) // all but the one reading wait for its read
	c.joined = joined.Done
	for i := range bodies {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			b, err := c.load("2026-02-01", 9, t0, func() (int64, []byte, time.Time, error) {
				reads.Add(1)
				<-release
				return 9, []byte("shared"), time.Time{}, nil
			})
			if err != nil {
				t.Error(err)
			}
			bodies[i] = string(b.json)
		}(i)
	}
	joined.Wait()
	close(release)
	wg.Wait()
	if n := reads.Load(); n != 1 {
		t.Errorf("%d reads for one day and version, want 1", n)
	}
	for _, b := range bodies {
		if b != "shared" {
			t.Errorf("body %q", b)
		}
	}

	// A failed read is given to the requests that shared it and never cached: the
	// next request reads again.
	errRead := errors.New("database gone")
	for i, want := range []error{errRead, nil} {
		b, err := c.load("2026-03-01", 3, t0, func() (int64, []byte, time.Time, error) {
			if i == 0 {
				return 0, nil, time.Time{}, errRead
			}
			return 3, []byte("fresh"), time.Time{}, nil
		})
		if err != want || (err == nil && string(b.json) != "fresh") {
			t.Errorf("load %d: %q, %v; want %v", i, b, err, want)
		}
	}

	// Today's board is true until its next exit passes: served before that
	// instant, read again at it (docs/board.md#overdue).
	until := t0.Add(time.Hour)
	c.put("2026-01-01", 7, until, newBoardBody([]byte("today")))
	if b, ok := c.get("2026-01-01", 7, until.Add(-time.Nanosecond)); !ok || string(b.json) != "today" {
		t.Error("today's board not served before its next exit")
	}
	if _, ok := c.get("2026-01-01", 7, until); ok {
		t.Error("today's board served once its next exit had passed")
	}
}
