package match

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/store"
)

// rigStart is the scheduled start of the rules tests' game 1.
var rigStart = time.Date(1996, 2, 10, 15, 0, 0, 0, time.UTC)

// rig is the 1996 match in a real SQLite file: Kasparov (the human) has
// White in game 1, Deep Blue (the computer) Black; the control is
// 40/2h, 20/1h, 30 min. Instants are explicit.
type rig struct {
	t    testing.TB
	ctx  context.Context
	path string
	db   *store.DB
	app  *App
	now  time.Time
}

const (
	kasparov = "Garry Kasparov"
	deepBlue = "Deep Blue"
)

func newRig(t testing.TB) *rig {
	t.Helper()
	ctx := context.Background()
	app, db, path := openTestApp(t, "rules.db")
	r := &rig{t: t, ctx: ctx, path: path, db: db, app: app, now: rigStart.Add(-time.Hour)}
	r.ok(app.NewMatch(ctx, r.as(RoleArbiter, 0), MatchNew{Title: "ACM Chess Challenge", Arbiter: "Mike Valvo",
		Players: [2]string{kasparov, deepBlue}, Computer: deepBlue, Operators: []string{"Feng-hsiung Hsu"}, White: kasparov, Control: "acm1996"}))
	return r
}

// as is a command by role, d after the previous one.
func (r *rig) as(role Role, d time.Duration) Cmd {
	r.now = r.now.Add(d)
	return Cmd{At: r.now, Actor: Actor{Role: role}}
}

func (r *rig) ok(err error) {
	r.t.Helper()
	if err != nil {
		r.t.Fatal(err)
	}
}

// start starts the next game at its scheduled start (game 1 at rigStart).
func (r *rig) start() {
	r.t.Helper()
	if r.now.Before(rigStart) {
		r.now = rigStart
	}
	r.ok(r.app.StartGame(r.ctx, r.as(RoleArbiter, 0), 0))
}

// move plays one move d after the previous command, entered by the arbiter.
func (r *rig) move(d time.Duration, m string) {
	r.t.Helper()
	if _, err := r.app.Move(r.ctx, r.as(RoleArbiter, d), m, false); err != nil {
		r.t.Fatalf("move %s: %v", m, err)
	}
}

// shuffle plays n moves of each side, the knights going out and back, each
// White move taking w and each Black move b.
func (r *rig) shuffle(n int, w, b time.Duration) {
	r.t.Helper()
	for i := 0; i < n; i++ {
		g := r.game()
		k := sheetMoves(g, clock.White) + 1
		wm, bm := "Nf3", "Nf6"
		if k%2 == 0 {
			wm, bm = "Ng1", "Ng8"
		}
		r.move(w, wm)
		r.move(b, bm)
	}
}

func (r *rig) game() *Game { return r.app.State().CurrentGame() }

func (r *rig) remaining(s clock.Side) time.Duration { return r.game().Clock.Remaining(s, r.now) }

// refused checks that err is a refusal (or a permission refusal) with the
// code want and, when given, arguments that say each of args (as a face
// fills them in: a phrase argument in its English).
func refused(t *testing.T, err error, want Code, args ...string) {
	t.Helper()
	var me *Error
	if err == nil {
		t.Fatalf("the command was accepted; want a refusal %s", want)
	}
	if !errors.As(err, &me) && !errors.Is(err, ErrPermission) {
		t.Fatalf("error %v (%T) is not a refusal", err, err)
	}
	if got := ErrorCode(err); got != want {
		t.Fatalf("refusal %v has the code %s, want %s", err, got, want)
	}
	for _, a := range args {
		found := false
		for _, x := range me.Args() {
			found = found || strings.Contains(fmt.Sprint(x), a)
		}
		if !found {
			t.Fatalf("refusal %v has no argument saying %q", err, a)
		}
	}
	// every refusal can be said in the console's language
	var p *phrase.Error
	if !errors.As(err, &p) {
		t.Fatalf("refusal %q carries no phrase: the console could show it only in English", err.Error())
	}
}

// lastIncident is the newest incident of the current game.
func (r *rig) lastIncident() Incident {
	incs := r.game().Incidents
	if len(incs) == 0 {
		r.t.Fatal("no incident logged")
	}
	return incs[len(incs)-1]
}

// replayed rebuilds the state from the file and checks that the clocks and
// the record agree with the live state.
func (r *rig) replayed() *State {
	r.t.Helper()
	st := r.stateFromFile()
	live, again := r.app.State().CurrentGame(), st.CurrentGame()
	for _, s := range []clock.Side{clock.White, clock.Black} {
		if a, b := live.Clock.Remaining(s, r.now), again.Clock.Remaining(s, r.now); a != b {
			r.t.Errorf("replay: %s's clock %s, live %s", Colour(s), clock.FormatReading(b), clock.FormatReading(a))
		}
	}
	if live.Sheet.FEN() != again.Sheet.FEN() {
		r.t.Errorf("replay: position %s, live %s", again.Sheet.FEN(), live.Sheet.FEN())
	}
	return st
}

func hms(s string) time.Duration {
	d, err := ParseClockReading(strings.TrimPrefix(s, "-"))
	if err != nil {
		panic(err)
	}
	if strings.HasPrefix(s, "-") {
		return -d
	}
	return d
}
