package match

import (
	"reflect"
	"testing"
	"time"
)

// TestVerifyRecordReadReturnsTheEventsItVerified: 'arbiter verify' checks
// the engine's transcripts against the events the record's check read, in
// the same read; they are the record's, whole, up to the head reported.
func TestVerifyRecordReadReturnsTheEventsItVerified(t *testing.T) {
	r := newRig(t)
	r.start()
	r.move(time.Second, "e4")
	rep, evs, err := VerifyRecordRead(r.ctx, r.db, Anchors{})
	if err != nil || !rep.OK {
		t.Fatalf("the record does not verify: %v %+v", err, rep)
	}
	t.Run("the events are those verified, up to the head reported", func(t *testing.T) {
		if int64(len(evs)) != rep.Events || evs[len(evs)-1].Hash != rep.Head {
			t.Fatalf("%d events read, the last %s; the report says %d events, head %s", len(evs), evs[len(evs)-1].Hash, rep.Events, rep.Head)
		}
	})
	t.Run("the events are the record's", func(t *testing.T) {
		all, err := r.db.EventsAfter(r.ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(all, evs) {
			t.Fatalf("the events read with the check differ from the record's")
		}
	})
	t.Run("the report is VerifyRecordAgainst's", func(t *testing.T) {
		want, err := VerifyRecordAgainst(r.ctx, r.db, Anchors{})
		if err != nil || !reflect.DeepEqual(want, rep) {
			t.Fatalf("VerifyRecordAgainst: %+v %v; VerifyRecordRead: %+v", want, err, rep)
		}
	})
}
