package match

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/clock"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

const m = time.Minute

// bareKingGame is a legal game after which Black has only the king and
// White, to move, still has the queen (found by a random helpmate search).
var bareKingGame = strings.Fields("e2e4 b8a6 f1a6 h7h6 a6b7 c7c5 b7a8 c8b7 a8b7 d7d5 b7d5 d8b8 d5f7 e8d7 f7g8 c5c4 " +
	"g8c4 b8b3 c2b3 h6h5 d1h5 h8h7 h5h7 g7g5 h7e7 d7c6 e7g5 a7a6 c4a6 f8g7 g5g7 c6b6")

// TestRules checks every rule of the match regulations (rules 1–20) and of
// FIDE Article 6 that the product enforces; docs/rules.md names each
// subtest. Rules 15, 18 and 6.4 need no software (see docs/rules.md).
func TestRules(t *testing.T) {
	t.Run("rule_1_rate_of_play_40_20_30", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.shuffle(60, m, m)
		g := r.game()
		if got, want := r.remaining(clock.White), hms("2:30:00"); got != want {
			t.Errorf("White after 60 moves of 1 minute: %s, want 2h + 1h + 30m − 60m = %s", clock.FormatReading(got), clock.FormatReading(want))
		}
		if p := g.Clock.Period(clock.White) + 1; p != 3 {
			t.Errorf("White's period after 60 moves = %d, want 3", p)
		}
		if _, ok := g.Clock.MovesToControl(clock.White); ok {
			t.Error("the third period is for all remaining moves: no move count to a control")
		}
	})

	t.Run("rule_2_clock_replaced_then_adjusted", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.shuffle(2, m, m)
		_, err := r.app.Incident(r.ctx, r.as(RoleArbiter, m), "clock-replaced", IncidentArgs{Text: "display of the DGT clock failed; replaced by a clock of another type"})
		r.ok(err)
		if inc := r.lastIncident(); inc.Rule != "rule 2, 6.10" {
			t.Errorf("clock-replaced rule = %q", inc.Rule)
		}
		r.ok(r.app.Adjust(r.ctx, r.as(RoleArbiter, 0), clock.White, Adjustment{Set: true, D: hms("1:55:00")}, "set the replacement clock from the old one"))
		if got := r.remaining(clock.White); got != hms("1:55:00") {
			t.Errorf("White after adjust = %s", clock.FormatReading(got))
		}
		_, err = r.app.Incident(r.ctx, r.as(RoleOperator, 0), "clock-replaced", IncidentArgs{Text: "x"})
		refused(t, err, CodeWrongRole)
	})

	t.Run("rule_3_colours_alternate_after_forfeit_and_postponement", func(t *testing.T) {
		r := newRig(t)
		r.ok(r.app.ScheduleGame(r.ctx, r.as(RoleArbiter, 0), 1, rigStart))
		r.now = rigStart.Add(61 * m)
		r.ok(r.app.Forfeit(r.ctx, r.as(RoleArbiter, 0), clock.White, "did not come"))
		r.ok(r.app.PostponeGame(r.ctx, r.as(RoleArbiter, m), 2, "illness"))
		st := r.app.State()
		for n, want := range map[int]string{1: kasparov, 2: deepBlue, 3: kasparov, 4: deepBlue} {
			if got := st.Game(n).White; got != want {
				t.Errorf("game %d White = %s, want %s", n, got, want)
			}
		}
		r.ok(r.app.StartGame(r.ctx, r.as(RoleArbiter, m), 0))
		if g := r.game(); g.Number != 3 || g.White != kasparov {
			t.Errorf("after a postponement the next game started is %d with White %s, want 3 with %s", g.Number, g.White, kasparov)
		}
	})

	t.Run("rule_4_operator_replaced_not_on_humans_turn", func(t *testing.T) {
		r := newRig(t)
		r.start()
		_, err := r.app.Incident(r.ctx, r.as(RoleOperator, m), "operator-replaced", IncidentArgs{Text: "shift change", Name: "Joe Hoane"})
		refused(t, err, CodeHumansTurn, "rule 4")
		r.move(0, "e4")
		_, err = r.app.Incident(r.ctx, r.as(RoleOperator, m), "operator-replaced", IncidentArgs{Text: "shift change"})
		refused(t, err, CodeNeedName)
		_, err = r.app.Incident(r.ctx, r.as(RoleOperator, 0), "operator-replaced", IncidentArgs{Text: "shift change", Name: "Joe Hoane"})
		r.ok(err)
		if _, err := r.app.Move(r.ctx, r.as(RoleOperator, m), "e5", false); err != nil {
			t.Fatal(err)
		}
		evs, err := r.db.EventsAfter(r.ctx, 0)
		r.ok(err)
		if last := evs[len(evs)-1]; last.Actor != "Joe Hoane" || last.Role != "operator" {
			t.Errorf("the move after the replacement was recorded by %s (%s), want Joe Hoane (operator)", last.Actor, last.Role)
		}
	})

	t.Run("rule_5_6.7c_conduct_logged_by_the_arbiter", func(t *testing.T) {
		r := newRig(t)
		r.start()
		_, err := r.app.Incident(r.ctx, r.as(RoleArbiter, m), "conduct", IncidentArgs{Text: "the operator left the table during Kasparov's turn"})
		r.ok(err)
		if inc := r.lastIncident(); inc.Kind != "conduct" || inc.Rule != "rule 5, 6.7c" {
			t.Errorf("incident %s %q", inc.Kind, inc.Rule)
		}
		_, err = r.app.Incident(r.ctx, r.as(RoleWhite, 0), "conduct", IncidentArgs{Text: "x"})
		refused(t, err, CodeWrongRole)
	})

	t.Run("rule_6_operator_communication_refused_on_humans_turn", func(t *testing.T) {
		r := newRig(t)
		r.start()
		_, err := r.app.Incident(r.ctx, r.as(RoleOperator, m), "operator-communication", IncidentArgs{Text: "phones the team"})
		refused(t, err, CodeHumansTurn, "rule 6")
		r.move(0, "e4")
		_, err = r.app.Incident(r.ctx, r.as(RoleOperator, m), "operator-communication", IncidentArgs{Text: "phones the team"})
		r.ok(err)
	})

	t.Run("rule_7_computers_clock_keeps_running_except_power_failure", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(m, "e4")
		_, err := r.app.Incident(r.ctx, r.as(RoleOperator, m), "technical-fault", IncidentArgs{Text: "Deep Blue does not accept the move"})
		r.ok(err)
		if s, ok := r.game().Clock.Running(); !ok || s != clock.Black {
			t.Fatal("a technical fault stopped the computer's clock")
		}
		refused(t, r.app.Pause(r.ctx, r.as(RoleOperator, 0), "fault", true), CodeComputersClockRuns)
		_, err = r.app.Incident(r.ctx, r.as(RoleOperator, 0), "power-failure", IncidentArgs{Text: "lights out"})
		refused(t, err, CodeWrongRole)
		_, err = r.app.Incident(r.ctx, r.as(RoleArbiter, 0), "power-failure", IncidentArgs{Text: "lights out"})
		r.ok(err)
		if _, ok := r.game().Clock.Running(); ok || r.game().State != Paused {
			t.Error("a power failure must stop the clocks")
		}
	})

	t.Run("rule_8_operator_relays_moves_and_draw_answers_for_the_computer_only", func(t *testing.T) {
		r := newRig(t)
		r.start()
		_, err := r.app.Move(r.ctx, r.as(RoleOperator, m), "e4", false)
		refused(t, err, CodeOperatorOnlyForComputer)
		r.ok(r.app.DrawOffer(r.ctx, r.as(RoleWhite, 0), nil))
		r.move(0, "e4")
		r.ok(r.app.DrawAnswer(r.ctx, r.as(RoleOperator, m), false))
		inc := r.lastIncident()
		if inc.Role != RoleOperator || inc.Actor != "Feng-hsiung Hsu" || !strings.Contains(inc.Text, deepBlue+" declines") {
			t.Errorf("decline logged as %q by %s (%s)", inc.Text, inc.Actor, inc.Role)
		}
	})

	t.Run("rule_9_operator_makes_the_computers_move_and_presses", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(m, "e4")
		r.ok(r.app.Press(r.ctx, r.as(RoleOperator, 2*m)))
		_, err := r.app.Move(r.ctx, r.as(RoleOperator, 10*time.Second), "c5", true)
		r.ok(err)
		g := r.game()
		e := g.Sheet.Entries()[1]
		if e.Used != 2*m || !e.At.Equal(rigStart.Add(3*m)) {
			t.Errorf("the computer's move took %s at %s; want 2m at the press", e.Used, e.At)
		}
		if s, _ := g.Clock.Running(); s != clock.White {
			t.Error("after the operator's press White's clock must run")
		}
	})

	for _, tc := range operatorErrorCases {
		t.Run("rule_10_operator_error_found_ten_moves_later_"+tc.method, func(t *testing.T) { checkOperatorError(t, tc) })
	}
	t.Run("rule_10_operator_error_proportional_discovered_in_a_later_period", testProportionalLaterPeriod)
	t.Run("rule_10_operator_error_proportional_refused_when_negative", testProportionalRefusedWhenNegative)
	t.Run("rule_10_operator_error_proportional_counts_a_relayed_move_as_made_before_the_error", testProportionalCountsTheRelayedMoveAsMade)
	t.Run("rule_10_operator_error_record_across_the_move_40_credit", testRecordAcrossMoveForty)
	t.Run("rule_10_operator_error_record_charges_the_mistaken_moves_own_time_to_its_side", testRecordChargesTheMistakenMovesOwnTime)
	t.Run("rule_10_preview_shows_the_four_methods", testPreviewShowsAllFour)
	t.Run("rule_10_correct_refusals", testCorrectRefusals)

	t.Run("rule_11_time_info_only_on_computers_turn", func(t *testing.T) {
		r := newRig(t)
		r.start()
		_, err := r.app.Incident(r.ctx, r.as(RoleOperator, m), "time-info", IncidentArgs{Text: "told Deep Blue the clocks"})
		refused(t, err, CodeTimeInfoOnComputersTurn)
		r.move(2*m, "e4")
		_, err = r.app.Incident(r.ctx, r.as(RoleOperator, 30*time.Second), "time-info", IncidentArgs{Text: "told Deep Blue the clocks"})
		r.ok(err)
		if inc := r.lastIncident(); inc.Effect != "told: White 1:57:00, Black 1:59:30" {
			t.Errorf("time-info recorded %q", inc.Effect)
		}
	})

	t.Run("rule_12_setup_card_refused_on_humans_turn", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(m, "e4")
		r.move(m, "c5")
		_, err := r.app.Incident(r.ctx, r.as(RoleOperator, m), "setup", IncidentArgs{Text: "re-enter the position"})
		refused(t, err, CodeHumansTurn, "rule 12")
		r.move(0, "Nf3")
		card, err := r.app.Incident(r.ctx, r.as(RoleOperator, m), "setup", IncidentArgs{Text: "Deep Blue restarted"})
		r.ok(err)
		golden(t, "setup_card.golden", card)
	})

	t.Run("rule_13_in_hall_maintenance_gives_the_human_5_minutes", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(3*m, "e4")
		before := r.remaining(clock.White)
		_, err := r.app.Incident(r.ctx, r.as(RoleOperator, m), "maintenance", IncidentArgs{Text: "replace a node board", InHall: true})
		r.ok(err)
		if got := r.remaining(clock.White); got != before+5*m {
			t.Errorf("Kasparov after in-hall maintenance: %s, want %s", clock.FormatReading(got), clock.FormatReading(before+5*m))
		}
		if inc := r.lastIncident(); inc.Kind != "adjust" || inc.Rule != "rule 13" {
			t.Errorf("the bonus is logged as %s %q, want an adjust under rule 13", inc.Kind, inc.Rule)
		}
		_, err = r.app.Incident(r.ctx, r.as(RoleOperator, m), "maintenance", IncidentArgs{Text: "restart from the control room", Remote: true})
		r.ok(err)
		if got := r.remaining(clock.White); got != before+5*m {
			t.Error("remote maintenance must give no bonus")
		}
		_, err = r.app.Incident(r.ctx, r.as(RoleOperator, 0), "maintenance", IncidentArgs{Text: "where?"})
		refused(t, err, CodeSayWhere)
	})

	t.Run("rule_13_maintenance_refused_on_humans_turn", func(t *testing.T) {
		r := newRig(t)
		r.start()
		for _, kind := range []string{"maintenance", "replacement"} {
			_, err := r.app.Incident(r.ctx, r.as(RoleOperator, m), kind, IncidentArgs{Text: "swap a node", InHall: true})
			refused(t, err, CodeHumansTurn, "rule 13")
		}
		if got := r.remaining(clock.White); got != hms("1:58:00") {
			t.Errorf("a refused maintenance changed the clock: %s", clock.FormatReading(got))
		}
	})

	t.Run("rule_14_operator_resigns_and_offers_only_for_the_computer", func(t *testing.T) {
		r := newRig(t)
		r.start()
		refused(t, r.app.Resign(r.ctx, r.as(RoleOperator, m), clock.White), CodeOperatorOnlyForComputer)
		w := clock.White
		refused(t, r.app.DrawOffer(r.ctx, r.as(RoleOperator, 0), &w), CodeOperatorOnlyForComputer)
		r.ok(r.app.Resign(r.ctx, r.as(RoleOperator, 0), clock.Black))
		if g := r.game(); g.Result != "1-0" || g.Termination != "resignation" {
			t.Errorf("result %s (%s)", g.Result, g.Termination)
		}
	})

	t.Run("rule_16_ruling_logged_and_results_only_by_the_arbiter", func(t *testing.T) {
		r := newRig(t)
		r.start()
		_, err := r.app.Incident(r.ctx, r.as(RoleArbiter, m), "ruling", IncidentArgs{Text: "touch-move does not apply to the operator"})
		r.ok(err)
		refused(t, r.app.Result(r.ctx, r.as(RoleOperator, 0), "0-1", "x"), CodeWrongRole)
	})

	t.Run("rule_17_arbiter_replaced", func(t *testing.T) {
		r := newRig(t)
		_, err := r.app.Incident(r.ctx, r.as(RoleArbiter, m), "arbiter-replaced", IncidentArgs{Text: "unwell"})
		refused(t, err, CodeNeedName)
		_, err = r.app.Incident(r.ctx, r.as(RoleArbiter, 0), "arbiter-replaced", IncidentArgs{Text: "unwell", Name: "Carol Jarecki"})
		r.ok(err)
		if got := r.app.State().Match.Arbiter; got != "Carol Jarecki" {
			t.Errorf("arbiter = %q", got)
		}
		r.start()
		evs, err := r.db.EventsAfter(r.ctx, 0)
		r.ok(err)
		if last := evs[len(evs)-1]; last.Actor != "Carol Jarecki" {
			t.Errorf("game start recorded by %q", last.Actor)
		}
	})

	t.Run("rule_19_appeal_refers_a_ruling_and_its_decision_changes_the_result", func(t *testing.T) {
		r := newRig(t)
		r.start()
		_, err := r.app.Incident(r.ctx, r.as(RoleArbiter, m), "ruling", IncidentArgs{Text: "Kasparov's flag fell first"})
		r.ok(err)
		ruling := r.lastIncident().Seq
		r.ok(r.app.Result(r.ctx, r.as(RoleArbiter, 0), "0-1", "flag"))
		_, err = r.app.Incident(r.ctx, r.as(RoleWhite, m), "appeal", IncidentArgs{Text: "the clock was defective", Refers: 1})
		refused(t, err, CodeNotARuling)
		_, err = r.app.Incident(r.ctx, r.as(RoleWhite, 0), "appeal", IncidentArgs{Text: "the clock was defective", Refers: ruling})
		r.ok(err)
		appeal := r.lastIncident().Seq
		_, err = r.app.Incident(r.ctx, r.as(RoleArbiter, m), "appeal-decision", IncidentArgs{Text: "upheld", Refers: appeal, Result: "1/2-1/2"})
		r.ok(err)
		if g := r.app.State().Game(1); g.Result != "1/2-1/2" {
			t.Errorf("result after the appeal decision = %s", g.Result)
		}
		_, err = r.app.Incident(r.ctx, r.as(RoleArbiter, m), "appeal-decision", IncidentArgs{Text: "again", Refers: appeal})
		refused(t, err, CodeAppealDecided)
		if st := r.replayed(); st.Game(1).Result != "1/2-1/2" {
			t.Error("the changed result does not survive a replay")
		}
	})

	t.Run("rule_20_irregularity_reported", func(t *testing.T) {
		r := newRig(t)
		r.start()
		_, err := r.app.Incident(r.ctx, r.as(RoleArbiter, m), "irregularity", IncidentArgs{Text: "a spectator signalled; reported to IBM and Kasparov"})
		r.ok(err)
		if inc := r.lastIncident(); inc.Rule != "rule 20" {
			t.Errorf("rule %q", inc.Rule)
		}
	})

	t.Run("6.1_only_one_clock_runs", func(t *testing.T) {
		r := newRig(t)
		r.start()
		for i, mv := range []string{"e4", "e5", "Nf3"} {
			want := clock.Side(1 - i%2)
			r.move(m, mv)
			if s, ok := r.game().Clock.Running(); !ok || s != want {
				t.Errorf("after %s the running clock is %v, want %v", mv, s, want)
			}
		}
	})

	t.Run("6.2_saved_time_carried_forward", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.shuffle(40, 2*m, m)
		if got, want := r.remaining(clock.White), hms("1:40:00"); got != want {
			t.Errorf("White after 40 moves in 80 minutes = %s, want 40 saved + 60 = %s", clock.FormatReading(got), clock.FormatReading(want))
		}
	})

	t.Run("6.3_required_moves_counted_from_the_scoresheet", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.shuffle(40, m, m)
		one, forty := 1, 39
		r.ok(r.app.Adjust(r.ctx, r.as(RoleArbiter, 0), clock.White, Adjustment{Set: true, D: 10 * time.Second, Moves: &forty, Period: &one}, "the clock missed a press"))
		r.now = r.now.Add(11 * time.Second)
		v, err := r.app.Flag(r.ctx, r.as(RoleArbiter, 0), "white", false)
		r.ok(err)
		if v.Result != "" || !strings.Contains(v.Reason, "no loss on time") || r.game().Over() {
			t.Errorf("with 40 moves on the scoresheet the flag must not lose: %+v", v)
		}
	})

	t.Run("6.5_white_clock_starts_at_the_scheduled_start", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.now = r.now.Add(20 * m)
		if got := r.remaining(clock.White); got != hms("1:40:00") {
			t.Errorf("absent White's clock after 20 minutes: %s", clock.FormatReading(got))
		}
	})

	t.Run("6.6_forfeit_after_an_hour_absent", func(t *testing.T) {
		r := newRig(t)
		r.ok(r.app.ScheduleGame(r.ctx, r.as(RoleArbiter, 0), 1, rigStart))
		r.start()
		err := r.app.Forfeit(r.ctx, r.as(RoleArbiter, 59*m), clock.White, "absent")
		refused(t, err, CodeForfeitTooEarly, "0:01:00")
		r.ok(r.app.Forfeit(r.ctx, r.as(RoleArbiter, m+time.Second), clock.White, "absent"))
		g := r.app.State().Game(1)
		if g.Result != "0-1" || g.State != Forfeited || g.Termination != "forfeit" {
			t.Errorf("game 1: %s %s %s", g.Result, g.State, g.Termination)
		}
		// Game 2 is defaulted before it starts.
		r.ok(r.app.ScheduleGame(r.ctx, r.as(RoleArbiter, m), 2, rigStart.Add(24*time.Hour)))
		r.now = rigStart.Add(25*time.Hour + time.Second)
		r.ok(r.app.Forfeit(r.ctx, r.as(RoleArbiter, 0), clock.Black, "did not come"))
		if g := r.app.State().Game(2); g.Result != "1-0" || g.Black != kasparov {
			t.Errorf("game 2: %s, Black %s", g.Result, g.Black)
		}
	})

	t.Run("6.6_no_forfeit_once_the_player_has_moved", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(65*m, "e4")
		refused(t, r.app.Forfeit(r.ctx, r.as(RoleArbiter, m), clock.White, "late"), CodePlayerHasMoved, "Garry Kasparov")
	})

	t.Run("6.7a_the_move_is_complete_at_the_press", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.ok(r.app.Press(r.ctx, r.as(RoleWhite, 4*m)))
		_, err := r.app.Move(r.ctx, r.as(RoleArbiter, 30*time.Second), "e4", true)
		r.ok(err)
		if e := r.game().Sheet.Entries()[0]; e.Used != 4*m {
			t.Errorf("the move took %s, want 4m (until the press)", e.Used)
		}
	})

	t.Run("6.8_flag_claim_refused_before_time_runs_out", func(t *testing.T) {
		r := newRig(t)
		r.start()
		_, err := r.app.Flag(r.ctx, r.as(RoleBlack, time.Hour), "white", false)
		refused(t, err, CodeFlagNotFallen)
	})

	t.Run("6.9_flag_in_period_1_loses", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.shuffle(10, m, m)
		r.now = r.now.Add(110*m + time.Second)
		v, err := r.app.Flag(r.ctx, r.as(RoleBlack, 0), "white", false)
		r.ok(err)
		if v.Result != "0-1" || r.game().Termination != "time forfeit" {
			t.Errorf("verdict %+v, game %s", v, r.game().Result)
		}
	})

	t.Run("6.9_flag_against_a_bare_king_draws", func(t *testing.T) {
		r := newRig(t)
		r.start()
		for _, mv := range bareKingGame {
			r.move(10*time.Second, mv)
		}
		r.now = r.now.Add(2 * time.Hour)
		v, err := r.app.Flag(r.ctx, r.as(RoleArbiter, 0), "white", false)
		r.ok(err)
		if v.Result != "1/2-1/2" || !strings.Contains(v.Reason, "only the king") {
			t.Errorf("verdict %+v", v)
		}
	})

	t.Run("6.9_flag_loss_carries_the_helpmate_as_proof", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.shuffle(10, m, m)
		r.now = r.now.Add(110*m + time.Second)
		v, err := r.app.Flag(r.ctx, r.as(RoleBlack, 0), "white", false)
		r.ok(err)
		if v.Result != "0-1" || !strings.Contains(v.Reason, "can still checkmate, e.g.") || strings.Contains(v.Reason, "material") {
			t.Errorf("verdict %+v: want the helpmate as the proof, never the material test", v)
		}
		incs := r.game().Incidents
		if inc := incs[len(incs)-2]; inc.Kind != "flag" || !strings.Contains(inc.Text, "e.g.") {
			t.Errorf("the flag event does not carry the proof: %+v", inc)
		}
	})

	t.Run("rule_19_appeal_refers_the_flag_verdict_and_its_decision_changes_the_result", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.shuffle(10, m, m)
		r.now = r.now.Add(110*m + time.Second)
		_, err := r.app.Flag(r.ctx, r.as(RoleBlack, 0), "white", false)
		r.ok(err)
		incs := r.game().Incidents
		flag, end := incs[len(incs)-2], incs[len(incs)-1]
		if flag.Kind != "flag" || end.Seq != flag.Seq+1 {
			t.Fatalf("the flag and its game end are not the last two incidents: %+v %+v", flag, end)
		}
		for _, refers := range []int64{flag.Seq, end.Seq} {
			_, err = r.app.Incident(r.ctx, r.as(RoleWhite, 0), "appeal", IncidentArgs{Text: "the flag verdict is wrong", Refers: refers})
			r.ok(err)
		}
		appeal := r.lastIncident().Seq
		_, err = r.app.Incident(r.ctx, r.as(RoleArbiter, m), "appeal-decision", IncidentArgs{Text: "upheld", Refers: appeal, Result: "1/2-1/2"})
		r.ok(err)
		if g := r.app.State().Game(1); g.Result != "1/2-1/2" {
			t.Errorf("result after the appeal decision = %s", g.Result)
		}
		if st := r.replayed(); st.Game(1).Result != "1/2-1/2" {
			t.Error("the changed result does not survive a replay")
		}
	})

	t.Run("6.10_defective_clock_replaced_and_set_by_the_arbiter", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(m, "e4")
		_, err := r.app.Incident(r.ctx, r.as(RoleArbiter, m), "clock-replaced", IncidentArgs{Text: "evident defect: display blank"})
		r.ok(err)
		r.ok(r.app.Adjust(r.ctx, r.as(RoleArbiter, 0), clock.Black, Adjustment{D: -30 * time.Second}, "best judgement from the log"))
		if got := r.remaining(clock.Black); got != hms("1:58:30") {
			t.Errorf("Black = %s", clock.FormatReading(got))
		}
	})

	t.Run("6.11_both_flags_order_unknown_game_continues", func(t *testing.T) {
		r := newRig(t)
		r.start()
		_, err := r.app.Flag(r.ctx, r.as(RoleArbiter, m), "both", true)
		refused(t, err, CodeBothFlagsNotFallen)
		// each side overruns its two hours on its first move
		r.move(2*time.Hour, "e4")
		r.move(2*time.Hour+time.Minute, "e5")
		_, err = r.app.Flag(r.ctx, r.as(RoleOperator, m), "both", true)
		refused(t, err, CodeWrongRole)
		_, err = r.app.Flag(r.ctx, r.as(RoleArbiter, 0), "both", true)
		r.ok(err)
		if g := r.game(); g.Over() || g.Result != "*" || r.lastIncident().Rule != "6.11" {
			t.Errorf("game %s %s", g.State, g.Result)
		}
	})

	t.Run("6.12a_arbiter_stops_the_clocks", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.ok(r.app.Pause(r.ctx, r.as(RoleArbiter, m), "noise in the hall", false))
		if r.game().State != Paused {
			t.Error("not paused")
		}
	})

	t.Run("6.12b_player_stops_clocks", func(t *testing.T) {
		r := newRig(t)
		r.start()
		refused(t, r.app.Pause(r.ctx, r.as(RoleWhite, m), "", false), CodePlayerPausesOnlyToCall)
		r.ok(r.app.Pause(r.ctx, r.as(RoleWhite, 0), "the operator moves about", true))
		if g := r.game(); g.State != Paused || !g.Paused.Call {
			t.Error("a player's call must stop the clocks")
		}
	})

	t.Run("6.12c_only_the_arbiter_resumes", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.ok(r.app.Pause(r.ctx, r.as(RoleWhite, m), "", true))
		refused(t, r.app.Resume(r.ctx, r.as(RoleWhite, m)), CodeWrongRole)
		refused(t, r.app.Resume(r.ctx, r.as(RoleOperator, 0)), CodeWrongRole)
		r.ok(r.app.Resume(r.ctx, r.as(RoleArbiter, 0)))
	})

	t.Run("6.13_irregularity_reset_gives_no_bonus", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.shuffle(5, m, m)
		res, err := r.app.Correct(r.ctx, r.as(RoleArbiter, 30*time.Second), Correct{Ply: 7, Method: MethodRecord, Cause: CauseIrregularity, Reason: "a pawn was displaced"})
		r.ok(err)
		if res.Bonus != 0 {
			t.Error("an irregularity gives no recovery bonus")
		}
		if got := r.remaining(clock.White); got != hms("1:56:00") {
			t.Errorf("White = %s, want 2:00:00 − 4 moves of 1m", clock.FormatReading(got))
		}
		if got := r.remaining(clock.Black); got != hms("1:57:00") {
			t.Errorf("Black = %s, want 2:00:00 − 3 moves of 1m", clock.FormatReading(got))
		}
		if inc := r.lastIncident(); inc.Rule != "6.13" {
			t.Errorf("rule %q", inc.Rule)
		}
	})

	t.Run("6.14_claims_are_judged_from_the_record", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.shuffle(2, m, m)
		res, err := r.app.Claim(r.ctx, r.as(RoleWhite, 0), "repetition", "")
		r.ok(err)
		if res.Valid || r.game().Over() {
			t.Fatalf("a claim after two occurrences must fail and the game continue: %+v", res)
		}
		res, err = r.app.Claim(r.ctx, r.as(RoleWhite, 0), "fifty-moves", "")
		r.ok(err)
		if res.Valid {
			t.Fatal("fifty-move claim after 4 moves accepted")
		}
		r.shuffle(2, m, m)
		if _, err := r.app.Claim(r.ctx, r.as(RoleBlack, 0), "repetition", ""); !errors.Is(err, ErrPermission) {
			t.Errorf("a claim by the player not having the move: %v, want a refusal (Article 9.2)", err)
		}
		res, err = r.app.Claim(r.ctx, r.as(RoleWhite, 0), "repetition", "")
		r.ok(err)
		if g := r.game(); !res.Valid || g.Result != "1/2-1/2" || g.Termination != "repetition" {
			t.Errorf("claim %+v; game %s %s", res, g.Result, g.Termination)
		}
	})

	for _, fr := range flagRules {
		t.Run(fr.name, fr.run)
	}

	t.Run("data_entry_slip_amended_clocks_untouched", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(m, "Nc3")
		r.move(m, "Nf6")
		w, b := r.remaining(clock.White), r.remaining(clock.Black)
		refused(t, r.app.Amend(r.ctx, r.as(RoleArbiter, m), 1, "Nf3", ""), CodeAmendNeedsReason)
		r.ok(r.app.Amend(r.ctx, r.as(RoleArbiter, 0), 1, "Nf3", "Nf3 was played, Nc3 entered"))
		g := r.game()
		if got := g.Sheet.Entries()[0].SAN; got != "Nf3" {
			t.Errorf("ply 1 = %s", got)
		}
		if r.remaining(clock.White) != w-m || r.remaining(clock.Black) != b {
			t.Error("amend touched the clocks")
		}
		r.move(m, "e4")
		r.move(m, "d5")
		r.move(m, "exd5")
		refused(t, r.app.Amend(r.ctx, r.as(RoleArbiter, 0), 3, "d4", "x"), CodeCannotAmend, "would no longer be legal")
		r.replayed()
	})
}

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
