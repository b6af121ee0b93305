package match

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter/clock"
)

// The flag law (issue 13): Articles 6.3, 6.8, 6.9 and 6.11 judged at the
// instant the flag fell. Every case was computed by hand from the rule
// texts; each asserts the result, both clocks to the millisecond and the
// events the command wrote. TestRules runs them (docs/rules.md names them).

const sec = time.Second

// newRigTC is newRig with another control for both players.
func newRigTC(t testing.TB, tc string) *rig {
	t.Helper()
	app, db, path := openTestApp(t, "rules.db")
	r := &rig{t: t, ctx: context.Background(), path: path, db: db, app: app, now: rigStart.Add(-time.Hour)}
	r.ok(app.NewMatch(r.ctx, r.as(RoleArbiter, 0), MatchNew{Title: "ACM Chess Challenge", Arbiter: "Mike Valvo",
		Players: [2]string{kasparov, deepBlue}, Computer: deepBlue, Operators: []string{"Feng-hsiung Hsu"}, White: kasparov, Control: tc}))
	return r
}

// seq is the number of events in the record.
func (r *rig) seq() int64 { return r.app.State().Seq }

// wantLog checks the events written after seq since: one want per event,
// "kind" followed by text its JSON payload must contain (each part after
// the kind, separated by " & ").
func (r *rig) wantLog(t *testing.T, since int64, want ...string) {
	t.Helper()
	evs, err := r.db.EventsAfter(r.ctx, since)
	r.ok(err)
	if len(evs) != len(want) {
		var got []string
		for _, e := range evs {
			got = append(got, e.Kind+" "+string(e.Payload))
		}
		t.Fatalf("%d events after #%d, want %d:\n%s", len(evs), since, len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		kind, rest, _ := strings.Cut(w, " ")
		e := evs[i]
		if e.Kind != kind {
			t.Errorf("event #%d is %s %s, want %s", e.Seq, e.Kind, e.Payload, kind)
			continue
		}
		for _, part := range strings.Split(rest, " & ") {
			if part != "" && !strings.Contains(string(e.Payload), part) {
				t.Errorf("event #%d (%s) %s lacks %s", e.Seq, e.Kind, e.Payload, part)
			}
		}
	}
}

// wantClocks checks both clocks at the rig's instant, to the millisecond.
func (r *rig) wantClocks(t *testing.T, white, black string) {
	t.Helper()
	for _, x := range []struct {
		s    clock.Side
		want string
	}{{clock.White, white}, {clock.Black, black}} {
		got := r.remaining(x.s).Truncate(time.Millisecond)
		if got != hms(x.want) {
			t.Errorf("%s's clock %s, want %s", Colour(x.s), clock.FormatReading(got), x.want)
		}
	}
}

// wantResult checks the game's result and termination.
func (r *rig) wantResult(t *testing.T, result, term string) {
	t.Helper()
	if g := r.game(); g.Result != result || string(g.Termination) != term {
		t.Errorf("game %s (%s), want %s (%s)", g.Result, g.Termination, result, term)
	}
}

func rfcAt(d time.Duration) string { return rigStart.Add(d).UTC().Format(time.RFC3339Nano) }

// knight is the shuffle's next move for the side to move.
func (r *rig) knight() string {
	g := r.game()
	side := g.ToMove()
	k := sheetMoves(g, side) + 1
	if side == clock.White {
		return map[bool]string{true: "Nf3", false: "Ng1"}[k%2 == 1]
	}
	return map[bool]string{true: "Nf6", false: "Ng8"}[k%2 == 1]
}

var flagRules = []struct {
	name string
	run  func(t *testing.T)
}{
	// Issue 13, "Why" 1: Kasparov takes 180 s a move, Deep Blue 1 s. After 39
	// moves each (39 × 181 s = 7059 s) White has 7200 − 39 × 180 = 180 s, so
	// his flag falls at +7239 s with 39 of 40 moves made; move 40 is pressed
	// at exactly +7239 s: late. No hour is credited; the claim after Black's
	// move 40 wins for Black although White has since made 40 moves.
	{"6.3_flag_before_move_40_pressed_at_the_flag_instant_loses", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.shuffle(39, 180*sec, sec)
		r.move(180*sec, r.knight())
		if st := r.app.State().StatusAt(r.now); st.Game.Clock.White.RemainingMS != 0 {
			t.Errorf("remaining_ms %d after the flag, want 0", st.Game.Clock.White.RemainingMS)
		}
		f, ok := r.app.State().StatusAt(r.now).Game.Clock.White.Flag.(FlagInfo)
		if !ok || f.RequiredDone || f.Moves != 39 || f.Required != 40 || f.At != rfcAt(7239*sec) {
			t.Errorf("status flag %+v, want fallen at +7239s with 39 of 40 moves", f)
		}
		r.move(sec, r.knight())
		r.wantClocks(t, "0:00:00", "2:59:20") // 7200 − 40 + 3600
		since := r.seq()
		r.now = r.now.Add(5 * sec)
		v, err := r.app.Flag(r.ctx, r.as(RoleOperator, 0), "white", false)
		r.ok(err)
		r.wantResult(t, "0-1", "time forfeit")
		if !strings.Contains(v.Reason, "with 39 of the 40 moves required completed") || !v.FellAt.Equal(rigStart.Add(7239*sec)) {
			t.Errorf("verdict %+v", v)
		}
		r.wantClocks(t, "0:00:00", "2:59:20")
		r.wantLog(t, since, `flag "side":"white" & "verdict":"can mate" & "fell_at":"`+rfcAt(7239*sec)+`"`, `game.end "result":"0-1" & "termination":"time forfeit"`)
		if inc := r.game().Incidents; !incidentAt(inc, "flag", rigStart.Add(7239*sec), "White's flag fell at 17:00:39.000 UTC") {
			t.Errorf("the flag incident does not show the flag instant: %+v", inc[len(inc)-2])
		}
		// it is the verdict, which says whose flag fell and when, once
		// ("White flag fell at …; can mate (White's flag fell at …)", and
		// then "White's flag fell at …; can mate (White's flag fell at …)",
		// before)
		for _, in := range r.game().Incidents {
			if in.Kind == "flag" && (in.Text != v.Reason || strings.Count(in.Text, "flag fell") != 1) {
				t.Errorf("the flag incident says %q", in.Text)
			}
		}
		r.replayed()
	}},
	// White takes 195 s a move: 36 × 195 = 7020 s, so 180 s are left and the
	// flag falls 180 s into move 37 (+36 × 196 + 180 = 7236 s). The claim
	// comes after move 41.
	{"6.3_flag_at_move_37_claimed_after_move_41_loses", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.shuffle(36, 195*sec, sec)
		r.move(200*sec, r.knight()) // 37., late
		r.move(sec, r.knight())
		r.shuffle(4, sec, sec)                // moves 38 to 41
		r.wantClocks(t, "0:00:00", "2:59:19") // 7200 − 41 + 3600
		since := r.seq()
		v, err := r.app.Flag(r.ctx, r.as(RoleArbiter, 2*sec), "white", false)
		r.ok(err)
		r.wantResult(t, "0-1", "time forfeit")
		if !strings.Contains(v.Reason, "with 36 of the 40 moves required completed") {
			t.Errorf("reason %q", v.Reason)
		}
		r.wantClocks(t, "0:00:00", "2:59:19")
		r.wantLog(t, since, `flag "side":"white" & "fell_at":"`+rfcAt(7236*sec)+`"`, `game.end "result":"0-1"`)
	}},
	// 40 moves of 60 s (White 7200 − 2400 + 3600 = 8400 s), three more: 8220 s
	// left; the flag falls 8220 s into move 44, with 43 of 60 made. White
	// then plays on to move 61 (move 60 credits no 30 minutes).
	{"6.3_flag_in_period_2_at_move_44_claimed_after_move_61_loses", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.shuffle(43, 60*sec, sec)
		r.wantClocks(t, "2:17:00", "2:59:17")
		r.move(8300*sec, r.knight()) // 44., late
		r.move(sec, r.knight())
		r.shuffle(17, sec, sec) // moves 45 to 61
		if p := r.game().Clock.Period(clock.White); p != 2 {
			t.Errorf("White's period %d, want 3 (0-based 2)", p+1)
		}
		r.wantClocks(t, "0:00:00", "3:28:59") // 7200 + 3600 + 1800 − 61
		since := r.seq()
		v, err := r.app.Flag(r.ctx, r.as(RoleOperator, sec), "white", false)
		r.ok(err)
		r.wantResult(t, "0-1", "time forfeit")
		if !strings.Contains(v.Reason, "with 43 of the 60 moves required completed") {
			t.Errorf("reason %q", v.Reason)
		}
		r.wantLog(t, since, `flag "side":"white" & "fell_at":"`+rfcAt((43*61+8220)*sec)+`"`, `game.end "result":"0-1"`)
	}},
	// Issue 13, "Why" 2, sudden death 60 s: 1. e4 at +20 (White 40 s left),
	// 1... e5 at +50 (Black 30 s); White's flag falls at +90, he presses late
	// at +95; Black's falls at +125. The first flag decides.
	{"6.8_both_flags_down_in_a_known_order_the_first_flag_decides", func(t *testing.T) {
		r := bothFlagsKnownOrder(t)
		since := r.seq()
		v, err := r.app.Flag(r.ctx, r.as(RoleArbiter, 0), "black", false)
		r.ok(err)
		r.wantResult(t, "0-1", "time forfeit")
		if v.Side != clock.White || !strings.Contains(v.Reason, "Black's flag was claimed, but White's fell first") {
			t.Errorf("verdict %+v", v)
		}
		// the instant the first flag fell is said once in the sentence
		if n := len(regexp.MustCompile(`\d:\d\d:\d\d\.\d{3}`).FindAllString(v.Reason, -1)); n != 1 {
			t.Errorf("the verdict names %d instants, want the first flag's once: %q", n, v.Reason)
		}
		r.wantClocks(t, "0:00:00", "0:00:00")
		r.wantLog(t, since, `flag "side":"white" & "claimed":"black" & "fell_at":"`+rfcAt(90*sec)+`"`, `game.end "result":"0-1"`)
	}},
	{"6.8_claim_of_the_second_flag_by_the_player_whose_flag_fell_first_is_refused", func(t *testing.T) {
		r := bothFlagsKnownOrder(t)
		st := r.app.State().StatusAt(r.now)
		if w, ok := st.Game.Clock.White.Flag.(FlagInfo); !ok || !w.First {
			t.Errorf("status: White's flag %+v, want first", st.Game.Clock.White.Flag)
		}
		if b, ok := st.Game.Clock.Black.Flag.(FlagInfo); !ok || b.First {
			t.Errorf("status: Black's flag %+v, want not first", st.Game.Clock.Black.Flag)
		}
		since := r.seq()
		_, err := r.app.Flag(r.ctx, r.as(RoleWhite, 0), "black", false)
		refused(t, err, CodeOwnFlagFirst)
		r.wantLog(t, since)
		r.wantResult(t, "*", "")
		_, err = r.app.Flag(r.ctx, r.as(RoleOperator, sec), "white", false)
		r.ok(err)
		r.wantResult(t, "0-1", "time forfeit")
		r.wantClocks(t, "0:00:00", "0:00:00")
		r.wantLog(t, since, `flag "side":"white" & "fell_at":"`+rfcAt(90*sec)+`"`, `game.end "result":"0-1"`)
	}},
	// Issue 13, "Why" 3: after 6.11 neither flag can be claimed. Sudden death
	// 60 s: White's flag falls at +60 (1. e4 at +61), Black's at +121.
	{"6.11_both_flags_in_the_last_period_never_claimable_the_game_continues_until_result", func(t *testing.T) {
		r := newRigTC(t, "60")
		r.start()
		r.move(61*sec, "e4")
		r.move(61*sec, "e5")
		since := r.seq()
		_, err := r.app.Flag(r.ctx, r.as(RoleArbiter, 3*sec), "both", true)
		r.ok(err)
		if g := r.game(); g.Over() || r.lastIncident().Rule != "6.11" {
			t.Errorf("game %s %s, incident %+v", g.State, g.Result, r.lastIncident())
		}
		r.wantLog(t, since, `flag "side":"both" & "order_unknown":true & "white_fell_at":"`+rfcAt(60*sec)+`" & "black_fell_at":"`+rfcAt(121*sec)+`"`)
		for _, c := range []struct {
			role Role
			side string
		}{{RoleBlack, "white"}, {RoleWhite, "black"}, {RoleArbiter, "white"}} {
			_, err := r.app.Flag(r.ctx, r.as(c.role, sec), c.side, false)
			refused(t, err, CodeFlagOrderUnknown)
		}
		_, err = r.app.Flag(r.ctx, r.as(RoleArbiter, 0), "both", true)
		refused(t, err, CodeBothFlagsRecorded)
		r.move(10*sec, "Nf3")
		r.move(10*sec, "Nc6")
		_, err = r.app.Flag(r.ctx, r.as(RoleBlack, sec), "white", false)
		refused(t, err, CodeFlagOrderUnknown)
		r.wantClocks(t, "0:00:00", "0:00:00")
		r.wantResult(t, "*", "")
		since = r.seq()
		r.ok(r.app.Result(r.ctx, r.as(RoleArbiter, sec), "1/2-1/2", "both flags fell, order unknown (6.11); the arbiter decides"))
		r.wantResult(t, "1/2-1/2", "arbiter decision")
		r.wantLog(t, since, `game.end "result":"1/2-1/2" & "termination":"arbiter decision"`)
	}},
	// acm1996: 1. Nf3 at exactly +2h (late: White's flag at +2h), 1... Nf6
	// after 2h 1m (Black's flag at +4h). After 6.11 each side's move 40
	// credits the hour as usual; White's later flag, 3600 s into move 41,
	// counts.
	{"6.11_in_a_period_with_a_move_count_the_next_period_is_credited_and_later_flags_count", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(2*time.Hour, "Nf3")
		r.move(2*time.Hour+m, "Nf6")
		_, err := r.app.Flag(r.ctx, r.as(RoleArbiter, m), "both", true)
		r.ok(err)
		r.shuffle(39, sec, sec)
		r.wantClocks(t, "1:00:00", "1:00:00")
		if r.game().Clock.Flag(clock.White, r.now).Fallen {
			t.Error("White's 6.11 flag is still down after the hour was credited")
		}
		_, err = r.app.Flag(r.ctx, r.as(RoleBlack, 0), "white", false)
		refused(t, err, CodeFlagNotFallen)
		r.move(time.Hour+sec, r.knight()) // 41., late: flag at 3600 s into it
		fell := r.now.Add(-sec)
		r.move(sec, r.knight())
		since := r.seq()
		v, err := r.app.Flag(r.ctx, r.as(RoleOperator, sec), "white", false)
		r.ok(err)
		r.wantResult(t, "0-1", "time forfeit")
		if !strings.Contains(v.Reason, "with 40 of the 60 moves required completed") {
			t.Errorf("reason %q", v.Reason)
		}
		r.wantClocks(t, "0:00:00", "0:59:59")
		r.wantLog(t, since, `flag "side":"white" & "fell_at":"`+fell.UTC().Format(time.RFC3339Nano)+`"`, `game.end "result":"0-1"`)
	}},
	{"6.11_accepted_whenever_both_flags_are_down_even_in_a_known_order", func(t *testing.T) {
		r := bothFlagsKnownOrder(t)
		since := r.seq()
		_, err := r.app.Flag(r.ctx, r.as(RoleArbiter, 0), "both", true)
		r.ok(err)
		r.wantLog(t, since, `flag "side":"both" & "white_fell_at":"`+rfcAt(90*sec)+`" & "black_fell_at":"`+rfcAt(125*sec)+`"`)
		_, err = r.app.Flag(r.ctx, r.as(RoleBlack, sec), "white", false)
		refused(t, err, CodeFlagOrderUnknown)
		r.wantResult(t, "*", "")
		r.wantClocks(t, "0:00:00", "0:00:00")
	}},
	// Articles 5.1–5.3 before the claim: Black's flag falls at +62 (1. f3 at
	// +1, 1... e5 at +2, 2. g4 at +3), then 2... Qh4# at +70 mates. The mate
	// stands; a later claim of Black's flag is refused.
	{"6.8_a_game_ended_by_mate_before_the_claim_stands", func(t *testing.T) {
		r := newRigTC(t, "60")
		r.start()
		r.move(sec, "f3")
		r.move(sec, "e5")
		r.move(sec, "g4")
		r.move(67*sec, "Qh4#")
		r.wantResult(t, "0-1", "checkmate")
		since := r.seq()
		_, err := r.app.Flag(r.ctx, r.as(RoleWhite, sec), "black", false)
		refused(t, err, CodeGameOver)
		r.wantLog(t, since)
		r.wantResult(t, "0-1", "checkmate")
		r.wantClocks(t, "0:00:58", "0:00:00")
	}},
	// Rule 7 with 6.12a: the arbiter may stop the clocks on the computer's
	// turn, but not for a technical fault.
	{"rule_7_6.12a_pause_for_a_fault_refused_on_the_computers_turn", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(m, "e4") // Deep Blue's clock runs from +60 s
		since := r.seq()
		refused(t, r.app.PauseFor(r.ctx, r.as(RoleArbiter, 30*sec), Pause{Cause: CauseFault, Reason: "Deep Blue does not answer"}), CodeNoPauseForFault)
		refused(t, r.app.PauseFor(r.ctx, r.as(RoleArbiter, 0), Pause{Cause: "boredom"}), CodeNotAPauseCause)
		r.wantLog(t, since)
		r.ok(r.app.PauseFor(r.ctx, r.as(RoleArbiter, 0), Pause{Cause: CauseUnplayable, Reason: "the hall is evacuated"}))
		if g := r.game(); g.State != Paused || g.Paused.Cause != CauseUnplayable || !strings.Contains(r.lastIncident().Text, "cause: the game cannot be played") {
			t.Errorf("paused %s, cause %q, incident %q", g.State, g.Paused.Cause, r.lastIncident().Text)
		}
		r.wantClocks(t, "1:59:00", "1:59:30")
		r.wantLog(t, since, `pause "side":"black" & "cause":"unplayable"`)
		r.ok(r.app.Resume(r.ctx, r.as(RoleArbiter, 10*m)))
		r.move(30*sec, "e5")
		// on the human's turn the arbiter may stop the clocks for a fault
		r.ok(r.app.PauseFor(r.ctx, r.as(RoleArbiter, 10*sec), Pause{Cause: CauseFault, Reason: "the board's sensor failed"}))
		r.wantClocks(t, "1:58:50", "1:59:00")
		// the default cause is other: today's scripts keep working
		r.ok(r.app.Resume(r.ctx, r.as(RoleArbiter, m)))
		since = r.seq()
		r.ok(r.app.Pause(r.ctx, r.as(RoleArbiter, sec), "noise", false))
		r.wantLog(t, since, `pause "cause":"other"`)
	}},
	// [%emt] is the running time of the mover's turn up to the press, delay
	// included, stopped time excluded: a 3 s move under 7200d5 costs nothing
	// ([%clk 2:00:00]) but took 3 s; a move of 70 s with a 10 s pause in it
	// took 60 s of running time, 55 s charged.
	{"6.2_emt_is_the_running_time_delay_included_pause_excluded", func(t *testing.T) {
		r := newRigTC(t, "7200d5")
		r.start()
		r.move(3*sec, "e4")
		r.ok(r.app.Pause(r.ctx, r.as(RoleArbiter, 20*sec), "noise", false))
		r.ok(r.app.Resume(r.ctx, r.as(RoleArbiter, 10*sec)))
		r.move(40*sec, "e5")
		r.wantClocks(t, "2:00:00", "1:59:05")
		pgn := r.game().Sheet.PGN(nil, "*")
		for i, want := range []string{"[%clk 2:00:00] [%emt 0:00:03]", "[%clk 1:59:05] [%emt 0:01:00]"} {
			if got := pgn.Moves[i].Comment; got != want {
				t.Errorf("ply %d comment %q, want %q", i+1, got, want)
			}
		}
		if e := r.game().Sheet.Entries()[1]; e.Used != 55*sec || e.Elapsed != 60*sec {
			t.Errorf("1... e5: used %v, elapsed %v; want 55s charged and 60s running", e.Used, e.Elapsed)
		}
		r.replayed()
	}},
	// A game from a position: Black to move at move 45 under acm1996. White
	// has completed 45 moves, Black 44; both are in period 2 (moves 41–60).
	{"6.13_game_starts_from_a_position_its_move_number_sets_the_counters_and_the_period", func(t *testing.T) {
		r := newRig(t)
		r.now = rigStart
		ten, twenty := 10*m, 20*m
		const fen = "8/8/4k3/8/8/8/4P3/4K2R b K - 3 45"
		since := r.seq()
		r.ok(r.app.StartGameFrom(r.ctx, r.as(RoleArbiter, 0), 0, StartPosition{FEN: fen, White: &ten, Black: &twenty}))
		r.wantLog(t, since, `game.start "fen":"`+fen+`" & "white_ns":600000000000 & "black_ns":1200000000000`)
		g := r.game()
		if s, ok := g.Clock.Running(); !ok || s != clock.Black {
			t.Error("Black is to move: Black's clock must run")
		}
		for _, x := range []struct {
			s            clock.Side
			moves, toCtl int
		}{{clock.White, 45, 15}, {clock.Black, 44, 16}} {
			n, _ := g.Clock.MovesToControl(x.s)
			if g.Clock.Moves(x.s) != x.moves || g.Clock.Period(x.s) != 1 || n != x.toCtl {
				t.Errorf("%s: %d moves, period %d, %d to the control; want %d, 2, %d", Colour(x.s), g.Clock.Moves(x.s), g.Clock.Period(x.s)+1, n, x.moves, x.toCtl)
			}
		}
		r.move(m, "Kd5")
		r.move(m, "Rh5+")
		r.wantClocks(t, "0:09:00", "0:19:00")
		pgn := g.Sheet.PGN(nil, "*")
		if pgn.StartFEN != fen || r.game().Sheet.Entries()[0].Label() != "45... Kd5" {
			t.Errorf("PGN from %q, first move %s", pgn.StartFEN, r.game().Sheet.Entries()[0].Label())
		}
		// 6.3 counts the moves of the position: White's flag falls in move 47
		// with 46 of 60; Black has only the king, so 6.9 makes it a draw
		r.move(m, "Kc4")
		r.move(10*m, "Rh4+")
		v, err := r.app.Flag(r.ctx, r.as(RoleOperator, 0), "white", false)
		r.ok(err)
		if !strings.Contains(v.Reason, "with 46 of the 60 moves required completed") || v.Result != "1/2-1/2" {
			t.Errorf("verdict %+v", v)
		}
		r.replayed()
	}},
	// Rule 10 / 6.13 in a game from a position (White to move at move 30,
	// acm1996, clocks 0:20:00 and 0:30:00): White 1 min a move, Black 2 min;
	// ply 3 (31. Qd4) is found wrong after ply 6. Before ply 3 each side has
	// made 30 moves (29 before the position, one in it); record: White
	// 0:20:00 − the 2 min used to ply 3 = 0:18:00, Black 0:30:00 − 2 min.
	{"6.13_a_reset_in_a_game_from_a_position_counts_the_moves_before_it", func(t *testing.T) {
		r := newRig(t)
		r.now = rigStart
		w, b := 20*m, 30*m
		r.ok(r.app.StartGameFrom(r.ctx, r.as(RoleArbiter, 0), 0, StartPosition{FEN: "4k3/8/8/8/8/8/3QP3/4K3 w - - 0 30", White: &w, Black: &b}))
		for _, mv := range []string{"Qd3", "Kf7", "Qd4", "Kg6", "Qd5", "Kh6"} {
			d := m
			if r.game().ToMove() == clock.Black {
				d = 2 * m
			}
			r.move(d, mv)
		}
		res, err := r.app.Correct(r.ctx, r.as(RoleArbiter, 10*sec), Correct{Ply: 3, Method: MethodRecord, Cause: CauseIrregularity, Reason: "the queen stood on d4, not d3"})
		r.ok(err)
		if res.Bonus != 0 {
			t.Errorf("an irregularity gives no bonus: %v", res.Bonus)
		}
		g := r.game()
		for _, x := range []struct {
			s     clock.Side
			moves int
			want  string
		}{{clock.White, 30, "0:18:00"}, {clock.Black, 30, "0:28:00"}} {
			if g.Clock.Moves(x.s) != x.moves || clock.FormatReading(g.Clock.Remaining(x.s, r.now)) != x.want {
				t.Errorf("%s after the reset: %d moves, %s; want %d, %s", Colour(x.s), g.Clock.Moves(x.s), clock.FormatReading(g.Clock.Remaining(x.s, r.now)), x.moves, x.want)
			}
		}
	}},
	{"6.13_game_from_a_position_without_clocks_gets_the_controls_time_for_its_period", func(t *testing.T) {
		r := newRig(t)
		r.now = rigStart
		r.ok(r.app.StartGameFrom(r.ctx, r.as(RoleArbiter, 0), 0, StartPosition{FEN: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 61"}))
		r.wantClocks(t, "0:30:00", "0:30:00")
		err := r.app.StartGameFrom(r.ctx, r.as(RoleArbiter, 0), 0, StartPosition{FEN: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 61"})
		refused(t, err, CodeGameInProgress)
	}},
	{"rule_1_a_control_for_someone_who_is_not_a_player_is_refused_first", func(t *testing.T) {
		app, _, _ := openTestApp(t, "tc.db")
		cmd := Cmd{At: rigStart, Actor: Actor{Role: RoleArbiter}}
		spec := MatchNew{Title: "T", Players: [2]string{kasparov, deepBlue}, Controls: map[string]string{"Nobody": "bad"}}
		refused(t, app.NewMatch(context.Background(), cmd, spec), CodeControlNotAPlayer)
		spec.Controls = map[string]string{deepBlue: "classical"}
		refused(t, app.NewMatch(context.Background(), cmd, spec), CodeBadTimeControl, `"classical" is not a preset`)
		spec.Controls = map[string]string{deepBlue: "40/banana"}
		refused(t, app.NewMatch(context.Background(), cmd, spec), CodeBadTimeControl, "40/banana")
	}},
}

// bothFlagsKnownOrder is the sudden-death game of issue 13, "Why" 2, at +130 s.
func bothFlagsKnownOrder(t *testing.T) *rig {
	r := newRigTC(t, "60")
	r.start()
	r.move(20*sec, "e4")
	r.move(30*sec, "e5")
	r.move(45*sec, "Nf3") // at +95, late: White's flag fell at +90
	r.now = r.now.Add(35 * sec)
	g := r.game()
	if w, b := g.Clock.Flag(clock.White, r.now), g.Clock.Flag(clock.Black, r.now); !w.At.Equal(rigStart.Add(90*sec)) || !b.At.Equal(rigStart.Add(125*sec)) {
		t.Fatalf("flags at %v and %v, want +90s and +125s", w.At, b.At)
	}
	return r
}

// incidentAt reports whether an incident of kind shows instant at and text.
func incidentAt(incs []Incident, kind string, at time.Time, text string) bool {
	for _, in := range incs {
		if in.Kind == kind && in.At.Equal(at) && strings.Contains(in.Text, text) {
			return true
		}
	}
	return false
}
