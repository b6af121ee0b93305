package match

import (
	"fmt"
	"testing"
	"time"

	"arbiter/clock"
)

// TestArrival checks Article 6.6 as it speaks: of a player's arrival at the
// board (not of his first move). The arbiter records the arrival, at the
// instant he saw it; a player who arrived within the forfeit time (1 h
// after the scheduled start) is not defaulted, one who arrived later may
// still be. docs/rules.md names each subtest.
func TestArrival(t *testing.T) {
	arrive := func(r *rig, d time.Duration, who string, at *time.Time) error {
		_, err := r.app.Do(r.ctx, r.as(RoleArbiter, d), Arrive{Player: who, At: at})
		return err
	}
	scheduled := func(t *testing.T) *rig {
		r := newRig(t)
		r.ok(r.app.ScheduleGame(r.ctx, r.as(RoleArbiter, 0), 1, rigStart))
		return r
	}

	t.Run("6.6_a_player_who_arrived_within_the_hour_is_not_defaulted", func(t *testing.T) {
		r := scheduled(t)
		r.start()
		r.ok(arrive(r, 59*m, kasparov, nil))
		refused(t, r.app.Forfeit(r.ctx, r.as(RoleArbiter, 30*m), clock.White, "absent"), CodePlayerArrived, "Garry Kasparov (White)", "15:59:00 UTC")
		if g := r.game(); !g.Live() {
			t.Fatalf("the game is %s after the refused forfeit", g.State)
		}
		inc := r.lastIncident()
		if inc.Kind != "arrival" || inc.Rule != "6.6" || inc.Text != "Garry Kasparov (White) arrived at the board at 15:59:00 UTC" {
			t.Errorf("the incident log says %s (%s): %q", inc.Kind, inc.Rule, inc.Text)
		}
	})

	t.Run("6.6_a_player_who_arrived_after_the_hour_may_still_be_defaulted", func(t *testing.T) {
		r := scheduled(t)
		r.start()
		r.ok(arrive(r, 61*m, kasparov, nil))
		r.ok(r.app.Forfeit(r.ctx, r.as(RoleArbiter, time.Second), clock.White, "arrived 61 minutes late"))
		if g := r.app.State().Game(1); g.Result != "0-1" || g.State != Forfeited {
			t.Errorf("game 1: %s %s", g.Result, g.State)
		}
	})

	t.Run("6.6_an_arrival_is_recorded_at_the_instant_seen_which_may_lie_before_the_last_event", func(t *testing.T) {
		r := scheduled(t)
		r.start()
		r.ok(r.app.Adjust(r.ctx, r.as(RoleArbiter, 70*m), clock.White, Adjustment{D: time.Minute}, "keep in step")) // a later event
		seen := rigStart.Add(40 * m)
		r.ok(arrive(r, time.Minute, kasparov, &seen))
		if got := r.game().Arrived[clock.White]; !got.Equal(seen) {
			t.Fatalf("arrival recorded at %v, want %v", got, seen)
		}
		refused(t, r.app.Forfeit(r.ctx, r.as(RoleArbiter, time.Second), clock.White, "absent"), CodePlayerArrived)
		st := r.replayed()
		if got := st.CurrentGame().Arrived[clock.White]; !got.Equal(seen) {
			t.Errorf("replayed arrival %v, want %v", got, seen)
		}
	})

	t.Run("6.6_an_arrival_before_a_scheduled_game_starts_is_recorded_for_that_game", func(t *testing.T) {
		r := scheduled(t)
		r.ok(arrive(r, 0, deepBlue, nil))
		if got := r.app.State().Game(1).Arrived[clock.Black]; got.IsZero() {
			t.Fatal("the arrival before the start was not recorded for game 1")
		}
		r.now = rigStart.Add(61 * m)
		refused(t, r.app.Forfeit(r.ctx, r.as(RoleArbiter, 0), clock.Black, "absent"), CodePlayerArrived, "Deep Blue (Black)")
	})

	t.Run("6.6_arrival_refusals", func(t *testing.T) {
		r := scheduled(t)
		r.start()
		later := r.now.Add(time.Hour)
		for _, tc := range []struct {
			name string
			role Role
			cmd  Arrive
			code Code
			arg  string
		}{
			{"only the arbiter records an arrival", RoleOperator, Arrive{Player: deepBlue}, CodeWrongRole, "Feng-hsiung Hsu (operator)"},
			{"a player must be named", RoleArbiter, Arrive{}, CodeArriveNeedsPlayer, ""},
			{"the name must be a player of the game", RoleArbiter, Arrive{Player: "Garry"}, CodeNotPlayerOfGame, "Garry"},
			{"nobody records an instant that has not yet come", RoleArbiter, Arrive{Player: kasparov, At: &later}, CodeArrivalAhead, kasparov},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := r.app.Do(r.ctx, r.as(tc.role, 0), tc.cmd)
				var args []string
				if tc.arg != "" {
					args = append(args, tc.arg)
				}
				refused(t, err, tc.code, args...)
			})
		}
		r.ok(arrive(r, 0, kasparov, nil))
		refused(t, arrive(r, time.Second, kasparov, nil), CodeArrivedAlready, "Garry Kasparov (White)")
	})
}

// TestRefusalsNameTheRoleAndThePerson: a command refused for the role it
// was given in names who gave it, by role and name ("must be given by the
// arbiter, not by Garry Kasparov (White)"), never a colour as a role ("not
// the black").
func TestRefusalsNameTheRoleAndThePerson(t *testing.T) {
	r := newRig(t)
	r.start()
	for _, tc := range []struct {
		name string
		err  func() error
		code Code
		who  string
	}{
		{"a player giving an arbiter's command is named with his colour", func() error {
			return r.app.Result(r.ctx, r.as(RoleWhite, 0), "1-0", "x")
		}, CodeWrongRole, "Garry Kasparov (White)"},
		{"the operator giving an arbiter's command is named with his role", func() error {
			return r.app.Forfeit(r.ctx, r.as(RoleOperator, 0), clock.White, "x")
		}, CodeWrongRole, "Feng-hsiung Hsu (operator)"},
		{"a player acting for the other side is named and so is the other", func() error {
			return r.app.Resign(r.ctx, r.as(RoleBlack, 0), clock.White)
		}, CodeNotYourSide, "Deep Blue (Black)"},
		{"the operator acting for the human is named and so is the human", func() error {
			return r.app.Resign(r.ctx, r.as(RoleOperator, 0), clock.White)
		}, CodeOperatorOnlyForComputer, "Garry Kasparov (White)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			refused(t, err, tc.code, tc.who)
			if s := fmt.Sprint(err); containsAny(s, "the white", "the black", "not the ") {
				t.Errorf("the refusal %q names a colour as a role", s)
			}
		})
	}
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if indexOf(s, x) >= 0 {
			return true
		}
	}
	return false
}

// TestWaitsBelowASecondAreSaidInMilliseconds: a refusal that says how long
// to wait (Article 6.6) says a wait below a second in milliseconds, "1 ms"
// at the limit itself (it must be passed), where it said "0:00:00".
func TestWaitsBelowASecondAreSaidInMilliseconds(t *testing.T) {
	for _, tc := range []struct {
		before time.Duration // the command's instant before the limit
		want   string
	}{
		{0, "1 ms"},
		{time.Nanosecond, "1 ms"},
		{250 * time.Millisecond, "250 ms"},
		{999 * time.Millisecond, "999 ms"},
		{999*time.Millisecond + 1, "0:00:01"},
		{time.Minute, "0:01:00"},
		{time.Minute + 1, "0:01:01"},
	} {
		t.Run(fmt.Sprintf("%v_before_the_limit_says_%s", tc.before, tc.want), func(t *testing.T) {
			r := newRig(t)
			r.ok(r.app.ScheduleGame(r.ctx, r.as(RoleArbiter, 0), 1, rigStart))
			r.start()
			r.now = rigStart.Add(time.Hour - tc.before)
			err := r.app.Forfeit(r.ctx, r.as(RoleArbiter, 0), clock.White, "absent")
			refused(t, err, CodeForfeitTooEarly)
			if args := err.(*Error).Args(); fmt.Sprint(args[len(args)-1]) != tc.want {
				t.Errorf("the wait said is %v, want %s", args[len(args)-1], tc.want)
			}
		})
	}
}
