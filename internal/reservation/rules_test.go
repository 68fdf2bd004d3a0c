package reservation

import "testing"

// TestRulesFollowTheSpecTable checks every row of the spec's per-state table and the
// transitions of "States and transitions" against For.
func TestRulesFollowTheSpecTable(t *testing.T) {
	cases := []struct {
		status                                   Status
		entry, stay, people, photos              bool
		spot                                     SpotRule
		start, finalize, cancel, bill, custEdits bool
	}{
		{Pending, true, true, true, true, SpotFree, true, false, true, true, true},
		{InCourse, false, true, true, true, SpotRequired, false, true, false, true, true},
		{Finalized, false, false, false, false, SpotKept, false, false, false, true, false},
		{Cancelled, false, false, false, false, SpotNone, false, false, false, false, false},
	}
	for _, c := range cases {
		r := For(c.status)
		got := []bool{r.EditEntry, r.EditStay, r.EditPeople, r.AddPhotos, r.Start, r.Finalize, r.Cancel, r.RequestBill, r.CustomerEdit}
		want := []bool{c.entry, c.stay, c.people, c.photos, c.start, c.finalize, c.cancel, c.bill, c.custEdits}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: field %d = %v, want %v (%+v)", c.status, i, got[i], want[i], r)
			}
		}
		if r.Spot != c.spot {
			t.Errorf("%s: spot rule %v, want %v", c.status, r.Spot, c.spot)
		}
		// The terminal states are exactly those that allow no change at all.
		if c.status.Terminal() != (!r.Editable() && !r.AddPhotos) {
			t.Errorf("%s: Terminal() = %v but Editable=%v AddPhotos=%v", c.status, c.status.Terminal(), r.Editable(), r.AddPhotos)
		}
	}
	if r := For("DESCONOCIDO"); r.Editable() || r.AddPhotos || r.Start || r.Finalize || r.Cancel || r.RequestBill {
		t.Errorf("unknown state allows something: %+v", r)
	}
}
