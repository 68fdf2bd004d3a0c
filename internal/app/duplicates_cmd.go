package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"parking/internal/store"
)

const duplicatesUsage = `usage:
  parking duplicates list    customers and vehicles that share a phone or plate but
                             could not be merged safely, for staff to resolve by hand`

// runDuplicates lists the collisions left by the normalisation of stored phones
// and plates (docs/input-rules.md, store.NormaliseStored): a registered account sharing a
// phone with another customer, a plate stored with two vehicle types, or a stored
// value that is not a phone or plate at all. Staff resolve each by hand (edit the
// customer's phone or the reservation's vehicle); a resolved one leaves the list.
func runDuplicates(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) != 1 || args[0] != "list" {
		return errors.New(duplicatesUsage)
	}
	return withCommandApp(ctx, "", getenv, stderr, func(a *App) error {
		rows, err := a.Store.NormalisationConflicts(ctx)
		if err != nil {
			return err
		}
		writeDuplicates(stdout, rows, a.Config.Location)
		return nil
	})
}

// startTable prints none when there are no rows, or starts a table with its header
// row (tab-separated) and returns it to be filled and flushed.
func startTable(w io.Writer, rows int, none, header string) *tabwriter.Writer {
	if rows == 0 {
		fmt.Fprintln(w, none)
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	return tw
}

func writeDuplicates(w io.Writer, rows []store.NormalisationConflict, loc *time.Location) {
	tw := startTable(w, len(rows), "(no duplicates to resolve)", "KIND\tROW\tSTORED AS\tCANONICAL\tHELD BY\tREASON\tFOUND")
	if tw == nil {
		return
	}
	for _, c := range rows {
		held := "-"
		if c.KeptID != nil {
			held = fmt.Sprintf("%d %s", *c.KeptID, c.KeptLabel)
		}
		canonical := c.NormalValue
		if canonical == "" {
			canonical = "-"
		}
		fmt.Fprintf(tw, "%s\t%d %s\t%q\t%s\t%s\t%s\t%s\n", c.Kind, c.OtherID, c.OtherLabel, c.StoredValue, canonical, held,
			reasonText(c.Reason), c.CreatedAt.In(loc).Format("2006-01-02 15:04"))
	}
	tw.Flush()
}

func reasonText(r string) string {
	switch r {
	case store.ConflictAccount:
		return "a registered account shares the phone"
	case store.ConflictType:
		return "same plate, another vehicle type"
	case store.ConflictUnreadable:
		return "not a valid phone or plate"
	}
	return r
}
