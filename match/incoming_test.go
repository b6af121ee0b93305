package match

import (
	"crypto/ed25519"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"arbiter/clock"
	"arbiter/store"
)

// A station's replica checks each command coming in by advancing the walk
// it keeps (IncomingWalk) over the command's events only. After every
// command its report must be CheckIncoming's on the whole record as it then
// stands, and its state (events walked, credentials, protection, the
// arbiter's keys, the last head, the signatures counted) the state of a
// walk of the whole record from its first event; a forged command is
// refused by both, with the same event and sentence.
func TestAnIncomingWalkAdvancedCommandByCommandIsTheWalkOfTheWholeRecord(t *testing.T) {
	records := []struct {
		name   string
		record func(t *testing.T) ([]store.Event, []store.Signature)
	}{
		{"an unprotected match", func(t *testing.T) ([]store.Event, []store.Signature) {
			f := newFixture(t)
			f.newMatch(MatchNew{})
			f.ok(f.app.StartGame(f.ctx, f.at(time.Second), 0))
			f.moves(30*time.Second, "e4", "c5", "c3")
			return recordOf(t, f)
		}},
		{"a protected match: two games, the arbiter's head signed at the resignation", func(t *testing.T) ([]store.Event, []store.Signature) {
			path, _ := protectedRecord(t)
			return readRecord(t, path)
		}},
		{"credentials handed out to the operator and a player, each signing its moves, and a wrong key recorded", func(t *testing.T) ([]store.Event, []store.Signature) {
			return randomRecord(t, 1, 30, []string{"operator", "player", "move", "move", "move", "wrong"})
		}},
		{"the arbiter's key rotated twice, the old key signing each rotation", func(t *testing.T) ([]store.Event, []store.Signature) {
			return randomRecord(t, 2, 24, []string{"rotate", "move", "note", "move", "rotate", "move", "resign", "mate"})
		}},
		{"an unprotected match the arbiter protects halfway", func(t *testing.T) ([]store.Event, []store.Signature) {
			f := newFixture(t)
			f.newMatch(MatchNew{})
			f.ok(f.app.StartGame(f.ctx, f.at(time.Second), 0))
			f.moves(30*time.Second, "e4", "c5")
			key := newStationKey()
			c := f.at(time.Second)
			c.Key = key
			f.ok(f.app.AddCredential(f.ctx, c, CredentialAdd{Role: RoleArbiter, Key: key}))
			c = f.at(time.Second)
			c.Key = key
			if _, err := f.app.Move(f.ctx, c, "c3", false); err != nil {
				t.Fatal(err)
			}
			return recordOf(t, f)
		}},
		{"requests signed at other stations (issue 25's golden record)", func(t *testing.T) ([]store.Event, []store.Signature) {
			return readRecord(t, copyGolden(t, requestV1Golden))
		}},
		{"a random sequence of moves, notes, credentials, rotations, wrong keys, resignations and mates", func(t *testing.T) ([]store.Event, []store.Signature) {
			return randomRecord(t, 20261205, 80, []string{"move", "move", "move", "move", "note", "operator", "player", "rotate", "wrong", "resign", "mate"})
		}},
	}
	feeds := []struct {
		name string
		feed feed
	}{
		{"command by command, each head signature with its command", feed{}},
		{"command by command, each head signature noted later from the heads stream", feed{lateHeads: true}},
		{"several commands at once, some applied without the walk (the authority's own)", feed{chunks: true, lag: true}},
	}
	for _, rec := range records {
		t.Run(rec.name, func(t *testing.T) {
			evs, sigs := rec.record(t)
			if rep := CheckIncoming(evs, sigs); !rep.OK {
				t.Fatalf("the record does not hold to begin with: %s", rep.Problem)
			}
			for _, fd := range feeds {
				t.Run(fd.name, func(t *testing.T) {
					fd.feed.rng = rand.New(rand.NewPCG(7, uint64(len(evs))))
					fd.feed.walkAlong(t, evs, sigs)
				})
			}
			t.Run("a forged command is refused as the walk of the whole record refuses it", func(t *testing.T) {
				forged := 0
				for _, g := range commandGroups(evs, sigs) {
					for _, forge := range forgeries {
						bad, ok := forge.forge(g, sigs)
						if !ok {
							continue
						}
						forged++
						w := walkTo(t, evs, sigs, g.from)
						got, next := w.Check(evs[:g.from], evs[g.from:g.to], sigsIn(bad, g.from, g.to))
						want := CheckIncoming(evs[:g.to], sigsUpTo(bad, g.to))
						if want.OK || want.BadSeq < int64(g.from)+1 {
							continue // the forgery goes unnoticed by the whole walk too (covered by a head) or names an earlier event
						}
						if next != nil || !reflect.DeepEqual(got, want) {
							t.Fatalf("%s at events %d–%d: the walk says OK %v at %d (%s), the whole record's walk OK %v at %d (%s)",
								forge.name, g.from+1, g.to, got.OK, got.BadSeq, got.Problem, want.OK, want.BadSeq, want.Problem)
						}
					}
				}
				for _, g := range commandGroups(evs, sigs) {
					for _, forge := range []struct {
						name   string
						change func(e *store.Event)
					}{
						{"an event's payload changed", func(e *store.Event) { e.Payload = append(slices.Clone(e.Payload), ' ') }},
						{"an event linked to another and re-hashed", func(e *store.Event) { e.Prev = flipHex(e.Prev); e.Hash = store.EventHash(*e) }},
					} {
						bad := slices.Clone(evs[:g.to])
						forge.change(&bad[g.to-1])
						forged++
						w := walkTo(t, evs, sigs, g.from)
						got, next := w.Check(bad[:g.from], bad[g.from:], sigsIn(sigs, g.from, g.to))
						want := CheckIncomingAfter(bad, sigsUpTo(sigs, g.to), g.from)
						if next != nil || want.OK || !reflect.DeepEqual(got, want) {
							t.Fatalf("%s at event %d: the walk says OK %v at %d (%s), the whole record's walk OK %v at %d (%s)",
								forge.name, g.to, got.OK, got.BadSeq, got.Problem, want.OK, want.BadSeq, want.Problem)
						}
					}
				}
				if forged == 0 && len(sigs) > 0 {
					t.Fatal("no command was forged")
				}
			})
		})
	}
}

// feed is how a test gives a record's commands to a walk.
type feed struct {
	lateHeads bool // head signatures are noted one command later, not with their command
	chunks    bool // up to three commands at once
	lag       bool // some commands are applied without the walk (the authority's own)
	rng       *rand.Rand
}

// walkAlong gives evs and sigs to a walk command by command (as the feed
// says) and checks the walk after each against the whole record's.
func (fd feed) walkAlong(t *testing.T, evs []store.Event, sigs []store.Signature) {
	t.Helper()
	var w IncomingWalk
	groups := commandGroups(evs, sigs)
	var late []store.Signature
	known := map[store.Signature]bool{} // the signatures the record holds so far
	for i := 0; i < len(groups); {
		n := 1
		if fd.chunks {
			n = 1 + fd.rng.IntN(3)
		}
		from, to := groups[i].from, groups[min(i+n, len(groups))-1].to
		i += n
		for _, s := range sigsIn(sigs, from, to) {
			if s.Kind == store.SigHead && fd.lateHeads {
				late = append(late, s)
				continue
			}
			known[s] = true
		}
		if fd.lag && fd.rng.IntN(3) == 0 && i < len(groups) {
			continue // in the record, not walked: the next Check walks it too
		}
		given := []store.Signature{}
		for s := range known {
			if s.Seq > int64(w.Walked()) { // those before were given or noted (NoteHead) already
				given = append(given, s)
			}
		}
		cut := max(w.Walked(), from)
		got, next := w.Check(evs[:cut], evs[cut:to], given)
		want := CheckIncoming(evs[:to], sorted(known))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after event %d: the walk reports %+v, the whole record's walk %+v", to, got, want)
		}
		if next == nil {
			t.Fatalf("after event %d: the walk refused a record that holds: %s", to, got.Problem)
		}
		fresh := walkWhole(t, evs[:to], sorted(known))
		if d := walkDiff(next, fresh); d != "" {
			t.Fatalf("after event %d: the walk advanced differs from the walk of the whole record: %s", to, d)
		}
		w = *next
		for _, h := range late {
			if h.Seq <= int64(to) {
				known[h] = true
				w.NoteHead(h)
			}
		}
		late = slices.DeleteFunc(late, func(h store.Signature) bool { return known[h] })
	}
	if w.Walked() != len(evs) {
		t.Fatalf("the walk ended at %d events, the record has %d", w.Walked(), len(evs))
	}
}

// walkWhole is a walk of the whole record from its first event.
func walkWhole(t *testing.T, evs []store.Event, sigs []store.Signature) *IncomingWalk {
	t.Helper()
	rep, w := (&IncomingWalk{}).Check(nil, evs, sigs)
	if w == nil {
		t.Fatalf("the whole record does not hold: %s", rep.Problem)
	}
	return w
}

// walkTo is a walk advanced command by command to event index upTo.
func walkTo(t *testing.T, evs []store.Event, sigs []store.Signature, upTo int) IncomingWalk {
	t.Helper()
	var w IncomingWalk
	for _, g := range commandGroups(evs, sigs) {
		if g.to > upTo {
			break
		}
		rep, next := w.Check(evs[:g.from], evs[g.from:g.to], sigsIn(sigs, g.from, g.to))
		if next == nil {
			t.Fatalf("the record does not hold at %d: %s", g.to, rep.Problem)
		}
		w = *next
	}
	return w
}

// walkDiff says how two walks differ ("" for not at all).
func walkDiff(a, b *IncomingWalk) string {
	type state struct {
		Walked        int
		Creds         map[string]string
		Protected     bool
		ProtectedFrom int64
		Signatures    int
		Keys          []ArbiterKey
		KeyAt, Before []string
		Head          store.Signature
		First         firstEvent
	}
	of := func(w *IncomingWalk) state {
		s := state{w.walked, w.creds, w.protected, w.protectedFrom, w.signatures, w.keys.Registered(), w.keys.at, w.keys.before, w.head, firstEvent{}}
		if len(s.Creds) == 0 {
			s.Creds = nil
		}
		if w.first != nil {
			s.First = *w.first
		}
		return s
	}
	if sa, sb := of(a), of(b); !reflect.DeepEqual(sa, sb) {
		return fmt.Sprintf("%+v\nagainst %+v", sa, sb)
	}
	return ""
}

// group is one command's events, evs[from:to].
type group struct{ from, to int }

// commandGroups splits a record into its commands as a stream carries
// them: the events a command's (or request's) signature covers together,
// every other event alone.
func commandGroups(evs []store.Event, sigs []store.Signature) []group {
	count := map[int64]int64{}
	for _, s := range sigs {
		if s.Kind == store.SigCommand || s.Kind == store.SigRequest {
			count[s.Seq] = max(count[s.Seq], s.Count)
		}
	}
	var out []group
	for i := 0; i < len(evs); {
		n := min(max(int(count[evs[i].Seq]), 1), len(evs)-i)
		out = append(out, group{i, i + n})
		i += n
	}
	return out
}

// sigsIn are the signatures of events from+1 to to (seqs).
func sigsIn(sigs []store.Signature, from, to int) []store.Signature {
	var out []store.Signature
	for _, s := range sigs {
		if s.Seq > int64(from) && s.Seq <= int64(to) {
			out = append(out, s)
		}
	}
	return out
}

func sigsUpTo(sigs []store.Signature, to int) []store.Signature { return sigsIn(sigs, 0, to) }

// sorted is a set of signatures in the record's order (seq, kind).
func sorted(set map[store.Signature]bool) []store.Signature {
	var out []store.Signature
	for s := range set {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b store.Signature) int {
		if a.Seq != b.Seq {
			return int(a.Seq - b.Seq)
		}
		if a.Kind < b.Kind {
			return -1
		}
		if a.Kind > b.Kind {
			return 1
		}
		return 0
	})
	return out
}

// forgeries change one signature row of a command's events.
var forgeries = []struct {
	name  string
	forge func(g group, sigs []store.Signature) ([]store.Signature, bool)
}{
	{"a station signature changed", forgeRow(store.SigStation, func(s *store.Signature) { s.Sig = flipHex(s.Sig) })},
	{"a command signature changed", forgeRow(store.SigCommand, func(s *store.Signature) { s.Sig = flipHex(s.Sig) })},
	{"a command signed by another key", forgeRow(store.SigCommand, func(s *store.Signature) { s.Key = flipHex(s.Key) })},
	{"a request signature changed", forgeRow(store.SigRequest, func(s *store.Signature) { s.Sig = flipHex(s.Sig) })},
	{"a head signature changed", forgeRow(store.SigHead, func(s *store.Signature) { s.Sig = flipHex(s.Sig) })},
	{"a station signature removed", func(g group, sigs []store.Signature) ([]store.Signature, bool) {
		i := slices.IndexFunc(sigs, func(s store.Signature) bool {
			return s.Kind == store.SigStation && s.Seq == int64(g.to)
		})
		if i < 0 {
			return nil, false
		}
		return slices.Delete(slices.Clone(sigs), i, i+1), true
	}},
}

func forgeRow(kind string, change func(*store.Signature)) func(g group, sigs []store.Signature) ([]store.Signature, bool) {
	return func(g group, sigs []store.Signature) ([]store.Signature, bool) {
		out := slices.Clone(sigs)
		for i := range out {
			if out[i].Kind == kind && out[i].Seq > int64(g.from) && out[i].Seq <= int64(g.to) {
				change(&out[i])
				return out, true
			}
		}
		return nil, false
	}
}

// flipHex changes the first hex digit of h.
func flipHex(h string) string {
	if h[0] == '0' {
		return "1" + h[1:]
	}
	return "0" + h[1:]
}

// recordOf is the fixture's whole record.
func recordOf(t *testing.T, f *fixture) ([]store.Event, []store.Signature) {
	t.Helper()
	evs, sigs, err := f.db.Record(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return evs, sigs
}

// randomRecord plays a protected match (key files, so no passphrase is
// stretched) of n commands drawn from ops with seed: a move by the side to
// move's own credential (handed out first if need be), a note, the operator's or
// Kasparov's credential handed out (again), the arbiter's key replaced, a
// wrong key tried (recorded as auth.fail), a resignation and the next game.
func randomRecord(t *testing.T, seed uint64, n int, ops []string) ([]store.Event, []store.Signature) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 29))
	f := newFixture(t)
	arbiter := newStationKey()
	f.newMatch(MatchNew{ArbiterKey: arbiter})
	as := func(role Role, key ed25519.PrivateKey) Cmd {
		c := f.as(role, time.Second)
		c.Key = key
		return c
	}
	keys := map[Role]ed25519.PrivateKey{}
	game := 1
	f.ok(f.app.StartGame(f.ctx, as(RoleArbiter, arbiter), 0))
	shuffle := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	ply := 0
	move := func(m string) {
		g := f.app.State().CurrentGame()
		side := g.ToMove()
		role := RoleOperator
		if g.Name(side) != "Deep Blue" {
			role = RoleWhite
			if side == clock.Black {
				role = RoleBlack
			}
		}
		if keys[role] == nil { // the arbiter hands out the role's credential first
			k := newStationKey()
			spec := CredentialAdd{Role: RoleOperator, Key: k}
			if role != RoleOperator {
				spec = CredentialAdd{Role: "player", Player: "Garry Kasparov", Key: k}
			}
			f.ok(f.app.AddCredential(f.ctx, as(RoleArbiter, arbiter), spec))
			keys[role] = k
			if role != RoleOperator {
				keys[RoleWhite], keys[RoleBlack] = k, k
			}
		}
		if _, err := f.app.Move(f.ctx, as(role, keys[role]), m, false); err != nil {
			t.Fatalf("move %s: %v", m, err)
		}
		ply++
	}
	for i := 0; i < n; i++ {
		switch op := ops[rng.IntN(len(ops))]; op {
		case "move", "mate":
			if ply >= 10 {
				continue
			}
			line := shuffle[ply%4 : ply%4+1]
			if op == "mate" {
				if ply > 0 || game == 6 { // six games in the match
					continue
				}
				line = []string{"f3", "e5", "g4", "Qh4#"} // the last writes the move and the game's end in one command
			}
			for _, m := range line {
				move(m)
			}
			if op == "mate" {
				game++
				f.ok(f.app.StartGame(f.ctx, as(RoleArbiter, arbiter), game))
				ply = 0
			}
		case "note":
			if _, err := f.app.Incident(f.ctx, as(RoleArbiter, arbiter), "note", IncidentArgs{Text: fmt.Sprintf("note %d", i)}); err != nil {
				t.Fatalf("%s: %v", op, err)
			}
		case "operator":
			keys[RoleOperator] = newStationKey()
			f.ok(f.app.AddCredential(f.ctx, as(RoleArbiter, arbiter), CredentialAdd{Role: RoleOperator, Key: keys[RoleOperator]}))
		case "player":
			k := newStationKey()
			f.ok(f.app.AddCredential(f.ctx, as(RoleArbiter, arbiter), CredentialAdd{Role: "player", Player: "Garry Kasparov", Key: k}))
			keys[RoleWhite], keys[RoleBlack] = k, k
		case "rotate":
			next := newStationKey()
			f.ok(f.app.AddCredential(f.ctx, as(RoleArbiter, arbiter), CredentialAdd{Role: RoleArbiter, Key: next}))
			arbiter = next
		case "wrong":
			if keys[RoleOperator] == nil {
				continue
			}
			f.app.Move(f.ctx, as(RoleOperator, newStationKey()), "a3", false) // refused, recorded as auth.fail
			f.now = f.now.Add(time.Minute)                                    // past the back-off
		case "resign":
			if game == 6 {
				continue
			}
			f.ok(f.app.Resign(f.ctx, as(RoleArbiter, arbiter), clock.White))
			game++
			f.ok(f.app.StartGame(f.ctx, as(RoleArbiter, arbiter), game))
			ply = 0
		}
	}
	return recordOf(t, f)
}

// A station's state takes the events its replica has just committed as
// they were committed, instead of reading them back (App.Take): it ends
// where reading the record would (Refresh), takes nothing it holds already,
// and reads the record when the events given do not continue its state.
func TestAStateTakesTheEventsItsStationCommittedAsReadingThemWould(t *testing.T) {
	setup := func(t *testing.T) (writer *fixture, reader *App) {
		f := newFixture(t)
		f.newMatch(MatchNew{})
		f.ok(f.app.StartGame(f.ctx, f.at(time.Second), 0))
		reader, err := New(f.ctx, f.db) // the station's state; f.app writes as its replica would
		if err != nil {
			t.Fatal(err)
		}
		f.moves(30*time.Second, "e4", "c5")
		f.ok(f.app.Pause(f.ctx, f.at(time.Minute), "noise", false))
		return f, reader
	}
	same := func(t *testing.T, f *fixture, got *App) {
		t.Helper()
		read, err := New(f.ctx, f.db)
		if err != nil {
			t.Fatal(err)
		}
		a, b := got.State(), read.State()
		if a.Seq != b.Seq || a.Head != b.Head || !reflect.DeepEqual(a.StatusAt(f.now.Add(time.Hour)), b.StatusAt(f.now.Add(time.Hour))) ||
			a.CurrentGame().Sheet.FEN() != b.CurrentGame().Sheet.FEN() {
			t.Fatalf("the state taken is at %d (%s), the record read at %d (%s)", a.Seq, a.CurrentGame().Sheet.FEN(), b.Seq, b.CurrentGame().Sheet.FEN())
		}
	}
	t.Run("the events committed, given whole, bring the state where reading the record does", func(t *testing.T) {
		f, reader := setup(t)
		evs, _ := recordOf(t, f)
		f.ok(reader.Take(f.ctx, evs))
		same(t, f, reader)
		f.ok(reader.Take(f.ctx, evs)) // again: nothing new
		same(t, f, reader)
	})
	t.Run("events given that the state holds already change nothing", func(t *testing.T) {
		f, reader := setup(t)
		evs, _ := recordOf(t, f)
		f.ok(reader.Take(f.ctx, evs))
		f.ok(reader.Take(f.ctx, evs[:2]))
		same(t, f, reader)
	})
	t.Run("events that do not continue the state make it read the record", func(t *testing.T) {
		f, reader := setup(t)
		evs, _ := recordOf(t, f)
		forged := slices.Clone(evs)
		forged[len(forged)-1].Hash = flipHex(forged[len(forged)-1].Hash) // not its own hash
		f.ok(reader.Take(f.ctx, forged))
		same(t, f, reader)
	})
}

// TestAStateTakesTheMatchItsReplicasGuardReplayedAsReadingTheRecordWould:
// a station's replica replays the events it checks (ReplayGuard), and its
// App takes that match instead of applying them again; the match so taken
// is the one reading the record gives, and one that is not the match after
// exactly the events given is not taken.
func TestAStateTakesTheMatchItsReplicasGuardReplayedAsReadingTheRecordWould(t *testing.T) {
	f := newFixture(t)
	f.newMatch(MatchNew{})
	f.ok(f.app.StartGame(f.ctx, f.at(time.Second), 0))
	evs, sigs := recordOf(t, f)
	g := NewReplayGuard(evs, sigs, nil)
	reader, err := New(f.ctx, f.db)
	if err != nil {
		t.Fatal(err)
	}
	f.moves(30*time.Second, "e4", "c5", "Nf3")
	all, rows := recordOf(t, f)
	step, p, err := g.Check(evs, all[len(evs):], rows)
	if p != nil || err != nil {
		t.Fatalf("the guard refuses the record's own events: %v %v", p, err)
	}
	g.Keep(step)
	t.Run("the guard's match after the events given is taken and is the record's", func(t *testing.T) {
		f.ok(reader.TakeReplayed(f.ctx, all, g.State()))
		if reader.State() != g.State() {
			t.Error("the guard's match was not taken")
		}
		read, err := New(f.ctx, f.db)
		if err != nil {
			t.Fatal(err)
		}
		a, b := reader.State(), read.State()
		if a.Seq != b.Seq || a.Head != b.Head || !reflect.DeepEqual(a.StatusAt(f.now.Add(time.Hour)), b.StatusAt(f.now.Add(time.Hour))) ||
			a.CurrentGame().Sheet.FEN() != b.CurrentGame().Sheet.FEN() {
			t.Fatalf("the state taken is at %d (%s), the record read at %d (%s)", a.Seq, a.CurrentGame().Sheet.FEN(), b.Seq, b.CurrentGame().Sheet.FEN())
		}
	})
	t.Run("a match that is not the one after the events given is not taken", func(t *testing.T) {
		reader, err := New(f.ctx, f.db)
		if err != nil {
			t.Fatal(err)
		}
		f.moves(30*time.Second, "d6")
		more, _ := recordOf(t, f)
		f.ok(reader.TakeReplayed(f.ctx, more, g.State()))
		if st := reader.State(); st == g.State() || st.Seq != int64(len(more)) {
			t.Errorf("the state is at event %d, want %d applied", st.Seq, len(more))
		}
	})
}

// TestAReplayGuardTakesTheMatchItsAppRebuiltWhenItStandsAtTheRecordsHead:
// at a station's start the App rebuilds the match from the record and the
// replica's guard (NewReplayGuard) takes that match when it stands at the
// record's last event, its seq and head, rather than replay the record a
// second time; a match at another seq or head, or none, is not taken: the
// guard replays the record as before. The guard so built checks the next
// events as one that replayed them. Before, it always replayed.
func TestAReplayGuardTakesTheMatchItsAppRebuiltWhenItStandsAtTheRecordsHead(t *testing.T) {
	f := newFixture(t)
	f.newMatch(MatchNew{})
	f.ok(f.app.StartGame(f.ctx, f.at(time.Second), 0))
	f.moves(30*time.Second, "e4", "c5")
	early := f.app.State()
	f.moves(30*time.Second, "Nf3")
	evs, sigs := recordOf(t, f)
	app, err := New(f.ctx, f.db)
	if err != nil {
		t.Fatal(err)
	}
	otherHead := *app.State()
	otherHead.Head = early.Head
	for _, tc := range []struct {
		name  string
		known *State
		taken bool
	}{
		{"the App's match at the record's head is taken", app.State(), true},
		{"a match at an earlier event is not taken: the record is replayed", early, false},
		{"a match at the record's seq with another head is not taken", &otherHead, false},
		{"without a match the record is replayed", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewReplayGuard(evs, sigs, tc.known)
			got := g.State()
			if (got == tc.known) != tc.taken || got == nil || got.Seq != int64(len(evs)) || got.Head != evs[len(evs)-1].Hash ||
				got.CurrentGame().Sheet.FEN() != app.State().CurrentGame().Sheet.FEN() {
				t.Fatalf("the guard's match taken %v (at %d, %s); want taken %v, at the record's head %d", got == tc.known, got.Seq, got.Head, tc.taken, len(evs))
			}
		})
	}
	t.Run("a guard that took the App's match checks the next events as one that replayed them, the App's match unchanged", func(t *testing.T) {
		g := NewReplayGuard(evs, sigs, app.State())
		f.moves(30*time.Second, "d6")
		all, rows := recordOf(t, f)
		step, p, err := g.Check(evs, all[len(evs):], rows)
		if p != nil || err != nil {
			t.Fatalf("the guard refuses the record's own events: %v %v", p, err)
		}
		g.Keep(step)
		if st := g.State(); st == nil || st.Seq != int64(len(all)) || st.CurrentGame().Sheet.Ply() != 4 {
			t.Fatalf("the guard's match after d6: %+v", st)
		}
		if app.State().CurrentGame().Sheet.Ply() != 3 {
			t.Fatal("checking the next events changed the App's match")
		}
	})
}
