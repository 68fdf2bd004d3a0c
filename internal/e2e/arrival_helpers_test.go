package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"parking/internal/app"
)

// confirmedID is the id of the booking the confirmation screen shows, found by its
// reference: the screen shows no internal number (docs/manage-booking.md#pages).
func confirmedID(t *testing.T, ctx context.Context, a *app.App) string {
	t.Helper()
	pageWaitJS(t, ctx, "the confirmation's reference", pageVisible(`[data-step="done"]`)+` && document.querySelector('[data-done="reference"]').textContent !== ''`)
	ref := strings.ReplaceAll(pageText(t, ctx, `[data-done="reference"]`), "-", "")
	var id int64
	if err := a.Store.DB().QueryRow(`SELECT id_reservation FROM reservation WHERE reference = $1`, ref).Scan(&id); err != nil {
		t.Fatalf("the confirmed booking %s: %v", ref, err)
	}
	return strconv.FormatInt(id, 10)
}
