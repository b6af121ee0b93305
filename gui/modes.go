package gui

import (
	"time"

	"fyne.io/fyne/v2/widget"

	"arbiter/match"
)

// One console for both sides (issue 27). One person may enter both sides
// at one console: the operator's moves in operator mode, the human's in
// arbiter mode. Arbiter mode, once the PIN was given here, stays unlocked —
// switching back to it asks for nothing — until the arbiter locks it
// (Arbiter → Lock arbiter mode, Ctrl+Shift+L) or it locks itself after a
// period without input he chooses (Arbiter → Lock arbiter mode after…,
// default 10 minutes). Locked, the console is in operator mode and arbiter
// mode asks for the PIN again. Operator mode acts only as the operator: a
// human's action needs arbiter mode (forSide).

// defaultLockAfter is how long arbiter mode stays unlocked without input.
const defaultLockAfter = 10 * time.Minute

// lockChoices are the periods offered under Lock arbiter mode after….
var lockChoices = []time.Duration{2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour}

// unlocked reports whether arbiter mode is open to this console without
// asking: the match is unprotected, or the arbiter's PIN was given here
// and arbiter mode has not been locked since.
func (c *console) unlocked() bool {
	m := c.state().Match
	return m == nil || !m.Protected() || (c.pin != "" && m.CheckPIN(c.pin))
}

// touch notes input at the console: arbiter mode locks itself only after
// lockAfter without any.
func (c *console) touch() { c.lastInput = c.now() }

// armIdleLock arms the timer that locks arbiter mode after lockAfter
// without input, whenever it is unlocked with a PIN (nothing to lock on an
// unprotected match); refresh calls it.
func (c *console) armIdleLock() {
	m := c.state().Match
	if c.idleArmed || c.pin == "" || m == nil || !m.Protected() {
		return
	}
	c.idleArmed = true
	c.idleGen++
	gen := c.idleGen
	rest := max(c.lockAfter-c.now().Sub(c.lastInput), time.Second)
	c.after(rest, func() {
		c.ui(func() {
			if gen == c.idleGen { // else a newer timer stands for it
				c.idleCheck()
			}
		})
	})
}

// idleCheck locks arbiter mode when no input came for lockAfter, else arms
// itself for the rest of the period. An open dialog counts as input.
func (c *console) idleCheck() {
	c.idleArmed = false
	m := c.state().Match
	if c.pin == "" || m == nil || !m.Protected() {
		return
	}
	if len(c.dialogs) > 0 {
		c.touch()
	}
	if c.lockAfter > c.now().Sub(c.lastInput) {
		c.armIdleLock()
		return
	}
	c.lockArbiter()
}

// lockArbiter locks arbiter mode: the console goes to operator mode and
// asks for the PIN before the next arbiter action. The operator's commands
// entered here keep the credential the arbiter gave (cmdAs).
func (c *console) lockArbiter() {
	c.lent = false
	c.pin = ""
	c.mode = match.RoleOperator
	c.refresh()
}

// lockAfterDialog asks how long arbiter mode stays unlocked without input.
func (c *console) lockAfterDialog() {
	var labels []string
	chosen := ""
	for _, d := range lockChoices {
		l := tr("%d minutes", int(d/time.Minute))
		labels = append(labels, l)
		if d == c.lockAfter {
			chosen = l
		}
	}
	sel := widget.NewRadioGroup(labels, nil)
	sel.Required = true
	sel.SetSelected(chosen)
	c.formDialog(translate("Lock arbiter mode after"), translate("OK"), []*widget.FormItem{
		widget.NewFormItem(translate("Without input for"), sel),
	}, func() error {
		for i, l := range labels {
			if l == sel.Selected {
				c.lockAfter = lockChoices[i]
			}
		}
		c.saveSettings()
		c.idleArmed = false
		c.armIdleLock() // counted with the new period
		c.refreshWhere()
		return nil
	})
}
