package gui

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"arbiter/match"
	"arbiter/service"
)

// A console on a station's record (docs/stations.md, "The console") gives
// its commands through the station: each is sent to the authority with the
// console's credential and the instant stamped where it was given (the
// console's time source plus the station's offset to the authority), as
// the command's value (the same command path as 'arbiter --db FILE …',
// service.Link.Send), one at a time in the order given; the console
// words the result once its record holds the command. It keeps one
// link to the authority for as long as it is open (its offset estimated in
// the background, the keys it unlocked kept in memory), so that no dial,
// no estimate and no argon2id stands between a press and its request. The
// mirror's console gives none.

// sendItem is one command waiting to be sent; prepare: only unlock the
// actor's credential ahead of its commands; check: check the actor's
// credential for arbiter mode (a wrong one is reported to the authority);
// stop: close the link.
type sendItem struct {
	a                    match.Actor
	at                   time.Time
	cmd                  match.Command
	done                 func(service.StationResult, error)
	prepare, check, stop bool
}

// forwards reports whether this console sends its commands to the
// authority (a station's record that is not the mirror's).
func (c *console) forwards() bool { return c.stationRole != "" && c.stationRole != "mirror" }

// sendFor gives cmd as actor a, pressed at the instant at on the
// console's time source, through the station; done is told the authority's
// answer (what the command did, as this record holds it) on the console's
// thread once the record holds the command.
func (c *console) sendFor(a match.Actor, at time.Time, cmd match.Command, done func(service.StationResult, error)) {
	a = c.cmdAs(a).Actor // the PIN the console holds, as for a local command
	c.queue(sendItem{a: a, at: at, cmd: cmd, done: done})
}

// queue starts the console's sender the first time and queues it.
func (c *console) queue(it sendItem) {
	if c.sendq == nil {
		c.sendq = make(chan sendItem, 64)
		c.senderDone = make(chan struct{})
		go c.sender(c.sendq, c.senderDone)
	}
	c.sending.Add(1)
	c.sendq <- it
}

// prepareLink connects the console to the authority ahead of its first
// command and unlocks the credentials it holds (the arbiter's PIN, the PIN
// the arbiter gave for the operator's and players' commands), so that the
// first press is sent as fast as the next (the console opens on a station's
// record, the arbiter gives his PIN).
func (c *console) prepareLink() {
	if !c.forwards() {
		return
	}
	c.queue(sendItem{a: c.arbiter(), prepare: true})
	if c.hallPIN != "" && c.hallPIN != c.pin {
		c.queue(sendItem{a: match.Actor{Role: match.RoleOperator, PIN: c.hallPIN}, prepare: true})
	}
}

// closeLink stops the sender and closes its link (the console closes).
func (c *console) closeLink() {
	if c.sendq == nil {
		return
	}
	c.queue(sendItem{stop: true})
	select {
	case <-c.senderDone:
	case <-time.After(3 * time.Second): // a command's answer waits for the window, which is gone
	}
	c.sendq = nil
}

// sender sends the queued commands one after another on the console's
// link, dialled once (again only when a dial failed: the link itself
// reconnects when the connection drops).
func (c *console) sender(q chan sendItem, done chan struct{}) {
	defer close(done)
	path := c.recordPath()
	var l *service.Link
	defer func() {
		if l != nil {
			l.Close()
		}
	}()
	for it := range q {
		if it.stop {
			c.sending.Done()
			return
		}
		var err error
		if l == nil {
			l, err = service.Dial(c.ctx, path, c.now)
			// ahead of the commands the console waits for its station to
			// start (the console runs it) for a while
			for deadline := time.Now().Add(30 * time.Second); err != nil && (it.prepare || it.check) && time.Now().Before(deadline) && c.ctx.Err() == nil; {
				time.Sleep(200 * time.Millisecond)
				l, err = service.Dial(c.ctx, path, c.now)
			}
		}
		g := service.Global{DB: path, Role: it.a.Role, PIN: it.a.PIN, Secret: it.a.Secret}
		if it.prepare {
			if err == nil {
				_ = l.Prepare(c.ctx, service.StationCommand{G: g, RoleGiven: true, Key: it.a.Key}) // its command says what is wrong
			}
			c.sending.Done()
			continue
		}
		// While no authority answers (a failover takes seconds) the command
		// waits, retried with its id; the status line says so meanwhile.
		waiting := func(string) {
			c.ui(func() {
				c.warning = "⚠ " + translate("No authority answers yet: the command waits for one.")
				c.refreshWhere()
			})
		}
		var res service.StationResult
		switch {
		case err != nil:
		case it.check:
			// the role as the station may send it: on the operator's laptop
			// the operator's, with the arbiter's PIN
			res, err = l.CheckCredential(c.ctx, service.StationCommand{G: g, Key: it.a.Key, Pressed: it.at, Now: c.now, Notice: waiting})
		default:
			res, err = l.Send(c.ctx, service.StationCommand{Cmd: it.cmd, G: g, RoleGiven: true, Key: it.a.Key,
				Pressed: it.at, Now: c.now, Notice: waiting})
		}
		c.ui(func() {
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
				it.done(res, err)
			} else if err != nil {
				c.showError(err)
			}
		})
	}
}

// stationWords is, on a station's record, the console's sentence for a
// refusal of the command path (service.Link.Send); ok is false for other
// errors.
func stationWords(err error) (string, bool) {
	var refused *service.Refused
	var role *service.RoleError // only the operator's laptop has one
	var down *service.NotRunningError
	var opKey *service.OperatorKeyError
	var notApplied *service.NotAppliedError // committed, never said as refused
	switch {
	case errors.As(err, &refused):
		if refused.Refusal != nil {
			return sentence(refused.Refusal), true // the match's refusal in the console's words
		}
		return sentence(errors.New(refused.Text)), true
	case errors.As(err, &role):
		return translate("The operator's station gives only the operator's commands: switch to operator mode (Ctrl+M)."), true
	case errors.As(err, &down):
		return fmt.Sprintf(translate("Station %s is not running, so the command was not sent: start it with 'arbiter --db %s station serve' and give the command again."), down.Station, down.DB), true
	case errors.As(err, &opKey):
		switch opKey.Kind {
		case service.OperatorKeyNotNeeded:
			return translate("The match is unprotected, so the operator needs no credential: leave the operator's key file empty."), true
		case service.OperatorKeyNeeded:
			return translate("The match has an operator's credential already: give its key file as the operator's key file, so that the invitation carries it."), true
		case service.OperatorKeyWrong:
			return fmt.Sprintf(translate("%s is not the operator's credential of this match: give the key file the operator's credential was made from."), opKey.File), true
		case service.OperatorKeyNone:
			return translate("The match has no operator's credential yet: leave the operator's key file empty and the invitation makes one."), true
		case service.OperatorKeyPassphrase:
			return translate("The match's operator's credential is a passphrase, which an invitation cannot carry: make a key file with 'arbiter credential keygen FILE', hand it out in the passphrase's place with 'arbiter credential add --role operator --key-file FILE', and give it as the operator's key file."), true
		}
		why, ok := stationWords(opKey.Err)
		if !ok {
			why = sentence(opKey.Err)
		}
		return fmt.Sprintf(translate("The operator's credential could not be made: %s"), why), true
	case errors.Is(err, service.ErrMirror):
		return translate("The mirror terminal only reads the record: give commands at another station."), true
	case errors.As(err, &notApplied):
		return fmt.Sprintf(translate("The command is committed as event %d at the authority, but this station's record has not caught up within %d s: it is not refused, so do not give it again; see Match → Stations…."), notApplied.Seq, int(notApplied.Within.Seconds())), true
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

// sendToAuthority is the executor of a console on a station's record: the
// command's value is sent to the authority, stamped at; its result is what
// the command did as this station's record holds it (match.ResultOf). A
// command whose fields are refused is refused here, before anything is
// sent.
func (c *console) sendToAuthority(a match.Actor, at time.Time, cmd match.Command, done func(match.Result, error)) {
	if err := cmd.Validate(); err != nil {
		done(match.Result{}, err)
		return
	}
	c.sendFor(a, at, cmd, func(res service.StationResult, err error) { done(res.Result, err) })
}

// errWrongStationPIN: the PIN given at a station's console is not the
// arbiter's.
var errWrongStationPIN = errors.New("the PIN is not the arbiter's")

// checkArbiterPIN checks the arbiter's PIN the console is given and tells
// done the outcome on the console's thread. A local record's core checks
// it, recording a wrong one and backing off. A station's record is read
// only here, so the console checks it through its link, in turn with its
// commands (service.Link.CheckCredential): refused without trying during
// the back-off its replica holds, a right one at once and sent nowhere, a
// wrong one reported to the authority (whose credential, not what was
// typed), which records it as auth.fail and backs off as on one machine;
// it is refused once its record holds that. The mirror's connection sends
// nothing, and an older record's SHA-256 PIN cannot be checked at the
// authority without sending it: those are checked against the replica's
// match and a wrong one is not recorded (docs/stations.md). The attempt
// is the console's mode's (pinTriedBy): typed at the operator's console, it
// is recorded as tried by the operator against the arbiter's credential.
func (c *console) checkArbiterPIN(pin string, done func(error)) {
	by := match.Actor{Role: c.pinTriedBy(), PIN: pin}
	if c.stationRole == "" {
		c.runHere(by, c.now(), match.CredentialCheck{}, func(_ match.Result, err error) { done(err) })
		return
	}
	m := c.state().Match
	if !c.forwards() || m == nil || m.Credential == nil {
		if m != nil && !m.CheckPIN(pin) {
			done(errWrongStationPIN)
			return
		}
		done(nil)
		return
	}
	c.queue(sendItem{a: by, at: c.now(), check: true,
		done: func(_ service.StationResult, err error) { done(err) }})
}

// pinTriedBy is who tries the arbiter's PIN typed at this console: the
// operator at a console in operator mode (the operator's laptop, or any
// console in operator mode in a match with a computer), else the arbiter.
func (c *console) pinTriedBy() match.Role {
	if m := c.state().Match; c.stationRole == "operator" || (c.mode == match.RoleOperator && m != nil && m.Computer != "") {
		return match.RoleOperator
	}
	return match.RoleArbiter
}

// wrongCredential reports whether err refuses a wrong credential, or one
// tried during its back-off, here or at the authority.
func wrongCredential(err error) bool {
	code := match.ErrorCode(err)
	if refused := (*service.Refused)(nil); errors.As(err, &refused) {
		code = match.ErrorCode(refused.Refusal)
	}
	return code == match.CodeWrongCredential || code == match.CodeTooManyWrong
}
