package store

import (
	"fmt"
	"testing"
)

// VerifyEventsAfter takes the hashes of the events verified before as
// their own, and checks everything else as VerifyEvents does.
func TestVerifyEventsAfterChecksTheLaterEventsAndEveryLink(t *testing.T) {
	db, _ := newTestDB(t)
	evs := appendEvents(t, db, 6)
	edited := func(i int) []Event {
		out := append([]Event(nil), evs...)
		out[i].Payload = []byte(`{"ply":99,"san":"e4"}`)
		return out
	}
	relinked := func(i int) []Event {
		out := append([]Event(nil), evs...)
		out[i].Prev = out[0].Hash
		out[i].Hash = EventHash(out[i])
		return out
	}
	for _, tc := range []struct {
		name    string
		evs     []Event
		checked int
		bad     int64
	}{
		{"an untouched record verifies", evs, 3, 0},
		{"an edit of an event after those verified before is found", edited(4), 3, 5},
		{"an edit of the first event after those verified before is found", edited(3), 3, 4},
		{"an event re-hashed onto another predecessor is found, even among those verified before", relinked(2), 4, 2},
		{"with none verified before it is VerifyEvents", edited(1), 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := VerifyEventsAfter(tc.evs, "", tc.checked)
			want := VerifyEvents(tc.evs, "")
			if tc.bad == 0 {
				if !r.OK || r.Events != 6 {
					t.Fatalf("VerifyEventsAfter = %+v", r)
				}
				return
			}
			if r.OK || r.BadSeq != tc.bad {
				t.Fatalf("VerifyEventsAfter = OK %v at %d (%s), want event %d", r.OK, r.BadSeq, r.Problem, tc.bad)
			}
			if fmt.Sprint(r) != fmt.Sprint(want) && tc.checked <= int(tc.bad)-1 {
				t.Errorf("VerifyEventsAfter says %+v, VerifyEvents %+v", r, want)
			}
		})
	}
}
