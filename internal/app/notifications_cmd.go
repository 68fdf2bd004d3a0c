package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"parking/internal/notify"
	"parking/internal/store"
)

const notificationsUsage = `usage:
  parking notifications list [--status pending|sent|failed|skipped|cancelled] [--reservation ID] [--limit N]
  parking notifications retry ID        queue one failed (or skipped) notification again
  parking notifications retry --failed  queue every failed notification again`

// runNotifications is the operators' view of the outbox (docs/notifications.md#delivery): see failed
// deliveries and queue them again. The database is the one of PARKING_DATABASE_URL;
// a running service picks retried rows up at its next poll.
func runNotifications(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New(notificationsUsage)
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("parking notifications "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var status string
	var reservationID int64
	var limit int
	var allFailed bool
	switch sub {
	case "list":
		fs.StringVar(&status, "status", "", "only rows in this status: pending, sent, failed, skipped or cancelled")
		fs.Int64Var(&reservationID, "reservation", 0, "only rows of this reservation")
		fs.IntVar(&limit, "limit", 100, "at most this many rows, newest first")
	case "retry":
		fs.BoolVar(&allFailed, "failed", false, "queue every failed notification again")
	default:
		return fmt.Errorf("unknown subcommand %q\n%s", sub, notificationsUsage)
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch status {
	case "", store.NotificationPending, store.NotificationSent, store.NotificationFailed, store.NotificationSkipped, store.NotificationCancelled:
	default:
		return fmt.Errorf("--status %q: want pending, sent, failed, skipped or cancelled", status)
	}
	var retryID int64
	if sub == "retry" {
		switch {
		case allFailed && fs.NArg() == 0:
		case !allFailed && fs.NArg() == 1:
			id, err := strconv.ParseInt(fs.Arg(0), 10, 64)
			if err != nil || id <= 0 {
				return fmt.Errorf("notification id %q: want a positive whole number", fs.Arg(0))
			}
			retryID = id
		default:
			return errors.New(notificationsUsage)
		}
	} else if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q\n%s", fs.Arg(0), notificationsUsage)
	}

	cfg, err := LoadConfig(nil, getenv, stderr)
	if err != nil {
		return err
	}
	st, err := store.OpenWith(ctx, cfg.DatabaseURL, store.Options{SQLiteSync: cfg.SQLiteSync})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		return err
	}

	switch {
	case sub == "list":
		rows, err := st.Outbox().ListNotifications(ctx, store.NotificationFilter{Status: status, ReservationID: reservationID, Limit: limit})
		if err != nil {
			return err
		}
		writeNotifications(stdout, rows, cfg.Location)
		return nil
	case allFailed:
		n, err := notify.RetryFailed(ctx, st)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d failed notification(s) queued again\n", n)
		return nil
	default:
		n, err := notify.Retry(ctx, st, retryID)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("notification %d does not exist", retryID)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "notification %d (%s, reservation %d) queued again; attempts so far: %d\n",
			n.ID, n.Type, n.ReservationID, n.Attempts)
		return nil
	}
}

// writeNotifications prints rows as a table, times in the facility's zone.
func writeNotifications(w io.Writer, rows []store.Notification, loc *time.Location) {
	tw := startTable(w, len(rows), "(no notifications)", "ID\tRESERVATION\tTYPE\tSTATUS\tATTEMPTS\tCREATED\tSENT / NEXT ATTEMPT\tLAST ERROR")
	if tw == nil {
		return
	}
	const layout = "2006-01-02 15:04:05"
	for _, n := range rows {
		when := "-"
		switch {
		case n.SentAt != nil:
			when = n.SentAt.In(loc).Format(layout)
		case n.Status == store.NotificationPending:
			when = "next " + n.NextAttemptAt.In(loc).Format(layout)
		}
		lastErr := "-"
		if n.LastError != nil {
			lastErr = strings.Join(strings.Fields(*n.LastError), " ")
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%d\t%s\t%s\t%s\n", n.ID, n.ReservationID, n.Type, n.Status, n.Attempts,
			n.CreatedAt.In(loc).Format(layout), when, lastErr)
	}
	tw.Flush()
}
