package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"parking/internal/clock"
)

// Message is one delivery attempt of an outbox row.
type Message struct {
	ID         int64 // outbox row id
	Type       Kind
	DeliveryID string
	Body       []byte
	Attempt    int // 1 for the first attempt
}

// Sender delivers a message. A nil error means the receiver accepted it. Any other
// error is retried later unless it is a *SendError with Permanent set. Tests use
// an httptest.Server behind HTTPSender, or a fake.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// SendError is a delivery the receiver answered but did not accept.
type SendError struct {
	Status     int
	Permanent  bool          // a 4xx other than 429, or a redirect: retrying cannot help
	RetryAfter time.Duration // from a Retry-After header on 429/503, if any
	Detail     string        // the start of the response body, for the operator
}

func (e *SendError) Error() string {
	s := "HTTP " + strconv.Itoa(e.Status)
	if t := http.StatusText(e.Status); t != "" {
		s += " " + t
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Headers of docs/notifications.md#delivery.
const (
	HeaderNotification = "X-Parking-Notification"
	HeaderDelivery     = "X-Parking-Delivery"
	HeaderSignature    = "X-Parking-Signature"
)

// HTTPSender posts messages to the webhook.
type HTTPSender struct {
	url     string
	secret  []byte
	timeout time.Duration
	client  *http.Client
	now     clock.Clock // reads a Retry-After date against it
}

// NewHTTPSender posts to webhookURL with a per-delivery timeout; with a non-empty secret
// every delivery is signed. conns bounds the kept-alive connections to the receiver
// (the dispatcher's worker count).
func NewHTTPSender(webhookURL, secret string, timeout time.Duration, conns int) *HTTPSender {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if conns < 2 {
		conns = 2
	}
	tr.MaxIdleConns = conns
	tr.MaxIdleConnsPerHost = conns
	return &HTTPSender{
		url: webhookURL, secret: []byte(secret), timeout: timeout, now: clock.Real,
		client: &http.Client{
			Transport: tr,
			// A redirect means the configured address is wrong; following it would
			// turn the POST into a GET. Report it instead (a final failure).
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
}

// WithClock sets the clock a Retry-After date is read against (the service's
// clock; default clock.Real) and returns h.
func (h *HTTPSender) WithClock(c clock.Clock) *HTTPSender {
	if c != nil {
		h.now = c
	}
	return h
}

// Timeout is the per-delivery timeout.
func (h *HTTPSender) Timeout() time.Duration { return h.timeout }

// Send posts m.Body. 2xx is success; 429 and 5xx are retried; any other status is
// final; network errors and the timeout are retried.
func (h *HTTPSender) Send(ctx context.Context, m Message) error {
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(m.Body))
	if err != nil {
		return &SendError{Permanent: true, Detail: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "parking-notify/1")
	req.Header.Set(HeaderNotification, string(m.Type))
	req.Header.Set(HeaderDelivery, m.DeliveryID)
	if len(h.secret) > 0 {
		req.Header.Set(HeaderSignature, Sign(h.secret, m.Body))
	}
	resp, err := h.client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			return fmt.Errorf("timeout after %s", h.timeout)
		}
		// Drop the URL from the message: webhook addresses often carry a secret
		// path, and this text is logged and shown in the history.
		var ue *url.Error
		if errors.As(err, &ue) {
			return fmt.Errorf("POST webhook: %w", ue.Err)
		}
		return err
	}
	defer resp.Body.Close()
	// Read a little of the body for the operator, and drain a bounded amount so the
	// connection can be reused.
	head, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	e := &SendError{Status: resp.StatusCode, Detail: detail(head)}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		e.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), h.now())
	default:
		e.Permanent = true
	}
	return e
}

// Sign is the X-Parking-Signature value: "sha256=" and the hex HMAC-SHA256 of body.
func Sign(secret, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// Verify checks a signature header in constant time; receivers (and tests) use it.
func Verify(secret, body []byte, header string) bool {
	return hmac.Equal([]byte(header), []byte(Sign(secret, body)))
}

// retryAfter reads a Retry-After header (seconds or an HTTP date).
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// detail makes a one-line, valid UTF-8 excerpt of a response body.
func detail(b []byte) string {
	s := strings.ToValidUTF8(strings.Join(strings.Fields(string(b)), " "), "")
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}
