package station

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/metrics"
	"slices"
	"sync"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/store"
)

// goroutinesCreated is how many goroutines the process has started so far.
func goroutinesCreated(t *testing.T) uint64 {
	t.Helper()
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Fatalf("the runtime does not count the goroutines it starts (%v)", s[0].Value.Kind())
	}
	return s[0].Value.Uint64()
}

// The SQLite driver starts a goroutine for every statement run with a
// context that can end (to interrupt it then), and wakes it again when the
// statement is done: three a command on every record holder and the
// laptop, in the milliseconds in which the command's message is delivered
// to each of them (docs/performance.md, "eleventh pass"). A replica's
// transaction runs to its end once begun, as its COMMIT always did.
//
// The runtime counts every goroutine the process starts, and one not of
// the apply's starts once a second in any process that links the NATS
// server: its CPU sampler (nats-server's pse.periodic, rescheduled by
// time.AfterFunc from its package's init, which nothing can stop). It fell
// into the window of nineteen applies once in ten runs at load 10 (a
// runtime trace of the window showed it as the only goroutine created,
// by a timer). So the nineteen applies are counted in three windows one
// after the other and the least is taken: a goroutine the apply starts
// is in every window (the driver's, three an apply, 57 in each), a duty
// once a second in one of them at most.
func TestAReplicasApplyStartsNoGoroutineWhileTheStationsContextCanEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	newRecord(t, path)
	db := openDB(t, path)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rep, err := NewReplica(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	seq, head := rep.Head()
	last, err := db.EventsAfter(ctx, int64(seq)-1)
	if err != nil || len(last) != 1 {
		t.Fatal(err, len(last))
	}
	at := last[0].At
	const windows, perWindow = 3, 19
	var msgs []StreamMsg
	for i := 1; i <= 1+windows*perWindow; i++ {
		at = at.Add(time.Second)
		e := store.Event{Seq: int64(seq) + int64(i), Match: 1, At: at, Role: "system", Actor: "Arbiter",
			Kind: KindClaim, Payload: []byte(`{"station":"arbiter"}`), Prev: head}
		e.Hash = store.EventHash(e)
		head = e.Hash
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs, StreamMsg{Seq: uint64(e.Seq), ID: id, Data: encodeEvents(id, []store.Event{e}, nil)[0]})
	}
	// the first apply prepares the statements: not counted
	if err := rep.Apply(ctx, msgs[0]); err != nil {
		t.Fatal(err)
	}
	var started []uint64
	for w := 0; w < windows; w++ {
		before := goroutinesCreated(t)
		for _, m := range msgs[1+w*perWindow : 1+(w+1)*perWindow] {
			if err := rep.Apply(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		started = append(started, goroutinesCreated(t)-before)
	}
	t.Run("nineteen commands applied with a context that can end start no goroutine (the least of three windows)", func(t *testing.T) {
		if slices.Min(started) != 0 {
			t.Errorf("goroutines started in each window of %d applies: %v, want 0 in one at least", perWindow, started)
		}
	})
	t.Run("and the record holds each of them", func(t *testing.T) {
		n := uint64(len(msgs))
		if s, h := rep.Head(); s != seq+n || h != head || verifyHead(t, db) != head {
			t.Errorf("head %d %s, want %d %s", s, h, seq+n, head)
		}
	})
}

// Likewise the authority's transaction before its publish (BEGIN, the
// read of what others appended, the INSERT): its statements run without
// the request's end, which the publish keeps (its time-out, the station's
// stop). Counted from the transaction's BEGIN to its first event inserted
// (store.FaultHook's points) at a lone authority; the least of twenty
// commands, as the station's own goroutines (beats, the engine's) may
// start one meanwhile.
func TestTheAuthoritysTransactionStartsNoGoroutineBeforeItsPublish(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.db")
	newRecord(t, path)
	var mu sync.Mutex
	var began uint64
	var inserted bool
	var counts []uint64
	store.FaultHook = func(point string) {
		s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
		metrics.Read(s)
		mu.Lock()
		defer mu.Unlock()
		switch point {
		case "before-begin":
			began, inserted = s[0].Value.Uint64(), false
		case "after-insert": // a command's transaction, its first event
			if !inserted {
				counts = append(counts, s[0].Value.Uint64()-began)
			}
			inserted = true
		}
	}
	defer func() { store.FaultHook = nil }()
	s, err := Start(context.Background(), Config{Name: "arbiter", Role: "organiser", DB: openDB(t, path), First: true,
		Engine: &EngineConfig{Name: "arbiter", Dir: filepath.Join(dir, "js")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	submit(t, s, req("arbiter", match.GameStart{Game: 1}))
	mu.Lock()
	counts = nil
	mu.Unlock()
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	roles := []string{"white", "black"}
	for i := 0; i < 20; i++ {
		submit(t, s, req(roles[i%2], match.Move{Input: moves[i%4]}))
	}
	mu.Lock()
	least, n := ^uint64(0), len(counts)
	for _, c := range counts {
		least = min(least, c)
	}
	mu.Unlock()
	t.Run("twenty commands: the least goroutines started from BEGIN to the first INSERT is none", func(t *testing.T) {
		if n < 20 || least != 0 {
			t.Errorf("%d transactions, the least started %d goroutines, want 0", n, least)
		}
	})
}
