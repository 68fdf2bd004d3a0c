package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"parking/internal/localtime"
	"parking/internal/store"
)

// HistoryItem is one row of a reservation's notification history, in the detail
// record's wire form (docs/notifications.md#history): times are RFC 3339 in the facility's zone
// (docs/dates.md#accepted-forms); sent_at and last_error are null when absent.
type HistoryItem struct {
	ID        int64   `json:"id"`
	Type      string  `json:"type"`
	Status    string  `json:"status"` // pending, sent, failed, skipped or cancelled (a reminder dropped before it was due)
	Attempts  int     `json:"attempts"`
	CreatedAt string  `json:"created_at"`
	SentAt    *string `json:"sent_at"`
	LastError *string `json:"last_error"`
}

// History turns stored rows into history items.
func History(rows []store.Notification, loc *time.Location) []HistoryItem {
	out := make([]HistoryItem, 0, len(rows))
	for _, n := range rows {
		h := HistoryItem{
			ID: n.ID, Type: n.Type, Status: n.Status, Attempts: n.Attempts,
			CreatedAt: localtime.JSON(n.CreatedAt, loc), LastError: n.LastError,
		}
		if n.SentAt != nil {
			s := localtime.JSON(*n.SentAt, loc)
			h.SentAt = &s
		}
		out = append(out, h)
	}
	return out
}

// Operator errors of Retry.
var (
	ErrNotRetryable = errors.New("only failed or skipped notifications can be retried")
	ErrNoEmail      = errors.New("the customer has no email address: nothing to send")
)

// Retry puts a failed or skipped notification back in the queue, due now, with its
// delivery id and attempts count unchanged (a retryable failure after the attempts
// are exhausted fails it again at once, so a manual retry is one more attempt).
// A row skipped because the customer has no email cannot be retried. A running
// dispatcher picks it up at its next poll.
func Retry(ctx context.Context, st *store.Store, id int64) (store.Notification, error) {
	var n store.Notification
	err := st.InTx(ctx, func(tx *store.Tx) error {
		var err error
		if n, err = tx.Outbox().Notification(ctx, id); err != nil {
			return err
		}
		if n.Status != store.NotificationFailed && n.Status != store.NotificationSkipped {
			return fmt.Errorf("notification %d is %s: %w", id, n.Status, ErrNotRetryable)
		}
		if n.Status == store.NotificationSkipped {
			body, err := tx.Outbox().NotificationPayload(ctx, id)
			if err != nil {
				return err
			}
			if payloadEmail(body) == "" {
				return fmt.Errorf("notification %d: %w", id, ErrNoEmail)
			}
		}
		ok, err := tx.Outbox().RequeueNotification(ctx, id)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("notification %d changed meanwhile: %w", id, ErrNotRetryable)
		}
		n, err = tx.Outbox().Notification(ctx, id)
		return err
	})
	return n, err
}

// RetryFailed puts every failed notification back in the queue and returns how many.
func RetryFailed(ctx context.Context, st *store.Store) (int64, error) {
	var n int64
	err := st.InTx(ctx, func(tx *store.Tx) error {
		var err error
		n, err = tx.Outbox().RequeueFailedNotifications(ctx)
		return err
	})
	return n, err
}

// payloadEmail reads the recipient's address from either payload shape.
func payloadEmail(body []byte) string {
	var p struct {
		Cliente  *struct{ Email string } `json:"cliente"`
		Customer *struct{ Email string } `json:"customer"`
	}
	if json.Unmarshal(body, &p) != nil {
		return ""
	}
	if p.Cliente != nil {
		return p.Cliente.Email
	}
	if p.Customer != nil {
		return p.Customer.Email
	}
	return ""
}
