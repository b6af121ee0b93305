package match

import (
	"context"
	"strings"
	"testing"
	"time"

	"arbiter/clock"
)

// operatorErrorCase is the "ten moves later" case worked by hand. Kasparov
// (White, the human) takes 2 minutes a move, Deep Blue 1 minute. Ply 61,
// White's 31st move, was relayed wrongly; the error is found after ply 80,
// one minute into White's 41st move (ten moves later, in period 2).
//
//	m_err  = 30 and 30        m_disc = 40 and 40
//	m_made = 31 and 30 (Kasparov had made his 31st move when it was relayed)
//	used at ply 61:    White 31×2 = 62m,      Black 30×1 = 30m
//	used at discovery: White 40×2 + 1 = 81m,  Black 40×1 = 40m
//	record:       White 2:00 − 1:02 = 0:58:00;  Black 2:00 − 0:30 = 1:30:00
//	proportional: White used' = 81 × 31/40 = 62.775m → 2:00 − 1:02:46.5 = 0:57:13.5
//	              Black used' = 40 × 30/40 = 30m → 1:30:00
//	keep:         White 3:00 − 1:21 = 1:39:00; Black 3:00 − 0:40 = 2:20:00 (period 2 kept)
//	set:          the readings given
//
// Kasparov then receives the 5-minute recovery bonus.
type operatorErrorCase struct {
	method       string
	setW, setB   time.Duration
	white, black string // after the bonus
	period       int
}

var operatorErrorCases = []operatorErrorCase{
	{method: MethodRecord, white: "1:03:00", black: "1:30:00", period: 1},
	{method: MethodProportional, white: "1:02:13.500", black: "1:30:00", period: 1},
	{method: MethodKeep, white: "1:44:00", black: "2:20:00", period: 2},
	{method: MethodSet, setW: hms("0:45:00"), setB: hms("1:10:00"), white: "0:50:00", black: "1:10:00", period: 1},
}

func tenMovesLater(t *testing.T) *rig {
	r := newRig(t)
	r.start()
	r.shuffle(40, 2*time.Minute, time.Minute)
	r.now = r.now.Add(time.Minute)
	return r
}

func checkOperatorError(t *testing.T, tc operatorErrorCase) {
	r := tenMovesLater(t)
	res, err := r.app.Correct(r.ctx, r.as(RoleArbiter, 0), Correct{Ply: 61, Method: tc.method, White: tc.setW, Black: tc.setB, Reason: "the operator relayed 31. Nf3 as Ng5"})
	r.ok(err)
	g := r.game()
	if g.State != Paused || g.Sheet.Ply() != 60 || g.ToMove() != clock.White || len(g.Sheet.Struck()) != 20 {
		t.Fatalf("after the reset: state %s, ply %d, %v to move, %d struck; want paused, 60, White, 20", g.State, g.Sheet.Ply(), g.ToMove(), len(g.Sheet.Struck()))
	}
	if res.Bonus != RecoveryBonus || res.BonusTo != kasparov {
		t.Errorf("bonus %s to %q", res.Bonus, res.BonusTo)
	}
	for s, want := range map[clock.Side]string{clock.White: tc.white, clock.Black: tc.black} {
		if got := r.remaining(s); got != hms(want) {
			t.Errorf("%s = %s, want %s (%s)", Colour(s), clock.FormatReading(got), want, res.Outcome.Working[s])
		}
		if got := g.Clock.Moves(s); got != 30 {
			t.Errorf("%s's move counter = %d, want 30", Colour(s), got)
		}
		if got := g.Clock.Period(s) + 1; got != tc.period {
			t.Errorf("%s's period = %d, want %d", Colour(s), got, tc.period)
		}
	}
	r.replayed()
	// Play resumes from the restored position with White's clock.
	r.ok(r.app.Resume(r.ctx, r.as(RoleArbiter, time.Minute)))
	r.move(4*time.Minute, "Nf3")
	g = r.game()
	if e := g.Sheet.Entries()[60]; e.Used != 4*time.Minute {
		t.Errorf("the replayed 31st move took %s, want 4m", e.Used)
	}
	if got, want := r.remaining(clock.White), hms(tc.white)-4*time.Minute; got != want {
		t.Errorf("White after the 31st move = %s, want %s", clock.FormatReading(got), clock.FormatReading(want))
	}
	r.replayed()
}

// moveFortyCase: White takes 2:58 a move, Black 1:00. Ply 79, White's 40th
// move, was the error, found 50 minutes into White's 41st move.
//
//	record:       White Allotment(39) = 2:00:00 − 40×2:58 = 1:58:40 → 0:01:20
//	              (the hour of the 40th move's press is not kept; the clock
//	              showed 0:11:20); Black 2:00:00 − 39m = 1:21:00
//	proportional: White used 1:58:40 + 50:00 = 2:48:40 = 10120 s, the
//	              40th move relayed counted as made (m_made 40):
//	              used' = 10120 × 40/40 = 2:48:40 → 2:00:00 − 2:48:40
//	              = −0:48:40: refused
func moveFortyCase(t *testing.T) *rig {
	r := newRig(t)
	r.start()
	r.shuffle(40, 2*time.Minute+58*time.Second, time.Minute)
	r.now = r.now.Add(50 * time.Minute)
	return r
}

func testRecordAcrossMoveForty(t *testing.T) {
	r := moveFortyCase(t)
	if got := r.remaining(clock.White); got != hms("0:11:20") {
		t.Fatalf("White's clock before the reset = %s, want 0:11:20", clock.FormatReading(got))
	}
	_, err := r.app.Correct(r.ctx, r.as(RoleArbiter, 0), Correct{Ply: 79, Method: MethodRecord, NoBonus: true, Reason: "40. Nf3 was relayed as Nh4"})
	r.ok(err)
	if got := r.remaining(clock.White); got != hms("0:01:20") {
		t.Errorf("White = %s, want 0:01:20", clock.FormatReading(got))
	}
	if got := r.remaining(clock.Black); got != hms("1:21:00") {
		t.Errorf("Black = %s, want 1:21:00", clock.FormatReading(got))
	}
	if p := r.game().Clock.Period(clock.White); p != 0 {
		t.Errorf("White's period = %d, want 1", p+1)
	}
	// The 40th move made again earns the hour again.
	r.ok(r.app.Resume(r.ctx, r.as(RoleArbiter, 0)))
	r.move(time.Minute, "Ng1")
	if got := r.remaining(clock.White); got != hms("1:00:20") {
		t.Errorf("White after the 40th move again = %s, want 1:00:20", clock.FormatReading(got))
	}
}

// testRecordChargesTheMistakenMovesOwnTime pins what rule 10 asks of the
// record: "If it is possible for the arbiter to determine the proper times
// that should be displayed on the players' clocks, then the arbiter shall
// adjust the clocks accordingly" — the times of "the position immediately
// before the mistake", at "the time the error was made". Either mistake the
// rule names comes after the mistaken ply's thinking: Kasparov's move is
// relayed wrongly after he made it and pressed, Deep Blue's is made wrongly
// on the board after it chose it (its clock ran all the while, rule 7). So
// the side that made ply N is charged ply N's own time, its opponent only
// its moves before ply N. Kasparov (White) and Deep Blue each take known,
// distinct times; the error is found 2 minutes into White's 5th move.
//
//	plies     1.   1…   2.   2…   3.   3…   4.   4…   5.(+2m)
//	minutes   3    1    4    2    7    9    5    6
//	ply 5 (3. White, relayed wrongly): White 2:00 − (3+4+7) = 1:46:00, Black 2:00 − (1+2) = 1:57:00
//	ply 6 (3… Black, made wrongly):    White 2:00 − (3+4+7) = 1:46:00, Black 2:00 − (1+2+9) = 1:48:00
func testRecordChargesTheMistakenMovesOwnTime(t *testing.T) {
	tests := []struct {
		name         string
		ply          int
		reason       string
		white, black string
	}{
		{"Kasparov's move relayed wrongly to Deep Blue: his time for it is charged, he made it before the error",
			5, "the operator relayed 3. Nf3 as Nh4", "1:46:00", "1:57:00"},
		{"Deep Blue's move made wrongly on the board: its time for it is charged, it chose it before the error",
			6, "the operator played 3... Nf6 for Deep Blue's 3... Nc6", "1:46:00", "1:48:00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := distinctTimes(t)
			res, err := r.app.Correct(r.ctx, r.as(RoleArbiter, 0), Correct{Ply: tt.ply, Method: MethodRecord, NoBonus: true, Reason: tt.reason})
			r.ok(err)
			for s, want := range map[clock.Side]string{clock.White: tt.white, clock.Black: tt.black} {
				if got := r.remaining(s); got != hms(want) {
					t.Errorf("%s = %s, want %s (%s)", Colour(s), clock.FormatReading(got), want, res.Outcome.Working[s])
				}
			}
			r.replayed()
		})
	}
}

// distinctTimes is the game of testRecordChargesTheMistakenMovesOwnTime:
// eight plies of known, distinct times, then 2 minutes of White's 5th move.
func distinctTimes(t *testing.T) *rig {
	r := newRig(t)
	r.start()
	for _, p := range []struct {
		min int
		san string
	}{{3, "Nf3"}, {1, "Nf6"}, {4, "Ng1"}, {2, "Ng8"}, {7, "Nf3"}, {9, "Nf6"}, {5, "Ng1"}, {6, "Ng8"}} {
		r.move(time.Duration(p.min)*time.Minute, p.san)
	}
	r.now = r.now.Add(2 * time.Minute)
	return r
}

// testProportionalCountsTheRelayedMoveAsMade pins rule 10's numerator:
// "the number of moves made by that player up to the time the error was
// made". Kasparov had made the move the operator relayed wrongly, so it
// counts; Deep Blue's move made wrongly on the board was not made before
// the error, so it does not. On distinctTimes, at discovery each side has
// made 4 moves; used: White 3+4+7+5+2 = 21 min, Black 1+2+9+6 = 18 min.
//
//	ply 5 (3. White's, relayed): White 21 × 3/4 = 15:45 → 1:44:15 (21 × 2/4 → 1:49:30 without it); Black 18 × 2/4 = 9 → 1:51:00
//	ply 6 (3… Black's, on the board): White 21 × 3/4 → 1:44:15; Black 18 × 2/4 = 9 → 1:51:00 (18 × 3/4 → 1:46:30 if it counted)
func testProportionalCountsTheRelayedMoveAsMade(t *testing.T) {
	tests := []struct {
		name         string
		ply          int
		white, black string
	}{
		{"Kasparov's move relayed wrongly counts as made: he made it before the error", 5, "1:44:15", "1:51:00"},
		{"Deep Blue's move made wrongly on the board does not: the error was its making", 6, "1:44:15", "1:51:00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := distinctTimes(t)
			res, err := r.app.Correct(r.ctx, r.as(RoleArbiter, 0), Correct{Ply: tt.ply, Method: MethodProportional, NoBonus: true, Reason: "a relay or a board error"})
			r.ok(err)
			for s, want := range map[clock.Side]string{clock.White: tt.white, clock.Black: tt.black} {
				if got := r.remaining(s); got != hms(want) {
					t.Errorf("%s = %s, want %s (%s)", Colour(s), clock.FormatReading(got), want, res.Outcome.Working[s])
				}
			}
			r.replayed()
		})
	}
}

func testProportionalRefusedWhenNegative(t *testing.T) {
	r := moveFortyCase(t)
	_, err := r.app.Correct(r.ctx, r.as(RoleArbiter, 0), Correct{Ply: 79, Method: MethodProportional, Reason: "40. Nf3 was relayed as Nh4"})
	refused(t, err, CodeMethodImpossible, "White -0:48:40")
	if r.game().Sheet.Ply() != 80 {
		t.Error("a refused correction changed the record")
	}
}

func testProportionalLaterPeriod(t *testing.T) {
	// Discovery in period 2, error in period 1: see operatorErrorCase.
	checkOperatorError(t, operatorErrorCases[1])
}

func testPreviewShowsAllFour(t *testing.T) {
	r := moveFortyCase(t)
	o, err := CorrectionPreview(r.app.State(), 79, r.now)
	r.ok(err)
	var methods []string
	for _, oc := range o.Outcomes {
		methods = append(methods, oc.Method)
	}
	if strings.Join(methods, ",") != "record,proportional,keep,set" {
		t.Fatalf("outcomes %v", methods)
	}
	rec, _ := o.Outcome(MethodRecord)
	prop, _ := o.Outcome(MethodProportional)
	keep, _ := o.Outcome(MethodKeep)
	if !rec.Possible || rec.Sides[clock.White].Remaining != hms("0:01:20") {
		t.Errorf("record %+v", rec)
	}
	if prop.Possible || prop.Sides[clock.White].Remaining != -hms("0:48:40") {
		t.Errorf("proportional %+v", prop)
	}
	if keep.Sides[clock.White].Remaining != hms("0:11:20") || keep.Sides[clock.White].Period != 2 {
		t.Errorf("keep %+v", keep)
	}
	if o.MovesErr != [2]int{39, 39} || o.MovesNow != [2]int{40, 40} || o.UsedNow[clock.White] != hms("2:48:40") {
		t.Errorf("figures: m_err %v, m_disc %v, used now %v", o.MovesErr, o.MovesNow, o.UsedNow)
	}
	if o.Human != kasparov {
		t.Errorf("the bonus would go to %q", o.Human)
	}
}

func testCorrectRefusals(t *testing.T) {
	r := newRig(t)
	r.start()
	r.shuffle(3, time.Minute, time.Minute)
	tests := []struct {
		name string
		role Role
		args Correct
		want Code
	}{
		{"only the arbiter corrects", RoleOperator, Correct{Ply: 1, Method: MethodKeep, Reason: "x"}, CodeWrongRole},
		{"a reason is needed", RoleArbiter, Correct{Ply: 1, Method: MethodKeep}, CodeCorrectNeedsReason},
		{"the ply must exist", RoleArbiter, Correct{Ply: 7, Method: MethodKeep, Reason: "x"}, CodeNoSuchPly},
		{"the method must exist", RoleArbiter, Correct{Ply: 1, Method: "guess", Reason: "x"}, CodeNotAMethod},
		{"set needs both readings", RoleArbiter, Correct{Ply: 1, Method: MethodSet, White: time.Hour, Reason: "x"}, CodeSetNeedsReadings},
		{"readings go with set", RoleArbiter, Correct{Ply: 1, Method: MethodKeep, White: time.Hour, Reason: "x"}, CodeReadingsGoWithSet},
		{"the cause must exist", RoleArbiter, Correct{Ply: 1, Method: MethodKeep, Cause: "bad luck", Reason: "x"}, CodeNotACorrectionCause},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := r.app.Correct(r.ctx, r.as(tt.role, 0), tt.args)
			refused(t, err, tt.want)
		})
	}
}

// BenchmarkCorrectionPreview measures the dialog's computation on an
// 80-ply game.
func BenchmarkCorrectionPreview(b *testing.B) {
	r := newRig(b)
	r.start()
	r.shuffle(40, 2*time.Minute, time.Minute)
	st := r.app.State()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := CorrectionPreview(st, 61, r.now); err != nil {
			b.Fatal(err)
		}
	}
}

// The recovery bonus goes to the human whichever colour he has, and the
// result names his side as well as his name, whether the command ran here
// or its events are read back: the console words its note from the side
// (Kasparov had Black in game 1 of 1996, and the note said "Deep Blue
// received 0:05:00").
func TestTheRecoveryBonusNamesTheSideOfTheHumanWhoReceivesIt(t *testing.T) {
	for _, tt := range []struct {
		white string
		human clock.Side
	}{
		{white: kasparov, human: clock.White},
		{white: deepBlue, human: clock.Black},
	} {
		t.Run("Kasparov has "+Colour(tt.human), func(t *testing.T) {
			app, db, path := openTestApp(t, "rules.db")
			r := &rig{t: t, ctx: context.Background(), path: path, db: db, app: app, now: rigStart.Add(-time.Hour)}
			r.ok(app.NewMatch(r.ctx, r.as(RoleArbiter, 0), MatchNew{Title: "ACM Chess Challenge", Arbiter: "Mike Valvo",
				Players: [2]string{kasparov, deepBlue}, Computer: deepBlue, Operators: []string{"Feng-hsiung Hsu"}, White: tt.white, Control: "acm1996"}))
			r.start()
			r.shuffle(3, time.Minute, time.Minute)
			res, err := app.Do(r.ctx, r.as(RoleArbiter, time.Minute), Correct{Ply: 5, Method: MethodRecord, Reason: "3. Nf3 was relayed as Ng5"})
			r.ok(err)
			if got := *res.Correction; got.Bonus != RecoveryBonus || got.BonusTo != kasparov || got.BonusSide != tt.human {
				t.Errorf("the command's result: %s to %q on %s's clock, want %s to %q on %s's", got.Bonus, got.BonusTo, Colour(got.BonusSide), RecoveryBonus, kasparov, Colour(tt.human))
			}
			res.Correction = nil
			if got, _ := res.Corrected(); got.Bonus != RecoveryBonus || got.BonusSide != tt.human {
				t.Errorf("from the events: %s on %s's clock, want %s on %s's", got.Bonus, Colour(got.BonusSide), RecoveryBonus, Colour(tt.human))
			}
		})
	}
}
