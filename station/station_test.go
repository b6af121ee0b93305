package station

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/internal/testnet"
	"arbiter/match"
	"arbiter/store"
)

// freePort is a port on 127.0.0.1 reserved for the test until it ends
// (testnet.Port): a port let go before the engine binds it may be taken,
// and a record holder whose route port was taken never joins its cluster.
func freePort(t *testing.T) int { t.Helper(); return testnet.Port(t) }

// newRecord makes a record holding a match, as 'arbiter match new' leaves it.
func newRecord(t testing.TB, path string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	app, err := match.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = app.Do(ctx, match.Cmd{At: time.Now().UTC(), Actor: match.Actor{Role: match.RoleArbiter}}, match.MatchNew{
		Title: "ACM Chess Challenge", Arbiter: "Mike Valvo", Players: [2]string{"Garry Kasparov", "Deep Blue"},
		Computer: "Deep Blue", Operators: []string{"Feng-hsiung Hsu"}, White: "Garry Kasparov", Control: "acm1996"})
	if err != nil {
		t.Fatal(err)
	}
}

func openDB(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

var ids atomic.Int64

func req(role string, cmd match.Command) Request {
	b, err := match.EncodeCommand(cmd)
	if err != nil {
		panic(err)
	}
	return Request{ID: fmt.Sprintf("test-%d", ids.Add(1)), Role: role, Command: b}
}

func submit(t *testing.T, s *Station, r Request) Reply {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := s.Submit(ctx, r)
	if err != nil {
		t.Fatalf("%s: submit %s: %v", s.Name(), r.Command, err)
	}
	if rep.Error != "" {
		t.Fatalf("%s: %s refused: %s", s.Name(), r.Command, rep.Error)
	}
	return rep
}

func verifyHead(t *testing.T, db *store.DB) string {
	t.Helper()
	r, err := db.Verify(context.Background(), "")
	if err != nil || !r.OK {
		t.Fatalf("verify %s: %v %+v", db.Path(), err, r)
	}
	return r.Head
}

// startFirst starts the first station, a lone record holder with its
// engine, on a new record in dir; it stops when the test ends.
func startFirst(t *testing.T, dir string) (*Station, *store.DB) {
	t.Helper()
	path := filepath.Join(dir, "a.db")
	newRecord(t, path)
	db := openDB(t, path)
	s, err := Start(context.Background(), Config{Name: "arbiter", Role: "organiser", DB: db, First: true,
		Engine: &EngineConfig{Name: "arbiter", Dir: filepath.Join(dir, "js")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s, db
}

func TestLoneStationIsTheAuthorityAndAnswersARetryWithItsSeq(t *testing.T) {
	s, db := startFirst(t, t.TempDir())
	if auth, _ := s.Replica().Authority(); auth != "arbiter" {
		t.Fatalf("authority %q, want the first station", auth)
	}
	submit(t, s, req("arbiter", match.GameStart{Game: 1}))
	mv := req("white", match.Move{Input: "e4"})
	first := submit(t, s, mv)
	again := submit(t, s, mv) // a retry with the same id
	if again.Seq != first.Seq {
		t.Fatalf("retry answered %d, first %d", again.Seq, first.Seq)
	}
	seq, head := s.Replica().Head()
	last, err := s.Link().LastSeq(context.Background())
	if err != nil || last != seq || first.Seq != seq {
		t.Fatalf("stream %d (%v), record %d, answer %d: want one event per command, stream seq = event seq", last, err, seq, first.Seq)
	}
	if got := verifyHead(t, db); got != head {
		t.Fatalf("verify head %s, replica head %s", got, head)
	}
	// A refused command is answered as such and writes nothing.
	bad := req("white", match.Move{Input: "e5"}) // not White's turn
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := s.Submit(ctx, bad)
	if err != nil || r.Error == "" {
		t.Fatalf("a refused move: %+v %v", r, err)
	}
	if seq2, _ := s.Replica().Head(); seq2 != seq {
		t.Fatalf("a refusal appended: %d -> %d", seq, seq2)
	}
	// A write that bypasses the station is refused by the record itself.
	_, err = db.Update(context.Background(), func(tx *store.Tx) error {
		_, err := tx.Append(store.Event{Match: 1, At: time.Now(), Role: "system", Actor: "x", Kind: "station.test"})
		return err
	})
	if !errors.Is(err, ErrDirect) {
		t.Fatalf("a direct write: %v, want ErrDirect", err)
	}
}

func TestAnEventThatDoesNotFitStopsApplyingAndRaisesTheAlarm(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	newRecord(t, path)
	db := openDB(t, path)
	rep, err := NewReplica(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := db.EventsAfter(ctx, 0)
	good := evs[0]
	next := store.Event{Seq: 2, Match: 1, Game: 0, At: good.At.Add(time.Second), Role: "system", Actor: "Arbiter",
		Kind: KindClaim, Payload: []byte(`{"station":"x"}`), Prev: good.Hash}
	next.Hash = store.EventHash(next)
	tampered := next
	tampered.Payload = []byte(`{"station":"y"}`) // hash no longer its own
	wrongPrev := next
	wrongPrev.Prev = store.GenesisPrev
	wrongPrev.Hash = store.EventHash(wrongPrev)
	for _, tc := range []struct {
		name string
		ev   store.Event
		seq  uint64
	}{
		{"an edited event", tampered, 2},
		{"an event whose prev is not the head", wrongPrev, 2},
		{"an event under another stream sequence", next, 3},
	} {
		t.Run(tc.name+" raises the alarm and leaves the record as it was", func(t *testing.T) {
			r := &Replica{}
			*r = Replica{db: rep.db, changed: make(chan struct{}), ids: map[string]cmdSeqs{}, members: map[string]MemberInfo{},
				seq: rep.seq, head: rep.head, hashes: rep.hashes}
			err := r.Apply(ctx, StreamMsg{Seq: tc.seq, Data: encodeEvents("c", []store.Event{tc.ev}, nil)[0]})
			var alarm *AlarmError
			if !errors.As(err, &alarm) || r.Alarm() == nil {
				t.Fatalf("got %v, want the alarm", err)
			}
			if err := r.Apply(ctx, StreamMsg{Seq: 2, Data: encodeEvents("d", []store.Event{next}, nil)[0]}); !errors.As(err, &alarm) {
				t.Fatalf("after the alarm a good event was applied: %v", err)
			}
			if s, _, _ := db.Head(ctx); s != 1 {
				t.Fatalf("record head %d, want 1", s)
			}
		})
	}
	if err := rep.Apply(ctx, StreamMsg{Seq: 2, Data: encodeEvents("c", []store.Event{next}, nil)[0]}); err != nil {
		t.Fatalf("the fitting event: %v", err)
	}
	if s, h := rep.Head(); s != 2 || h != next.Hash || verifyHead(t, db) != next.Hash {
		t.Fatalf("head %d %s", s, h)
	}
}

// lastPressIn is the last event of the record db, which must be a press,
// and its payload.
func lastPressIn(t *testing.T, db *store.DB) (match.SidePayload, store.Event) {
	t.Helper()
	evs, err := db.EventsAfter(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	e := evs[len(evs)-1]
	var p match.SidePayload
	if e.Kind != match.KindPress || json.Unmarshal(e.Payload, &p) != nil {
		t.Fatalf("last event %s %s, want a press", e.Kind, e.Payload)
	}
	return p, e
}

// testClock is a station's local time source that moves only when told.
type testClock = testnet.Clock

// gameOnAStillClock starts a lone authority on a clock that moves only when
// the test says (the match timeline) and starts game 1 there.
func gameOnAStillClock(t *testing.T) (*Station, *store.DB, *testClock) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "a.db")
	newRecord(t, path)
	db := openDB(t, path)
	clk := testnet.NewClock(time.Now().UTC())
	s, err := Start(context.Background(), Config{Name: "arbiter", Role: "organiser", DB: db, First: true, Now: clk.Now,
		Engine: &EngineConfig{Name: "arbiter", Dir: filepath.Join(dir, "js")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	submit(t, s, req("arbiter", match.GameStart{Game: 1}))
	return s, db, clk
}

func TestAPressIsStampedWhereItHappenedAndRecordsReceiptAndUncertainty(t *testing.T) {
	s, db, clk := gameOnAStillClock(t)
	lastPress := func() (match.SidePayload, int64) {
		p, e := lastPressIn(t, db)
		return p, e.At.UnixNano()
	}
	const holderRTT = 300 * time.Millisecond // the round trip the first receiving holder measured to the sender
	for _, tc := range []struct {
		name      string
		role, san string
		// note: another record holder received the request first, this long
		// before now; 0: the authority's own receipt is the first
		note, before   time.Duration
		raised, correc bool
	}{
		{"a press stamped within the round trip the first receiving holder measured keeps its instant, not the sender's own round trip", "white", "e4",
			100 * time.Millisecond, 350 * time.Millisecond, false, false},
		{"a press stamped before the first receipt by any holder minus that holder's round trip is raised to that bound, marked, and arriving late is a correction", "operator", "c5",
			100 * time.Millisecond, 1600 * time.Millisecond, true, true},
		{"with no other holder's receipt the authority's own receipt and its round trip to the sender bound the stamp", "white", "Nf3",
			0, 600 * time.Millisecond, true, false}, // a measured round trip is under 500 ms (the ping gives up then)
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk.Advance(10 * time.Second) // the game's last event is 10 s old
			r := req(tc.role, match.Press{})
			r.RTT = int64(2 * time.Millisecond) // the sender's round trip to the authority: its clock's uncertainty, not the bound
			now := s.Now()
			r.At = now.Add(-tc.before)
			received, by, rtt := now, "arbiter", time.Duration(0)
			if tc.note > 0 {
				received, by, rtt = now.Add(-tc.note), "appeals", holderRTT
				b, _ := json.Marshal(receiptNote{ID: r.ID, By: by, AtNS: received.UnixNano(), RTTNS: int64(rtt)})
				if err := s.Link().Conn().Publish(SubjectReceipt, b); err != nil {
					t.Fatal(err)
				}
				waitFor(t, 10*time.Second, "the holder's receipt did not arrive", func() bool {
					s.mu.Lock()
					defer s.mu.Unlock()
					return s.receipts[r.ID].by == "appeals"
				})
			}
			submit(t, s, r)
			p, at := lastPress()
			if tc.note == 0 {
				rtt = time.Duration(p.RTTNS) // the authority's measured round trip to itself, whatever it was
			}
			if p.PressedNS != r.At.UnixNano() || p.ReceivedNS != received.UnixNano() || p.ReceivedBy != by || p.RTTNS != int64(rtt) ||
				p.UncertaintyNS != int64(time.Millisecond) || p.Raised != tc.raised || p.Correction != tc.correc {
				t.Fatalf("press payload %+v (stamped %d, received %d by %s, round trip %v)", p, r.At.UnixNano(), received.UnixNano(), by, rtt)
			}
			if want := r.At.UnixNano(); tc.raised {
				if want = received.Add(-rtt).UnixNano(); at != want {
					t.Fatalf("press recorded at %d, want the bound %d (stamped %d)", at, want, r.At.UnixNano())
				}
			} else if at != want {
				t.Fatalf("press recorded at %d, stamped %d", at, r.At.UnixNano())
			}
			if rep := submit(t, s, req(tc.role, match.Move{Input: tc.san, Pressed: true})); rep.Error != "" {
				t.Fatalf("move: %s", rep.Error)
			}
		})
	}
	t.Run("a move that presses the clock records the press's stamp as a press does", func(t *testing.T) {
		clk.Advance(10 * time.Second)
		r := req("operator", match.Move{Input: "Nc6"})
		r.RTT = int64(100 * time.Millisecond)
		r.At = s.Now()
		if rep := submit(t, s, r); rep.Error != "" {
			t.Fatalf("move refused: %s", rep.Error)
		}
		evs, _ := db.EventsAfter(context.Background(), 0)
		e := evs[len(evs)-1]
		var p match.MovePayload
		if e.Kind != match.KindMove || json.Unmarshal(e.Payload, &p) != nil || !p.Press {
			t.Fatalf("last event %s %s, want a move that presses", e.Kind, e.Payload)
		}
		if p.PressedNS != r.At.UnixNano() || !e.At.Equal(r.At) || p.ReceivedNS < p.PressedNS || p.UncertaintyNS != r.RTT/2 || p.Raised || p.Correction {
			t.Fatalf("move payload %s at %d (stamped %d)", e.Payload, e.At.UnixNano(), r.At.UnixNano())
		}
	})
	t.Run("a press stamped before the game's last clock event is refused by the match", func(t *testing.T) {
		evs, _ := db.EventsAfter(context.Background(), 0)
		r := req("white", match.Press{})
		r.At = evs[len(evs)-1].At.Add(-time.Millisecond) // before the last move
		b, _ := json.Marshal(receiptNote{ID: r.ID, By: "appeals", AtNS: s.Now().UnixNano(), RTTNS: int64(2 * time.Hour)})
		s.Link().Conn().Publish(SubjectReceipt, b)
		waitFor(t, 10*time.Second, "the holder's receipt did not arrive", func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.receipts[r.ID].by == "appeals"
		})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if rep, err := s.Submit(ctx, r); err != nil || rep.Refusal == nil || rep.Refusal.Code != match.CodeBeforeClock {
			t.Fatalf("a press before the last clock event: %+v %v", rep, err)
		}
	})
}

// A command presses a clock when it is a press or a move not pressed
// before: arriving late, either is recorded as a correction of the clocks.
func TestACommandPressesAClockWhenItIsAPressOrAMoveNotPressedBefore(t *testing.T) {
	for _, tc := range []struct {
		cmd  match.Command
		want bool
	}{
		{match.Press{}, true},
		{match.Move{Input: "e4"}, true},
		{match.Move{Input: "e4", Pressed: true}, false},
		{match.Pause{}, false},
		{nil, false},
	} {
		name := "no command"
		if tc.cmd != nil {
			b, _ := match.EncodeCommand(tc.cmd)
			name = string(b)
		}
		t.Run(name, func(t *testing.T) {
			if got := presses(tc.cmd); got != tc.want {
				t.Errorf("presses(%v) = %v, want %v", tc.cmd, got, tc.want)
			}
		})
	}
}

// TestAReplicaTakesTheMatchItsAppRebuiltAtStart: a station's start
// rebuilds the match once, in its App, and the replica's guard takes that
// match (NewReplica with the App's state) when it stands at the record's
// head; given none, or a match of another record, the guard replays the
// record itself. Before, the guard always replayed the whole record
// beside the App (docs/performance.md, branch hleft).
func TestAReplicaTakesTheMatchItsAppRebuiltAtStart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	newRecord(t, path)
	db := openDB(t, path)
	app, err := match.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		known *match.State
		taken bool
	}{
		{"the App's match at the record's head is taken", app.State(), true},
		{"a match of no events is not taken: the record is replayed", match.NewState(), false},
		{"without one the record is replayed", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := NewReplica(ctx, db, tc.known)
			if err != nil {
				t.Fatal(err)
			}
			got := rep.guard.State()
			if got == nil || (got == tc.known) != tc.taken || got.Seq != app.State().Seq || got.Head != app.State().Head {
				t.Fatalf("the guard's match %p (taken %v); want taken %v, at the App's head %d", got, got == tc.known, tc.taken, app.State().Seq)
			}
		})
	}
}
