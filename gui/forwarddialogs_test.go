//go:build !nostation

package gui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"arbiter/match"
	"arbiter/service"
)

// checkEvent fails unless e is of kind, recorded as role at the instant
// at, with every payload field of want (compared as printed).
func checkEvent(t *testing.T, e service.Event, kind string, role match.Role, at time.Time, want map[string]any) {
	t.Helper()
	if !e.At.Equal(at) {
		t.Errorf("event %d (%s) is recorded at %v, want %v: the instant given plus the offset to the authority", e.Seq, e.Kind, e.At, at)
	}
	var got map[string]any
	if err := json.Unmarshal(e.Payload, &got); err != nil {
		t.Fatalf("event %d (%s): %v", e.Seq, e.Kind, err)
	}
	if e.Kind != kind || e.Role != string(role) {
		t.Fatalf("event %d is %s by %s (%s), want %s by %s", e.Seq, e.Kind, e.Role, e.Payload, kind, role)
	}
	for k, v := range want {
		if fmt.Sprint(got[k]) != fmt.Sprint(v) {
			t.Errorf("event %d (%s): %s is %v, want %v (%s)", e.Seq, e.Kind, k, got[k], v, e.Payload)
		}
	}
}

// submitTop confirms the topmost form with Enter in its first text field.
func submitTop(t *testing.T, h *harness) {
	t.Helper()
	h.c.win.Canvas().Focus(topEntries(t, h.c)[0])
	h.key(fyne.KeyReturn)
}

// A console on a station's record sends the commands of its dialogs to the
// authority as the command line's words built from the dialog's values —
// game scheduling, a game from a position, clock adjustments, claims,
// incidents (appeals included), corrections with the pause before them —
// as the actor the console's mode decides; the authority's refusals are
// said in the console's words, in German too; and a new match is refused
// there in one sentence, since a station's record holds its match
// (issue 17).
func TestTheConsoleSendsItsDialogsCommandsToTheAuthority(t *testing.T) {
	// The authority's timeline runs 250 ms ahead of the console's clock:
	// each event's instant shows that the authority recorded it, stamped
	// where it was given.
	const offset = 250 * time.Millisecond
	h, lc := stationHarness(t, match.RoleArbiter, "", offset)
	given := func() time.Time { return lc.Now().Add(offset) }
	sent := func() service.Event {
		t.Helper()
		h.wait()
		return h.lastEvent()
	}
	events := func() int { return int(h.lastEvent().Seq) }

	t.Run("game schedule: the game and the start given in the match's zone", func(t *testing.T) {
		h.c.do(actScheduleGame)
		es := topEntries(t, h.c)
		es[0].SetText("2")
		es[1].SetText("1996-02-11 15:00")
		submitTop(t, h)
		checkEvent(t, sent(), match.KindGameSchedule, match.RoleArbiter, given(), map[string]any{"game": 2, "start": "1996-02-11T15:00:00Z"})
	})

	const fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	t.Run("game start from a position: the FEN and both clocks", func(t *testing.T) {
		h.c.do(actStartFrom)
		es := topEntries(t, h.c)
		es[0].SetText(fen)
		es[1].SetText("1:59:00")
		es[2].SetText("1:58:30.5")
		submitTop(t, h)
		checkEvent(t, sent(), match.KindGameStart, match.RoleArbiter, given(), map[string]any{"fen": fen,
			"white_ns": float64(time.Hour + 59*time.Minute), "black_ns": float64(time.Hour + 58*time.Minute + 30500*time.Millisecond)})
		if g := h.game(); g == nil || !g.Live() {
			t.Fatal("the console does not show the game started")
		}
	})

	t.Run("adjust: the side, the correction, the moves and the reason", func(t *testing.T) {
		h.c.do(actAdjust)
		for _, o := range overlayWidgets(h) {
			if r, ok := o.(*widget.RadioGroup); ok {
				r.SetSelected("White") // Black's clock runs: offered first
			}
		}
		es := topEntries(t, h.c) // correction, moves, reason
		es[0].SetText("-1m30s")
		es[1].SetText("0")
		es[2].SetText("the board's clock")
		submitTop(t, h) // more than a minute: the console asks first
		if !strings.Contains(topDialogTexts(h.c), "a change of more than a minute") {
			t.Fatalf("a correction of 1m30s is not asked about: %q", topDialogTexts(h.c))
		}
		submitTop(t, h)
		checkEvent(t, sent(), match.KindAdjust, match.RoleArbiter, given(), map[string]any{"side": "white", "op": "add", "ms": -90000, "moves": 0, "reason": "the board's clock"})
	})

	lc.Advance(5 * time.Second)
	h.typeMove("e5")
	if e := sent(); e.Kind != match.KindMove {
		t.Fatalf("the move e5: last event %s (%s)", e.Kind, h.c.moveErr.Text)
	}

	t.Run("claim: the kind and the intended move, the ruling shown", func(t *testing.T) {
		h.c.do(actClaim)
		var kind *widget.Select
		for _, o := range overlayWidgets(h) {
			if s, ok := o.(*widget.Select); ok {
				kind = s
			}
		}
		kind.SetSelectedIndex(1)
		topEntries(t, h.c)[0].SetText("Nf3")
		submitTop(t, h)
		e := sent()
		checkEvent(t, e, match.KindClaim, match.RoleArbiter, given(), map[string]any{"kind": "fifty-moves", "move": "Nf3", "valid": false})
		var p match.ClaimPayload
		json.Unmarshal(e.Payload, &p)
		if p.Ruling == "" || !strings.Contains(topDialogTexts(h.c), p.Ruling) {
			t.Fatalf("the ruling %q is not shown: %q", p.Ruling, topDialogTexts(h.c))
		}
		h.key(fyne.KeyReturn)
	})

	// incident logs an incident of kind with text; more fills the details.
	incident := func(kind, text string, more func()) service.Event {
		t.Helper()
		h.c.do(actIncident)
		for _, o := range overlayWidgets(h) {
			if s, ok := o.(*widget.Select); ok {
				s.SetSelected(translate(kind))
				break
			}
		}
		topEntries(t, h.c)[0].SetText(text)
		if more != nil {
			more()
		}
		submitTop(t, h)
		return sent()
	}
	var ruling service.Event
	t.Run("incident: the kind and the text, as the arbiter in arbiter mode", func(t *testing.T) {
		ruling = incident(match.IncidentRuling, "the claim is invalid", nil)
		checkEvent(t, ruling, match.KindIncident, match.RoleArbiter, given(), map[string]any{"kind": match.IncidentRuling, "text": "the claim is invalid"})
	})

	t.Run("an appeal: the event it concerns, as the operator in operator mode", func(t *testing.T) {
		h.c.mode = match.RoleOperator
		defer func() { h.c.mode = match.RoleArbiter }()
		e := incident(match.IncidentAppeal, "the team appeals", func() {
			for _, e := range topEntries(t, h.c) {
				if strings.Contains(e.PlaceHolder, "#N") {
					e.SetText(fmt.Sprintf("#%d", ruling.Seq))
				}
			}
			for _, o := range overlayWidgets(h) {
				if by, ok := o.(*widget.RadioGroup); ok {
					for _, who := range by.Options {
						if strings.HasPrefix(who, "Deep Blue") {
							by.SetSelected(who) // the computer's appeal: its operator's
						}
					}
				}
			}
		})
		checkEvent(t, e, match.KindIncident, match.RoleOperator, given(), map[string]any{"kind": match.IncidentAppeal, "refers": ruling.Seq})
	})

	t.Run("correct: the pause first, then the ply, the method, the cause and the reason", func(t *testing.T) {
		before := events()
		lc.Advance(time.Second)
		h.c.do(actCorrect)
		h.wait() // the pause: the dialog opens once the record holds it
		cd := h.c.correcting
		if cd == nil {
			t.Fatalf("no correction dialog (%q)", refusalShown(h.c))
		}
		cd.reason.SetText("e5 was entered for e6")
		test.Tap(cd.cols[match.MethodKeep].choose)
		h.wait()
		evs, err := h.core.DB().EventsAfter(h.ctx, int64(before))
		if err != nil || len(evs) != 3 {
			t.Fatalf("%d events after the correction (%v), want the pause, the reset and the recovery bonus", len(evs), err)
		}
		checkEvent(t, evs[0], match.KindPause, match.RoleArbiter, given(), map[string]any{"reason": nil, "cause": match.CauseCorrection})
		checkEvent(t, evs[1], match.KindCorrect, match.RoleArbiter, given(), map[string]any{"ply": cd.ply.Text, "method": match.MethodKeep,
			"cause": match.CauseOperatorError, "reason": "e5 was entered for e6"})
		checkEvent(t, evs[2], match.KindAdjust, match.RoleArbiter, given(), map[string]any{"side": "white", "ms": 300000})
		if got := topDialogTexts(h.c); !strings.Contains(got, "Position before") || !strings.Contains(got, "Garry Kasparov received 0:05:00") {
			t.Fatalf("the console says %q", got)
		}
		h.key(fyne.KeyReturn)
	})

	t.Run("the authority's refusal of a dialog's command is said in the console's words, in German", func(t *testing.T) {
		inGerman(t)
		before := events()
		h.c.do(actScheduleGame)
		es := topEntries(t, h.c)
		es[0].SetText("1")
		es[1].SetText("1996-02-11 15:00")
		submitTop(t, h)
		if e := sent(); int(e.Seq) != before {
			t.Fatalf("the refused schedule wrote event %d (%s)", e.Seq, e.Kind)
		}
		if got := topDialogTexts(h.c); !strings.Contains(got, "Partie 1") || !strings.Contains(got, "kann nicht angesetzt werden") {
			t.Fatalf("the console says %q", got)
		}
		h.key(fyne.KeyReturn)
	})

	t.Run("a new match is refused on a station's record in one sentence, in German too", func(t *testing.T) {
		before := events()
		for _, want := range []string{"whose record holds the match its stations were invited to", "deren Aufzeichnung das Match hält"} {
			if strings.HasPrefix(want, "deren") {
				inGerman(t)
			}
			h.c.do(actNewMatch)
			if got := topDialogTexts(h.c); !strings.Contains(got, want) {
				t.Fatalf("the console says %q", got)
			}
			h.key(fyne.KeyReturn)
		}
		if events() != before {
			t.Fatal("the refused new match wrote an event")
		}
	})
}

// At a station's console the arbiter's PIN for arbiter mode is checked
// where it is given (the console's record is the station's, read only):
// a wrong one is refused in one sentence and recorded by the authority
// (auth.fail, reported without the PIN); once the back-off is over the
// right PIN gives arbiter mode and his command goes to the authority
// with it.
func TestTheArbiterEntersArbiterModeAtAStationsConsole(t *testing.T) {
	const pin = "correct horse battery"
	h, lc := stationHarness(t, match.RoleOperator, pin, 0)
	before := h.lastEvent().Seq
	h.c.do(actArbiterMode)
	if h.c.mode != match.RoleOperator {
		t.Fatalf("arbiter mode without the PIN (the match %v)", h.c.state().Match != nil)
	}
	test.Type(topEntries(t, h.c)[0], "not the passphrase")
	h.key(fyne.KeyReturn)
	h.wait() // reported to the authority
	if h.c.mode != match.RoleOperator || !strings.Contains(topDialogTexts(h.c), "The PIN is wrong") {
		t.Fatalf("a wrong PIN: %s mode, the console says %q", h.c.mode, topDialogTexts(h.c))
	}
	h.c.win.Canvas().Unfocus()
	h.key(fyne.KeyReturn) // closes the message
	if e := h.lastEvent(); e.Seq != before+1 || e.Kind != match.KindAuthFail {
		t.Fatalf("the station's record ends with event %d (%s), want the authority's auth.fail after %d (TestAWrongPINForArbiterModeAtAStationsConsole…)", e.Seq, e.Kind, before)
	}
	lc.Advance(time.Second) // the back-off is over
	h.c.do(actArbiterMode)
	test.Type(topEntries(t, h.c)[0], pin)
	h.key(fyne.KeyReturn)
	h.wait()
	if h.c.mode != match.RoleArbiter {
		t.Fatalf("the right PIN: %s mode (%q)", h.c.mode, refusalShown(h.c))
	}
	h.c.startGame()
	h.wait()
	if e := h.lastEvent(); e.Kind != match.KindGameStart || e.Role != string(match.RoleArbiter) {
		t.Fatalf("last event %s by %s, want the arbiter's start of the game: %q", e.Kind, e.Role, refusalShown(h.c))
	}
}
