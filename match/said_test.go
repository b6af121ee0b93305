package match

import (
	"encoding/json"
	"testing"
	"time"

	"arbiter/clock"
	"arbiter/internal/phrase"
)

// saidRig plays a game with every text the core writes into the incident
// log: a correction with its rule-10 bonus, a resumption, a pause with its
// cause, adjustments, a declined draw offer, an amendment, the rule-13
// bonus, a suspension and a resignation.
func saidRig(t *testing.T) *rig {
	r := newRig(t)
	r.start()
	r.move(10*time.Second, "e4")
	r.move(10*time.Second, "e5")
	r.move(10*time.Second, "Nf3")
	r.move(10*time.Second, "Nc6")
	_, err := r.app.Correct(r.ctx, r.as(RoleArbiter, 10*time.Second), Correct{Ply: 4, Method: MethodKeep, Reason: "the operator relayed Nc6"})
	r.ok(err)
	r.ok(r.app.Resume(r.ctx, r.as(RoleArbiter, 10*time.Second)))
	r.move(10*time.Second, "Nf6")
	r.ok(r.app.PauseFor(r.ctx, r.as(RoleArbiter, 10*time.Second), Pause{Reason: "stopped by the arbiter", Cause: CausePowerFailure}))
	r.ok(r.app.Resume(r.ctx, r.as(RoleArbiter, 10*time.Second)))
	moves := 3
	r.ok(r.app.Adjust(r.ctx, r.as(RoleArbiter, 10*time.Second), clock.White, Adjustment{D: -time.Minute, Moves: &moves}, "the clock was ahead"))
	r.ok(r.app.DrawOffer(r.ctx, r.as(RoleArbiter, 10*time.Second), nil))
	r.ok(r.app.DrawAnswer(r.ctx, r.as(RoleArbiter, 10*time.Second), false))
	r.ok(r.app.Amend(r.ctx, r.as(RoleArbiter, 10*time.Second), 1, "d4", "the operator misread"))
	r.move(10*time.Second, "Bf4")
	_, err = r.app.Incident(r.ctx, r.as(RoleOperator, 10*time.Second), IncidentMaintenance, IncidentArgs{InHall: true, Text: "a node board is replaced"})
	r.ok(err)
	r.now = r.now.Add(10 * time.Second)
	r.ok(r.app.LogSuspend(r.ctx, r.now, 3*time.Second))
	r.ok(r.app.Resign(r.ctx, r.as(RoleArbiter, 10*time.Second), clock.White))
	return r
}

// The phrase kept beside a text of the incident log says exactly the
// record's English: the English log, the PGN and the English PDF print the
// text, a face in another language says the phrase.
func TestEveryTextTheCoreWritesIsKeptAsAPhraseOfTheSameEnglish(t *testing.T) {
	r := saidRig(t)
	st := r.replayed()
	for _, in := range st.Game(1).Incidents {
		typed := in.Text == "the clock was ahead" || in.Text == "a node board is replaced" // a person's own words
		if in.Said == nil && !typed {
			t.Errorf("#%d %s %q has no phrase", in.Seq, in.Kind, in.Text)
		}
		if in.Said != nil && in.Said.Error() != in.Text {
			t.Errorf("#%d %s: the phrase says %q, the record %q", in.Seq, in.Kind, in.Said.Error(), in.Text)
		}
		if in.Effect != "" && in.EffectSaid != nil && in.EffectSaid.Error() != in.Effect {
			t.Errorf("#%d %s: the effect's phrase says %q, the record %q", in.Seq, in.Kind, in.EffectSaid.Error(), in.Effect)
		}
	}
}

// A record written before the core stored its own English texts as phrases
// (no "why" in adjust, incident and game.end) still has them said from the
// core's known words: the two recovery bonuses, a suspension, a
// resignation. Any other text stays as recorded.
func TestAnOlderRecordsEnglishTextsAreSaidFromTheCoresKnownWords(t *testing.T) {
	r := saidRig(t)
	events, err := r.db.EventsAfter(r.ctx, 0)
	r.ok(err)
	st := NewState()
	for _, e := range events {
		var payload map[string]any
		r.ok(json.Unmarshal(e.Payload, &payload))
		if _, ok := payload["why"]; ok && e.Kind != KindFlag {
			delete(payload, "why") // as written before
			e.Payload, err = json.Marshal(payload)
			r.ok(err)
		}
		r.ok(st.Apply(e))
	}
	said := map[string]bool{}
	for _, in := range st.Game(1).Incidents {
		if in.Said != nil {
			said[in.Said.Format] = true
		}
	}
	for _, format := range []string{bonusOperatorError, bonusHall, suspendedFormat, "%s (%s): %s"} {
		t.Run(format+" is said from its words", func(t *testing.T) {
			if !said[format] {
				t.Errorf("no incident is said as %q", format)
			}
		})
	}
	t.Run("the resignation in the result", func(t *testing.T) {
		g := st.Game(1)
		if g.Why == nil || g.Why.Format != resignedFormat || g.Why.Error() != kasparov+" resigned" {
			t.Errorf("the result's reason %q is said as %v", g.Reason, g.Why)
		}
	})
	t.Run("words a person typed stay as recorded", func(t *testing.T) {
		for _, text := range []string{"Anna resigned", "recovery bonus", "the computer was suspended for a while; the running clock counted that time: the arbiter decides whether to correct it"} {
			if p := storedPhrase(text, st.Game(1)); p != nil {
				t.Errorf("%q is taken as the core's %q", text, p.Format)
			}
		}
	})
}

// storedPhrase's phrases round-trip: what it recognises, it says in the
// same English.
func TestStoredPhrasesSayTheSameEnglish(t *testing.T) {
	g := &Game{White: kasparov, Black: deepBlue}
	for _, p := range []*phrase.Error{phrase.Errorf(bonusOperatorError), phrase.Errorf(bonusHall),
		phrase.Errorf(suspendedFormat, "1m3s"), phrase.Errorf(resignedFormat, deepBlue)} {
		if got := storedPhrase(p.Error(), g); got == nil || got.Error() != p.Error() || got.Format != p.Format {
			t.Errorf("storedPhrase(%q) = %v", p.Error(), got)
		}
	}
}
