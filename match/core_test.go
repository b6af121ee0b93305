package match

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"arbiter/clock"
	"arbiter/store"
)

var t0 = time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)

// fixture is a match in a real SQLite file with a fake time.
type fixture struct {
	t   *testing.T
	ctx context.Context
	db  *store.DB
	app *App
	now time.Time
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	app, db, _ := openTestApp(t, "match.db")
	return &fixture{t: t, ctx: context.Background(), db: db, app: app, now: t0}
}

// openTestApp opens a new database file called name in a temporary folder,
// closed when the test ends, and the App over it; it returns the file's path.
func openTestApp(t testing.TB, name string) (*App, *store.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	app, db := openAppAt(t, path)
	return app, db, path
}

// openAppAt opens the database file at path, closed when the test ends,
// and the App over it, as a console or station opens a record.
func openAppAt(t testing.TB, path string) (*App, *store.DB) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	app, err := New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	return app, db
}

func (f *fixture) at(d time.Duration) Cmd {
	f.now = f.now.Add(d)
	return Cmd{At: f.now, Actor: Actor{Role: RoleArbiter}}
}

func (f *fixture) as(role Role, d time.Duration) Cmd {
	c := f.at(d)
	c.Role = role
	return c
}

func (f *fixture) ok(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) newMatch(spec MatchNew) {
	f.t.Helper()
	if spec.Title == "" {
		spec.Title = "ACM Chess Challenge"
	}
	if spec.Players[0] == "" {
		spec.Players = [2]string{"Garry Kasparov", "Deep Blue"}
		spec.Computer = "Deep Blue"
		spec.Operators = []string{"Feng-hsiung Hsu"}
	}
	if spec.White == "" {
		spec.White = "Deep Blue"
	}
	f.ok(f.app.NewMatch(f.ctx, f.at(0), spec))
}

func (f *fixture) moves(d time.Duration, ms ...string) {
	f.t.Helper()
	for _, m := range ms {
		if _, err := f.app.Move(f.ctx, f.at(d), m, false); err != nil {
			f.t.Fatalf("move %s: %v", m, err)
		}
	}
}

func TestReplayingTheLogRebuildsTheSameState(t *testing.T) {
	f := newFixture(t)
	f.newMatch(MatchNew{})
	f.ok(f.app.StartGame(f.ctx, f.at(time.Second), 0))
	f.moves(30*time.Second, "e4", "c5", "c3", "d5")
	f.ok(f.app.DrawOffer(f.ctx, f.at(time.Second), nil))
	f.ok(f.app.DrawAnswer(f.ctx, f.at(time.Second), false))
	f.ok(f.app.Pause(f.ctx, f.at(time.Minute), "noise", false))
	f.ok(f.app.Resume(f.ctx, f.at(time.Minute)))
	f.ok(f.app.Adjust(f.ctx, f.at(time.Second), clock.Black, Adjustment{D: 5 * time.Minute}, "recovery bonus"))
	f.moves(10*time.Second, "exd5")

	fresh, err := New(f.ctx, f.db)
	if err != nil {
		t.Fatal(err)
	}
	live, rebuilt := f.app.State().StatusAt(f.now.Add(time.Hour)), fresh.State().StatusAt(f.now.Add(time.Hour))
	if !reflect.DeepEqual(live, rebuilt) {
		t.Errorf("replayed state differs from the live one:\nlive    %+v\nrebuilt %+v", live.Game, rebuilt.Game)
	}
	a, b := f.app.State().CurrentGame(), fresh.State().CurrentGame()
	if !reflect.DeepEqual(a.Incidents, b.Incidents) {
		t.Error("replayed incident log differs")
	}
	for i, e := range a.Sheet.Entries() {
		if !reflect.DeepEqual(*e, *b.Sheet.Entries()[i]) {
			t.Errorf("ply %d differs after replay: %+v vs %+v", i+1, *e, *b.Sheet.Entries()[i])
		}
	}
}

func TestScoresheetRecordsTimeUsedAndBothClocksPerMove(t *testing.T) {
	f := newFixture(t)
	f.newMatch(MatchNew{})
	f.ok(f.app.StartGame(f.ctx, f.at(0), 0))
	f.moves(30*time.Second, "e4")
	f.moves(90*time.Second, "c5")
	f.ok(f.app.Pause(f.ctx, f.at(10*time.Second), "", false))
	f.ok(f.app.Resume(f.ctx, f.at(5*time.Minute)))
	f.moves(20*time.Second, "c3")
	es := f.app.State().CurrentGame().Sheet.Entries()
	want := []struct{ used, white, black time.Duration }{
		{30 * time.Second, 2*time.Hour - 30*time.Second, 2 * time.Hour},
		{90 * time.Second, 2*time.Hour - 30*time.Second, 2*time.Hour - 90*time.Second},
		{30 * time.Second, 2*time.Hour - 60*time.Second, 2*time.Hour - 90*time.Second}, // the pause is not thinking time
	}
	for i, w := range want {
		e := es[i]
		if e.Used != w.used || e.ClockWhite != w.white || e.ClockBlack != w.black {
			t.Errorf("ply %d: used %v white %v black %v; want %v %v %v", i+1, e.Used, e.ClockWhite, e.ClockBlack, w.used, w.white, w.black)
		}
	}
}

func TestRule3ColoursAlternateIrrespectiveOfPostponement(t *testing.T) {
	f := newFixture(t)
	f.newMatch(MatchNew{})
	f.ok(f.app.PostponeGame(f.ctx, f.at(0), 1, "illness"))
	f.ok(f.app.StartGame(f.ctx, f.at(time.Second), 0))
	g := f.app.State().CurrentGame()
	if g.Number != 2 || g.White != "Garry Kasparov" {
		t.Errorf("after postponing game 1, game %d starts with %s as White; want game 2 with Garry Kasparov", g.Number, g.White)
	}
	f.ok(f.app.Resign(f.ctx, f.at(time.Minute), clock.Black))
	f.ok(f.app.StartGame(f.ctx, f.at(time.Minute), 0))
	if g := f.app.State().CurrentGame(); g.Number != 3 || g.White != "Deep Blue" {
		t.Errorf("next game %d White %s; want game 3 with Deep Blue", g.Number, g.White)
	}
}

func TestLotsDrawnByTheAppAreRecorded(t *testing.T) {
	f := newFixture(t)
	f.ok(f.app.NewMatch(f.ctx, f.at(0), MatchNew{Title: "T", Players: [2]string{"A", "B"}, White: "lots"}))
	m := f.app.State().Match
	if m.Lots != "app" || (m.Game1White != "A" && m.Game1White != "B") {
		t.Errorf("lots %q game 1 White %q", m.Lots, m.Game1White)
	}
	evs, _ := f.db.EventsAfter(f.ctx, 0)
	if !contains(string(evs[0].Payload), "lots_draw") {
		t.Error("the random draw is not in the record")
	}
}

func contains(s, sub string) bool {
	return len(s) >= len(sub) && (s == sub || len(sub) == 0 || indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestDrawOfferIsMarkedWithTheOfferersMoveAndLapsesWhenTheOpponentMoves(t *testing.T) {
	f := newFixture(t)
	f.newMatch(MatchNew{})
	f.ok(f.app.StartGame(f.ctx, f.at(0), 0))
	f.moves(time.Second, "e4")
	f.ok(f.app.DrawOffer(f.ctx, f.at(time.Second), nil)) // White, who just moved
	g := f.app.State().CurrentGame()
	if !g.Sheet.Entries()[0].DrawOffer || g.Offer == nil || g.Offer.By != clock.White {
		t.Fatalf("offer after 1.e4 not recorded with the move: %+v", g.Offer)
	}
	f.moves(time.Second, "e5")
	if g := f.app.State().CurrentGame(); g.Offer != nil {
		t.Error("the offer did not lapse when Black moved")
	}
	// Black offers before moving: the (=) goes with Black's next move.
	f.moves(time.Second, "Nf3")
	f.ok(f.app.DrawOffer(f.ctx, f.as(RoleBlack, time.Second), nil))
	f.moves(time.Second, "Nc6")
	g = f.app.State().CurrentGame()
	if !g.Sheet.Entries()[3].DrawOffer {
		t.Error("(=) not on Black's move made with the offer")
	}
	f.ok(f.app.DrawAnswer(f.ctx, f.at(time.Second), true))
	g = f.app.State().CurrentGame()
	if g.Result != "1/2-1/2" || g.Termination != "agreement" || g.State != Finished {
		t.Errorf("accepted draw: %s %s %s", g.Result, g.Termination, g.State)
	}
	if _, ok := g.Clock.Running(); ok {
		t.Error("a clock still runs after the game ended")
	}
}

// With no side named and no player giving it, a draw offer is by the side
// that made its move: the side whose press awaits its move, else the side
// that made the last move (Game.Offerer, which the console asks too).
func TestADrawOfferWithNoSideIsByTheSideWhosePressAwaitsItsMove(t *testing.T) {
	f := newFixture(t)
	f.newMatch(MatchNew{})
	f.ok(f.app.StartGame(f.ctx, f.at(0), 0))
	f.moves(time.Second, "e4")
	f.ok(f.app.Press(f.ctx, f.at(5*time.Second))) // Black moved on the board and pressed
	if g := f.app.State().CurrentGame(); g.Offerer() != clock.Black {
		t.Fatalf("the offerer while Black's press awaits its move is %s", g.Offerer())
	}
	f.ok(f.app.DrawOffer(f.ctx, f.at(time.Second), nil))
	if g := f.app.State().CurrentGame(); g.Offer == nil || g.Offer.By != clock.Black {
		t.Fatalf("the offer is %+v, want Black's", g.Offer)
	}
	if _, err := f.app.Move(f.ctx, f.at(time.Second), "e5", true); err != nil {
		t.Fatal(err)
	}
	if g := f.app.State().CurrentGame(); !g.Sheet.Entries()[1].DrawOffer {
		t.Error("(=) is not on Black's move made with the offer")
	}
}

func TestPressThenMoveRecordsTheMoveAtThePress(t *testing.T) {
	f := newFixture(t)
	f.newMatch(MatchNew{})
	f.ok(f.app.StartGame(f.ctx, f.at(0), 0))
	f.ok(f.app.Press(f.ctx, f.at(40*time.Second)))
	if _, err := f.app.Move(f.ctx, f.at(3*time.Second), "e4", false); err == nil {
		t.Fatal("a move without --pressed was accepted while a press awaited its move")
	}
	if _, err := f.app.Move(f.ctx, f.at(0), "e4", true); err != nil {
		t.Fatal(err)
	}
	e := f.app.State().CurrentGame().Sheet.Entries()[0]
	if e.Used != 40*time.Second || !e.At.Equal(t0.Add(40*time.Second)) {
		t.Errorf("move recorded at %v using %v; want the press instant and 40s", e.At, e.Used)
	}
}

func TestCheckmateEndsTheGameWithoutAPress(t *testing.T) {
	f := newFixture(t)
	f.newMatch(MatchNew{})
	f.ok(f.app.StartGame(f.ctx, f.at(0), 0))
	f.moves(time.Second, "f3", "e5", "g4")
	res, err := f.app.Move(f.ctx, f.at(7*time.Second), "Qh4", false)
	if err != nil {
		t.Fatal(err)
	}
	g := f.app.State().CurrentGame()
	if !res.Ended || g.Result != "0-1" || g.Termination != "checkmate" {
		t.Errorf("fool's mate: ended %v result %s termination %s", res.Ended, g.Result, g.Termination)
	}
	if g.Clock.Moves(clock.Black) != 1 {
		t.Errorf("Black's move counter %d: the mating move is not a press", g.Clock.Moves(clock.Black))
	}
	if got := f.app.State().Score(); got["Garry Kasparov"] != 1 {
		t.Errorf("score %v", got)
	}
	if _, err := f.app.Move(f.ctx, f.at(time.Second), "Nf3", false); err == nil {
		t.Error("a move after the game ended was accepted")
	}
}

func TestNotnilsFivefoldRepetitionDoesNotEndTheGame(t *testing.T) {
	f := newFixture(t)
	f.newMatch(MatchNew{})
	f.ok(f.app.StartGame(f.ctx, f.at(0), 0))
	for i := 0; i < 5; i++ {
		f.moves(time.Second, "Nf3", "Nf6", "Ng1", "Ng8")
	}
	f.moves(time.Second, "e4")
	if g := f.app.State().CurrentGame(); g.Over() {
		t.Errorf("the game ended by itself: %s %s", g.Result, g.Termination)
	}
}

func TestRolesArePermittedOnlyTheirCommands(t *testing.T) {
	f := newFixture(t)
	f.newMatch(MatchNew{PIN: "the arbiter's passphrase"})
	pin := func(c Cmd) Cmd { c.PIN = "the arbiter's passphrase"; return c }
	f.ok(f.app.AddCredential(f.ctx, pin(f.at(0)), CredentialAdd{Role: RoleOperator, Secret: "the operator's passphrase"}))
	op := func(d time.Duration) Cmd {
		c := f.as(RoleOperator, d)
		c.Secret = "the operator's passphrase"
		return c
	}
	f.ok(f.app.StartGame(f.ctx, pin(f.at(0)), 0))
	cases := []struct {
		name string
		err  error
	}{
		{"operator cannot adjust clocks", f.app.Adjust(f.ctx, op(0), clock.White, Adjustment{D: time.Minute}, "x")},
		{"operator cannot set a result", f.app.Result(f.ctx, op(0), "1-0", "x")},
		{"arbiter without PIN cannot resume", f.app.Resume(f.ctx, f.at(0))},
		{"black cannot move for white", func() error { _, err := f.app.Move(f.ctx, pin(f.as(RoleBlack, 0)), "e4", false); return err }()},
		{"operator cannot resign for the human", f.app.Resign(f.ctx, op(0), clock.Black)},
		{"player cannot pause without calling the arbiter", f.app.Pause(f.ctx, pin(f.as(RoleWhite, 0)), "", false)},
		{"operator cannot stop the computer's clock (rule 7)", f.app.Pause(f.ctx, op(0), "", true)},
		{"operator without a credential cannot move on a protected match", func() error { _, err := f.app.Move(f.ctx, f.as(RoleOperator, 0), "e4", false); return err }()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !errors.Is(c.err, ErrPermission) {
				t.Errorf("got %v, want a permission refusal", c.err)
			}
		})
	}
	if _, err := f.app.Move(f.ctx, op(time.Second), "e4", false); err != nil {
		t.Errorf("the operator could not move for the computer: %v", err)
	}
	evs, _ := f.db.EventsAfter(f.ctx, 0)
	last := evs[len(evs)-1]
	if last.Role != "operator" || last.Actor != "Feng-hsiung Hsu" {
		t.Errorf("the move is recorded as %s/%s", last.Role, last.Actor)
	}
}

func TestTwoHandlesOnOneFileSeeEachOthersEvents(t *testing.T) {
	f := newFixture(t)
	f.newMatch(MatchNew{})
	other, err := store.Open(f.ctx, f.db.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	app2, err := New(f.ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	f.ok(app2.StartGame(f.ctx, f.at(time.Second), 0))
	// The first app has not refreshed, but its next command sees the start.
	f.moves(time.Second, "e4")
	f.ok(app2.Refresh(f.ctx))
	if ply := app2.State().CurrentGame().Sheet.Ply(); ply != 1 {
		t.Errorf("the second handle sees ply %d, want 1", ply)
	}
}
