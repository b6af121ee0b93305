package station

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/internal/timesource"
	"arbiter/match"
	"arbiter/store"
)

// startTwoHolders starts two clustered record holders, arbiter (the first,
// on a record made by newRec) and appeals, with a stream of two replicas;
// they stop when the test ends.

// errAnswered marks an answer the sender got (not a refusal of the station's).
var errAnswered = errors.New("the sender got an answer")

func startTwoHolders(t *testing.T, newRec func(testing.TB, string), appealsClock func() time.Time) (string, []*holder) {
	dir := t.TempDir()
	hs, routes := newHolders(t, dir, "arbiter", "appeals")
	hs[1].now = appealsClock
	newRec(t, hs[0].path)
	startHoldersN(t, hs, routes, 2)
	t.Cleanup(func() {
		for _, h := range hs {
			if h.s != nil {
				h.s.Stop()
			}
		}
	})
	return dir, hs
}

func TestTheSurvivorOfTwoRecordHoldersContinuesInANewEpochWithNothingAcknowledgedLost(t *testing.T) {
	if testing.Short() {
		t.Skip("forms a cluster of two")
	}
	// The survivor's machine clock is 3 s off the match timeline: the new
	// epoch continues the timeline, not that clock.
	ts := timesource.New()
	appealsClock := func() time.Time { return ts.Now().Add(3 * time.Second) }
	dir, hs := startTwoHolders(t, newProtectedRecord, appealsClock)
	submit(t, hs[0].s, pinReqOn(hs[0].s, "arbiter", match.GameStart{Game: 1}))
	submit(t, hs[0].s, pinReqOn(hs[0].s, "white", match.Move{Input: "e4"}))
	acked := submit(t, hs[0].s, pinReqOn(hs[0].s, "operator", match.Move{Input: "c5"})) // acknowledged only when both hold it

	waitFor(t, 10*time.Second, "the survivor does not know the match timeline", func() bool { _, u := hs[1].s.Offset(); return u >= 0 })

	// The arbiter's station dies: the survivor alone is no majority.
	hs[0].s.Stop()
	hs[0].s = nil
	waitFor(t, 20*time.Second, "the survivor still says it can append", func() bool { return !hs[1].s.Status().CanAppend })
	// The arbiter's one action: a new epoch on the survivor, which carries
	// its offset to the match timeline into the new epoch's station.
	offset, _ := hs[1].s.Offset()
	before := time.Until(hs[1].s.Now())
	hs[1].s.Stop()
	db := openDB(t, hs[1].path)
	s, err := Start(context.Background(), Config{Name: "appeals", Role: "organiser", DB: db, Logf: t.Logf, Epoch: true, Now: appealsClock, Offset: &offset,
		Engine: &EngineConfig{Name: "appeals", Dir: filepath.Join(dir, "appeals-epoch1")}})
	if err != nil {
		t.Fatal(err)
	}
	hs[1].s = s
	defer func() { s.Stop(); hs[1].s = nil }() // before its record closes
	if auth, _ := s.Replica().Authority(); auth != "appeals" || s.Replica().Epoch() != 1 {
		t.Fatalf("after the new epoch the authority is %q in epoch %d", auth, s.Replica().Epoch())
	}
	if d := time.Until(s.Now()) - before; d > 50*time.Millisecond || d < -50*time.Millisecond {
		t.Errorf("the match timeline jumped by %v across the new epoch", d)
	}
	if seq, _ := s.Replica().Head(); seq < acked.Seq {
		t.Fatalf("the new epoch starts at event %d, before the acknowledged %d", seq, acked.Seq)
	}
	for name, m := range s.Replica().Members() {
		if Holder(m.Role) && name != "appeals" {
			t.Fatalf("%s is still a record holder after the new epoch", name)
		}
	}
	r := submit(t, s, pinReqOn(s, "white", match.Move{Input: "Nf3"}))
	if r.Error != "" || !s.Status().CanAppend {
		t.Fatalf("the survivor does not go on: %+v", r)
	}
	verifyHead(t, db) // the record, signatures included, verifies

	// The old station cannot come back as it was: the survivor runs a lone
	// engine with no route port, so the old one finds no majority and
	// appends nothing (Start waits for its stream; not waited for here).
	// It rejoins only by a new invitation.
}

func TestTwoRecordHoldersAnswerACommandOnlyWhenBothHoldItSoNothingAcknowledgedIsLostWhenTheAuthorityDies(t *testing.T) {
	if testing.Short() {
		t.Skip("forms a cluster of two")
	}
	dir, hs := startTwoHolders(t, newRecord, nil)
	var acked []Reply
	acked = append(acked, submit(t, hs[0].s, req("arbiter", match.GameStart{Game: 1})))
	acked = append(acked, submit(t, hs[0].s, req("white", match.Move{Input: "e4"})))

	// The other holder's record cannot apply: another writer holds it (as a
	// slow disk would), so the stream holds the next command on both
	// holders but only the authority's record does.
	lock := openDB(t, hs[1].path)
	locked, release := make(chan struct{}), make(chan struct{})
	lockDone := make(chan error, 1)
	go func() {
		_, err := lock.Update(context.Background(), func(tx *store.Tx) error {
			close(locked)
			<-release
			return errors.New("held only to block the record")
		})
		lockDone <- err
	}()
	<-locked
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()

	// The operator's command, sent over a connection of its own; its tries
	// are counted.
	c5 := req("operator", match.Move{Input: "c5"})
	var tries atomic.Int64
	Trace = func(format string, a ...any) {
		if strings.Contains(fmt.Sprintf(format, a...), c5.ID) {
			tries.Add(1)
		}
	}
	defer func() { Trace = nil }()
	nc, err := nats.Connect(hs[0].s.Engine().ClientURL()+","+hs[1].s.Engine().ClientURL(), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	sctx, scancel := context.WithCancel(context.Background())
	defer scancel()
	answered := make(chan error, 1)
	c5.At = hs[0].s.Now() // on the authority's timeline, not this process's clock (pinReqOn)
	go func() {
		r, err := Submit(sctx, nc, c5, nil, time.Second)
		if err == nil {
			err = fmt.Errorf("%w: %+v", errAnswered, r)
		}
		answered <- err
	}()
	waitFor(t, 30*time.Second, "the authority's record does not hold the command", func() bool {
		_, ok := hs[0].s.Replica().IDSeq(c5.ID)
		return ok
	})
	// The stream and the authority's record hold it; the authority waits.
	// Four more tries of one second each: before, the authority gave up
	// waiting after 2 s and answered the next try.
	waitFor(t, 60*time.Second, "the sender stopped trying", func() bool { return tries.Load() >= 4 || len(answered) > 0 })
	select {
	case err := <-answered:
		t.Fatalf("the authority answered a command the other holder's record does not hold: %v", err)
	default:
	}
	if seq, _ := hs[1].s.Replica().Head(); seq != acked[1].Seq {
		t.Fatalf("the other holder's record is at event %d, want %d (held before the command)", seq, acked[1].Seq)
	}

	// The authority dies between the stream's acknowledgement and the other's apply.
	hs[0].s.Stop()
	hs[0].s = nil
	scancel()
	if err := <-answered; errors.Is(err, errAnswered) {
		t.Fatalf("the sender got an answer: %v", err)
	}
	hs[1].s.Stop()
	close(release)
	<-lockDone

	// The arbiter's one action: the survivor starts a new epoch from its record.
	db := openDB(t, hs[1].path)
	s, err := Start(context.Background(), Config{Name: "appeals", Role: "organiser", DB: db, Epoch: true, Logf: t.Logf,
		Engine: &EngineConfig{Name: "appeals", Dir: filepath.Join(dir, "appeals-epoch1")}})
	if err != nil {
		t.Fatal(err)
	}
	hs[1].s = s
	defer func() { s.Stop(); hs[1].s = nil }() // before its record closes
	for _, a := range acked {
		if seq, _ := s.Replica().Head(); seq < a.Seq {
			t.Fatalf("the survivor's record ends at event %d, before the acknowledged %d", seq, a.Seq)
		}
	}
	if _, ok := s.Replica().IDSeq(c5.ID); ok {
		t.Fatal("the survivor's record holds the command its record could not apply")
	}
	// The sender retries with the same id: the command commits, once.
	r := submit(t, s, c5)
	again := submit(t, s, c5)
	if again.Seq != r.Seq {
		t.Fatalf("the retry answered %d, the command %d", again.Seq, r.Seq)
	}
	evs, err := db.EventsAfter(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, e := range evs {
		if e.Kind == match.KindMove {
			var p struct {
				SAN string `json:"san"`
			}
			json.Unmarshal(e.Payload, &p)
			moves = append(moves, p.SAN)
		}
	}
	if strings.Join(moves, " ") != "e4 c5" {
		t.Fatalf("moves in the survivor's record: %v, want e4 c5", moves)
	}
	verifyHead(t, db)
}
