package store

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// TestAnUpdateOfOneEventAllocatesWithinItsBudget: an Update appending one
// move event allocates no more than the thirteenth pass left it
// (docs/performance.md, "Move and commit, thirteenth pass"); the payload is
// bound as the INSERT's text without a copy of its own (boundText: 25
// allocations before it, ./bench's BenchmarkCommitOneEvent), and the
// payload the record holds is the one appended.
func TestAnUpdateOfOneEventAllocatesWithinItsBudget(t *testing.T) {
	ctx := context.Background()
	db, _ := newTestDB(t)
	at := time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)
	payload := `{"san":"Nf3","uci":"g1f3","press":true,"input":"Nf3"}`
	appendOne := func() {
		at = at.Add(time.Second)
		if _, err := db.Update(ctx, func(tx *Tx) error {
			_, err := tx.Append(Event{Match: 1, Game: 1, At: at, Role: "operator", Actor: "Feng-hsiung Hsu", Kind: "move", Payload: []byte(payload)})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	appendOne()
	got := testing.AllocsPerRun(100, appendOne)
	most := 24.0
	if runtime.GOOS != "linux" {
		most += 2 // the two looks at the -wal make the path's C string each there (loglook_unix_test.go)
	}
	t.Run(fmt.Sprintf("an Update of one event allocates at most %v times", most), func(t *testing.T) {
		if got > most {
			t.Errorf("%v allocations; want at most %v", got, most)
		}
	})
	t.Run("the record holds the payload appended", func(t *testing.T) {
		evs, err := db.EventsAfter(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != 102 {
			t.Fatalf("%d events; want 102", len(evs))
		}
		for _, e := range evs {
			if string(e.Payload) != payload {
				t.Fatalf("event %d holds %s; want %s", e.Seq, e.Payload, payload)
			}
		}
	})
}
