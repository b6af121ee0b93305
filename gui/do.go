package gui

import (
	"time"

	"arbiter/match"
)

// The console gives every command one way: it builds the command's value
// (match.Command) from its keys and dialogs and calls give, which hands it
// to the console's executor — the core on this machine (runHere), or the
// station's authority on a station's record (sendToAuthority, forward.go).
// Either tells done the same typed result (match.Result), which the console
// words itself in its own language; no action asks which executor runs it.

// executor runs cmd given as actor a at instant a of the console's time
// source, and tells done the result on the console's thread.
type executor func(a match.Actor, at time.Time, cmd match.Command, done func(match.Result, error))

// give gives cmd as actor a at instant at; done is told the outcome (nil: a
// refusal is shown in a dialog).
func (c *console) give(a match.Actor, at time.Time, cmd match.Command, done func(match.Result, error)) {
	if done == nil {
		done = c.showRefusal
	}
	c.executor()(a, at, cmd, done)
}

// showRefusal shows a refusal (nothing on success).
func (c *console) showRefusal(_ match.Result, err error) { c.showError(err) }

// executor is who runs the console's commands: the authority of a station's
// record (except the mirror's, which gives none), else the core here.
func (c *console) executor() executor {
	if c.forwards() {
		return c.sendToAuthority
	}
	return c.runHere
}

// runHere runs cmd on this machine's record, at once.
func (c *console) runHere(a match.Actor, at time.Time, cmd match.Command, done func(match.Result, error)) {
	by := c.cmdAs(a)
	by.At = at
	res, err := c.core.Do(c.ctx, by, cmd)
	if err != nil && c.where != nil {
		c.refreshWhere() // a refusal is one sentence: no warning of the command before stays beside it
	}
	done(res, err)
}

// giveFromDialog gives a dialog's command now. A refusal that comes at once
// (the core here, or a field the command refuses before it is sent) is
// returned, for the dialog to show while it stays open; then is told the
// result of a command done, after the dialog closed. A refusal the
// authority gives later is shown in a dialog of its own (the form cannot
// wait for the authority).
func (c *console) giveFromDialog(a match.Actor, cmd match.Command, then func(match.Result)) error {
	return c.giveAtFromDialog(a, c.now(), cmd, then)
}

// giveAtFromDialog is giveFromDialog for a command given at an instant the
// dialog took (the clocks stop at the instant the arbiter asked).
func (c *console) giveAtFromDialog(a match.Actor, at time.Time, cmd match.Command, then func(match.Result)) error {
	answered, refusal := false, error(nil)
	var res match.Result
	waiting := true
	c.give(a, at, cmd, func(r match.Result, err error) {
		if waiting {
			answered, res, refusal = true, r, err
			return
		}
		if err != nil {
			c.showError(err)
			return
		}
		if then != nil {
			then(r)
		}
	})
	waiting = false
	if !answered || refusal != nil {
		return refusal
	}
	if then != nil {
		c.afterDialog(func() { then(res) })
	}
	return nil
}

// moved shows what a move did, or its refusal under the move field.
func (c *console) moved(res match.Result, err error) {
	if err != nil {
		c.noteWriteError(err)
		c.setMoveError(c.explain(err))
		c.moveEntry.SelectAll() // the next move typed replaces the refused one
		return
	}
	c.setMoveError("")
	c.moveEntry.SetText("")
	c.board.selected = -1
	c.board.show(c.game(), c.flipped)
	c.focusMove() // the next move can be typed at once
	if m, ok := res.Moved(); ok && m.Ended {
		end, _ := res.Ended()
		c.info(translate("Game over"), tr("%s: the game is over, %s (%s).", m.SAN, m.Result, translate(end.Termination)))
	}
}

// flagged shows the verdict on a fallen flag (Articles 6.8, 6.9).
func (c *console) flagged(res match.Result, err error) {
	if err != nil {
		c.showError(err)
		return
	}
	c.refresh() // the game's end shows behind the verdict at once
	if v, ok := res.Verdict(); ok && v.Why != nil {
		c.info(translate("Flag"), capitalFirst(say(v.Why)))
	}
}

// logged shows what an incident printed (a setup card, rule 12).
func (c *console) logged(res match.Result) {
	if card, ok := res.SetupCard(c.state(), translate); ok {
		c.info(translate("Incident"), card)
	}
}

// claimed shows the ruling on a claim of a draw.
func (c *console) claimed(res match.Result) {
	if r, ok := res.Ruling(); ok {
		ruling := r.Ruling
		if r.Why != nil {
			ruling = say(r.Why) // in the console's language
		}
		c.info(translate("Claim"), ruling)
	}
}

// focusAfter shows a refusal, else puts the focus on the move field.
func (c *console) focusAfter(_ match.Result, err error) {
	if err != nil {
		c.showError(err)
		return
	}
	c.focusMove()
}
