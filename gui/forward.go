package gui

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"

	"arbiter/match"
	"arbiter/service"
	"arbiter/service/stations"
)

// A console on a station's record (docs/stations.md, "The console") gives
// its commands through the station: each is sent to the authority with the
// console's credential and the instant stamped where it was given (the
// console's time source plus the station's offset to the authority), as
// the command line's own words (stations.Forward, the same path as
// 'arbiter --db FILE …'), one at a time in the order given; the console
// shows the result once its record holds the command. The mirror's
// console gives none.

// sendItem is one command waiting to be sent.
type sendItem struct {
	a     match.Actor
	at    time.Time
	words []string
	done  func(error)
}

// forwards reports whether this console sends its commands to the
// authority (a station's record that is not the mirror's).
func (c *console) forwards() bool { return c.stationRole != "" && c.stationRole != "mirror" }

// send gives words as actor a, pressed at the instant at on the console's
// time source, through the station; done is told the outcome on the
// console's thread once the record holds the command (nil: a refusal is
// shown in a dialog).
func (c *console) send(a match.Actor, at time.Time, words []string, done func(error)) {
	a = c.cmdAs(a).Actor // the PIN the console holds, as for a local command
	if c.sendq == nil {
		c.sendq = make(chan sendItem, 64)
		go c.sender(c.sendq)
	}
	c.sending.Add(1)
	c.sendq <- sendItem{a: a, at: at, words: words, done: done}
}

// sendFromDialog sends a dialog's command (given now) and closes the
// dialog: the outcome comes once the station's record holds it, a refusal
// in a dialog of its own (the form cannot wait for the authority).
func (c *console) sendFromDialog(a match.Actor, words []string) error {
	c.send(a, c.now(), words, nil)
	return nil
}

// sender sends the queued commands one after another.
func (c *console) sender(q chan sendItem) {
	path := c.recordPath()
	for it := range q {
		g := service.Global{DB: path, Role: it.a.Role, PIN: it.a.PIN, Secret: it.a.Secret}
		// While no authority answers (a failover takes seconds) the command
		// waits, retried with its id; the status line says so meanwhile.
		waiting := func(string) {
			fyne.Do(func() {
				c.warning = "⚠ " + lang.L("No authority answers yet: the command waits for one.")
				c.refreshWhere()
			})
		}
		_, err := stations.Forward(c.ctx, path, stations.Command{Words: it.words, G: g, RoleGiven: true, Key: it.a.Key,
			Pressed: it.at, Now: c.now, Notice: waiting})
		fyne.Do(func() {
			defer c.sending.Done()
			c.warning = ""
			if rerr := c.core.Refresh(c.ctx); rerr != nil && err == nil {
				err = rerr
			}
			if m := c.state().Match; err == nil && it.a.Role == match.RoleArbiter && m != nil && !m.Protected() {
				c.warn(match.UnprotectedWarning()) // as the core warns of a local arbiter action (issue 16)
			}
			c.refresh()
			if it.done != nil {
				it.done(err)
			} else if err != nil {
				c.showError(err)
			}
		})
	}
}

// stationWords is, on a station's record, the console's sentence for a
// refusal of the command path (stations.Forward); ok is false for other
// errors.
func stationWords(err error) (string, bool) {
	var refused *stations.Refused
	var role *stations.RoleError // only the operator's laptop has one
	var down *stations.NotRunningError
	var opKey *stations.OperatorKeyError
	switch {
	case errors.As(err, &refused):
		if refused.Refusal != nil {
			return sentence(refused.Refusal), true // the match's refusal in the console's words
		}
		return sentence(errors.New(refused.Text)), true
	case errors.As(err, &role):
		return lang.L("The operator's station gives only the operator's commands: switch to operator mode (Ctrl+M)."), true
	case errors.As(err, &down):
		return fmt.Sprintf(lang.L("Station %s is not running, so the command was not sent: start it with 'arbiter --db %s station serve' and give the command again."), down.Station, down.DB), true
	case errors.As(err, &opKey):
		switch opKey.Kind {
		case stations.OperatorKeyNotNeeded:
			return lang.L("The match is unprotected, so the operator needs no credential: leave the operator's key file empty."), true
		case stations.OperatorKeyNeeded:
			return lang.L("The match has an operator's credential already: give its key file as the operator's key file, so that the invitation carries it."), true
		case stations.OperatorKeyWrong:
			return fmt.Sprintf(lang.L("%s is not the operator's credential of this match: give the key file the operator's credential was made from."), opKey.File), true
		case stations.OperatorKeyNone:
			return lang.L("The match has no operator's credential yet: leave the operator's key file empty and the invitation makes one."), true
		}
		why, ok := stationWords(opKey.Err)
		if !ok {
			why = sentence(opKey.Err)
		}
		return fmt.Sprintf(lang.L("The operator's credential could not be made: %s"), why), true
	case errors.Is(err, stations.ErrMirror):
		return lang.L("The mirror terminal only reads the record: give commands at another station."), true
	}
	return "", false
}

// noteCorrections says on the status line when the record gains a press
// that arrived late at the authority (after a failover, from a laptop that
// slept: the event's "correction"): its instant corrects the clocks this
// console showed meanwhile (docs/stations.md, "Exact clocks across
// machines"). It reads only the events after the last it has seen.
func (c *console) noteCorrections(st *match.State) {
	if c.stationRole == "" || st.Seq <= c.correctionSeq {
		return
	}
	if c.correctionSeq == 0 {
		c.correctionSeq = st.Seq // what the console opened on is no news
		return
	}
	evs, err := c.core.DB().EventsAfter(c.ctx, c.correctionSeq)
	if err != nil {
		return
	}
	c.correctionSeq = st.Seq
	for _, e := range evs {
		if e.Kind != match.KindPress && e.Kind != match.KindMove {
			continue
		}
		var p match.PressStamp
		if json.Unmarshal(e.Payload, &p) != nil || !p.Correction {
			continue
		}
		pressed, received := time.Unix(0, p.PressedNS), time.Unix(0, p.ReceivedNS)
		c.warning = "⚠ " + tr("A late press corrected the clocks: %s's press at %s reached the authority %.1f s later and counts at %s.",
			e.Actor, c.timeOfDay(pressed), received.Sub(pressed).Seconds(), c.timeOfDay(e.At))
	}
}
