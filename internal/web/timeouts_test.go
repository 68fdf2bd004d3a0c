package web_test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"parking/internal/apptest"
	"parking/internal/store"
)

// The server's write timeout ends ordinary answers that take too long to write,
// but not the live board's event stream, which lifts its write deadline: the
// stream keeps delivering heartbeats well past the timeout.
func TestEventStreamOutlivesWriteTimeout(t *testing.T) {
	cfg := apptest.Config(t, store.SQLite)
	cfg.WriteTimeout = 300 * time.Millisecond
	cfg.FeedHeartbeat = 100 * time.Millisecond
	a := apptest.StartWith(t, cfg)
	admin, _ := apptest.Admin(t, a)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", a.URL+"/admin/parking/events", nil)
	res, err := admin.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("stream = %d", res.StatusCode)
	}
	start := time.Now() // real time: the server's deadline is real time
	lines := bufio.NewScanner(res.Body)
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), ": heartbeat") && time.Since(start) > 3*cfg.WriteTimeout {
			return // still streaming three write timeouts later
		}
	}
	t.Fatalf("stream ended after %s (write timeout %s): %v", time.Since(start), cfg.WriteTimeout, lines.Err())
}
