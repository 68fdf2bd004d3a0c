package store

import (
	"context"
	"fmt"
	"strings"

	"parking/internal/database"
)

// InsertNotifications adds several outbox rows in one statement (a booking's
// confirmation and reminder: one round trip instead of two), each as
// InsertNotification would. The statement inserts all rows or none. Their ids
// follow the order of ns.
func (tx OutboxTx) InsertNotifications(ctx context.Context, ns []NewNotification) error {
	if len(ns) == 0 {
		return nil
	}
	var q strings.Builder
	q.WriteString(`INSERT INTO notification
		(id_reservation, type, delivery_id, payload, status, attempts, next_attempt_at, created_at, last_error) VALUES `)
	args := make([]any, 0, 1+7*len(ns))
	args = append(args, tx.Now)
	for i, n := range ns {
		due, resID := n.dueAndReservation(tx.Now)
		if i > 0 {
			q.WriteString(", ")
		}
		b := len(args)
		fmt.Fprintf(&q, "($%d, $%d, $%d, $%d, $%d, 0, $%d, $1, $%d)", b+1, b+2, b+3, b+4, b+5, b+6, b+7)
		args = append(args, resID, n.Type, n.DeliveryID, string(n.Payload), n.Status, due, n.LastError)
	}
	// Queued: on PostgreSQL it goes out with the transaction's next round trip.
	return tx.Queue(ctx, database.Stmt{Query: q.String(), Args: args,
		What: fmt.Sprintf("insert %d notifications for reservation %d", len(ns), ns[0].ReservationID)})
}
