package match

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"arbiter/clock"
)

// TestDrawOffers checks draw offers by the rules of the time (the match
// regulations, rules 8 and 14; FIDE Article 9.1 of that edition): an offer
// may be made on either clock, before the offerer's move or after it; it
// stands until the opponent accepts it, declines it or completes a move
// after it; the opponent may answer at once. The operator offers and
// answers for the computer only. The rig's game 1: Kasparov (White, the
// human) against Deep Blue (Black, the computer), the operator relaying.
// docs/rules.md names each subtest.
func TestDrawOffers(t *testing.T) {
	white, black := clock.White, clock.Black
	offer := func(r *rig, role Role, side *clock.Side) error {
		return r.app.DrawOffer(r.ctx, r.as(role, time.Second), side)
	}
	answer := func(r *rig, role Role, accept bool) error {
		return r.app.DrawAnswer(r.ctx, r.as(role, time.Second), accept)
	}
	// marks is which plies carry (=)
	marks := func(r *rig) []int {
		var ps []int
		for _, e := range r.game().Sheet.Entries() {
			if e.DrawOffer {
				ps = append(ps, e.Ply)
			}
		}
		return ps
	}
	drawn := func(t *testing.T, r *rig) {
		t.Helper()
		if g := r.game(); g.Result != "1/2-1/2" || g.Termination != "agreement" || g.State != Finished {
			t.Fatalf("after the acceptance: %s %s %s, want 1/2-1/2 by agreement", g.Result, g.Termination, g.State)
		}
		if _, ok := r.game().Clock.Running(); ok {
			t.Error("a clock still runs after the draw")
		}
		r.replayed()
	}

	t.Run("an_offer_before_the_offerers_move_on_his_own_clock_is_accepted_at_once", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.ok(offer(r, RoleWhite, nil)) // Kasparov offers while his own clock runs
		if g := r.game(); g.Offer == nil || g.Offer.By != white {
			t.Fatalf("the offer is %+v, want White's", g.Offer)
		}
		r.ok(answer(r, RoleOperator, true)) // relayed to Deep Blue, which accepts
		drawn(t, r)
	})

	t.Run("an_offer_before_the_offerers_move_is_declined_at_once_and_its_move_carries_the_mark", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.ok(offer(r, RoleWhite, nil))
		r.ok(answer(r, RoleOperator, false))
		if g := r.game(); g.Offer != nil {
			t.Fatalf("the declined offer still stands: %+v", g.Offer)
		}
		r.move(time.Second, "e4")
		if got := marks(r); !slices.Equal(got, []int{1}) {
			t.Errorf("(=) on plies %v, want on 1.e4, the move made with the offer", got)
		}
		if g := r.game(); g.Offer != nil {
			t.Errorf("the declined offer came back with the offerer's move: %+v", g.Offer)
		}
		refused(t, answer(r, RoleWhite, true), CodeNoDrawOffer)
	})

	t.Run("an_offer_before_the_offerers_move_stands_through_his_move_and_lapses_when_the_opponent_moves", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(time.Second, "e4")
		r.ok(offer(r, RoleOperator, nil)) // Deep Blue offers on its own clock, before its move
		if g := r.game(); g.Offer == nil || g.Offer.By != black {
			t.Fatalf("the offer is %+v, want Black's", g.Offer)
		}
		r.move(time.Second, "e5")
		if g := r.game(); g.Offer == nil || g.Offer.By != black {
			t.Fatalf("the offer lapsed with the offerer's own move: %+v", g.Offer)
		}
		if got := marks(r); !slices.Equal(got, []int{2}) {
			t.Errorf("(=) on plies %v, want on 1…e5", got)
		}
		r.move(time.Second, "Nf3")
		if g := r.game(); g.Offer != nil {
			t.Errorf("the offer did not lapse when the opponent moved: %+v", g.Offer)
		}
		refused(t, answer(r, RoleWhite, true), CodeNoDrawOffer)
		r.replayed()
	})

	t.Run("an_offer_after_the_offerers_move_on_the_opponents_clock_is_answered_at_once", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(time.Second, "e4")
		r.ok(offer(r, RoleWhite, nil)) // Kasparov offers after 1.e4, Deep Blue's clock running
		if got := marks(r); !slices.Equal(got, []int{1}) {
			t.Errorf("(=) on plies %v, want on 1.e4", got)
		}
		r.ok(answer(r, RoleOperator, true))
		drawn(t, r)
	})

	t.Run("an_offer_after_the_offerers_move_lapses_when_the_opponent_moves", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.move(time.Second, "e4")
		r.move(time.Second, "e5")
		r.ok(offer(r, RoleOperator, nil)) // relayed for Deep Blue after 1…e5
		r.move(time.Second, "Nf3")
		if g := r.game(); g.Offer != nil {
			t.Fatalf("the offer stands after the opponent's move: %+v", g.Offer)
		}
		if got := marks(r); !slices.Equal(got, []int{2}) {
			t.Errorf("(=) on plies %v, want on 1…e5", got)
		}
	})

	t.Run("an_offer_after_the_opponents_press_is_not_lapsed_by_the_entry_of_that_move", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.ok(r.app.Press(r.ctx, r.as(RoleWhite, time.Second))) // Kasparov moved on the board and pressed
		r.ok(offer(r, RoleOperator, nil))                      // Deep Blue offers on its own clock
		if _, err := r.app.Move(r.ctx, r.as(RoleArbiter, time.Second), "e4", true); err != nil {
			t.Fatal(err)
		}
		if g := r.game(); g.Offer == nil || g.Offer.By != black {
			t.Fatalf("the entry of the move pressed before the offer lapsed it: %+v", g.Offer)
		}
		r.ok(answer(r, RoleWhite, false))
		r.move(time.Second, "e5")
		if got := marks(r); !slices.Equal(got, []int{2}) {
			t.Errorf("(=) on plies %v, want on 1…e5, Deep Blue's move made with the offer", got)
		}
	})

	t.Run("the_arbiter_records_an_offer_of_either_side_and_its_answer_by_the_other", func(t *testing.T) {
		for _, side := range []clock.Side{white, black} {
			r := newRig(t)
			r.start()
			s := side
			r.ok(offer(r, RoleArbiter, &s))
			if g := r.game(); g.Offer == nil || g.Offer.By != side {
				t.Fatalf("the offer is %+v, want %s's", g.Offer, Colour(side))
			}
			r.ok(answer(r, RoleArbiter, false))
			evs, err := r.db.EventsAfter(r.ctx, 0)
			r.ok(err)
			var p SidePayload
			if last := evs[len(evs)-1]; last.Kind != KindDrawDecline || json.Unmarshal(last.Payload, &p) != nil || p.Side != side.Other().String() {
				t.Errorf("the answer to %s's offer is %s %s, want a decline by %s", Colour(side), last.Kind, last.Payload, Colour(side.Other()))
			}
		}
	})

	t.Run("an_offer_stands_until_answered_a_second_one_is_refused_as_still_open", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.ok(offer(r, RoleWhite, nil))
		refused(t, offer(r, RoleWhite, nil), CodeOfferOpen, "White")
		refused(t, offer(r, RoleOperator, nil), CodeOfferOpen, "White")
		r.ok(answer(r, RoleOperator, false))
		r.ok(offer(r, RoleWhite, nil)) // answered: a new one may be made
	})

	t.Run("you_cannot_accept_or_decline_your_own_offer", func(t *testing.T) {
		r := newRig(t)
		r.start()
		r.ok(offer(r, RoleWhite, nil))
		refused(t, answer(r, RoleWhite, true), CodeOwnOfferAccept, "Deep Blue (Black)")
		refused(t, answer(r, RoleWhite, false), CodeOwnOfferDecline, "Deep Blue (Black)")
		r.ok(answer(r, RoleBlack, false))
		r.move(time.Second, "e4")
		r.ok(offer(r, RoleOperator, nil))
		refused(t, answer(r, RoleOperator, true), CodeOwnOfferAccept, "Garry Kasparov (White)")
		if g := r.game(); g.Over() || g.Offer == nil {
			t.Errorf("a refused answer changed the game: over %v, offer %+v", g.Over(), g.Offer)
		}
	})

	t.Run("rule_8_14_the_operator_relays_offers_and_answers_for_the_computer_only", func(t *testing.T) {
		r := newRig(t)
		r.start()
		w := white
		refused(t, offer(r, RoleOperator, &w), CodeOperatorOnlyForComputer, "Garry Kasparov (White)")
		r.ok(offer(r, RoleOperator, nil)) // for Deep Blue, on Kasparov's clock
		if g := r.game(); g.Offer == nil || g.Offer.By != black {
			t.Fatalf("the operator's offer is %+v, want Deep Blue's", g.Offer)
		}
		r.ok(answer(r, RoleWhite, false)) // Kasparov declines at once
		r.move(time.Second, "e4")
		r.ok(offer(r, RoleWhite, nil))
		r.ok(answer(r, RoleOperator, true)) // relayed: Deep Blue accepts
		drawn(t, r)
	})
}
