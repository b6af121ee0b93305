package station

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/match"
	"arbiter/store"
)

// A command given at a station is done once the station's own record holds
// it, whether or not the authority's answer has come: its id in the record
// says the stream committed it and this record applied it. An auth.fail
// recorded under the id is a refusal, which only the answer words.
func TestACommandIsDoneOnceTheStationsRecordHoldsItsIDUnlessItIsARefusalRecorded(t *testing.T) {
	s, _ := startFirst(t, t.TempDir())
	nc := s.Link().nc
	silent, err := nc.Subscribe("test.silent", func(*nats.Msg) {}) // an authority that never answers
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Unsubscribe()
	replica := func(kind string) *Replica {
		return &Replica{changed: make(chan struct{}), ids: map[string]cmdSeqs{},
			events: []store.Event{{Seq: 1, Kind: match.KindMatchNew}, {Seq: 2, Kind: kind}, {Seq: 3, Kind: kind}}}
	}
	hold := func(r *Replica, id string) {
		r.mu.Lock()
		r.ids[id] = cmdSeqs{first: 2, last: 3}
		r.broadcast()
		r.mu.Unlock()
	}
	for _, c := range []struct {
		name     string
		kind     string
		before   bool // the record holds the id before the try
		wantHere bool
	}{
		{"a command the record holds already is done at once", match.KindMove, true, true},
		{"a command the record comes to hold during the try is done then", match.KindMove, false, true},
		{"an auth.fail the record holds waits for the answer", match.KindAuthFail, true, false},
		{"an auth.fail the record comes to hold waits for the answer", match.KindAuthFail, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := replica(c.kind)
			if c.before {
				hold(r, "cmd-1")
			} else {
				time.AfterFunc(50*time.Millisecond, func() { hold(r, "cmd-1") })
			}
			const try = 1500 * time.Millisecond
			t0 := time.Now()
			_, rep, here, err := requestOrHeld(context.Background(), nc, "test.silent", []byte("{}"), try, r, "cmd-1")
			took := time.Since(t0)
			if here != c.wantHere {
				t.Fatalf("done by the record: %v, want %v (err %v)", here, c.wantHere, err)
			}
			if here && (rep.First != 2 || rep.Seq != 3 || took >= try) {
				t.Fatalf("reply %+v after %v; want events 2–3 before the try ends", rep, took)
			}
			if !here && (!errors.Is(err, nats.ErrTimeout) || took < try) {
				t.Fatalf("after %v: %v; want the answer's wait (a timeout from the silent authority)", took, err)
			}
		})
	}
}

func TestOnlyWithTwoRecordHoldersDoesACommandWaitForTheAnswerItsRecordHolds(t *testing.T) {
	for replicas, want := range map[int32]bool{0: false, 1: true, 2: false, 3: true, 5: true} {
		if got := heldAnswers(replicas); got != want {
			t.Errorf("a stream of %d replicas: done by the record %v, want %v", replicas, got, want)
		}
	}
}
