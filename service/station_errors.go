package service

import (
	"errors"
	"fmt"
	"time"
)

// The refusals of the command path of a station's record, in the command
// line's words; the console matches them by type and says them in its own.

// ErrMirror: the mirror terminal gives no commands.
var ErrMirror = errors.New("the mirror terminal only reads the record: give commands at another station")

// RoleError: this station's connection may not send the command's role
// (the operator's laptop sends only the operator's commands). Role is the
// role the command was given as: a player's or the arbiter's command is
// given at a record holder. Before, the sentence said "use --as operator"
// also to Black's move given at the laptop, which no role there can give.
type RoleError struct{ StationRole, Role string }

func (e *RoleError) Error() string {
	if e.Role == "" || e.Role == "operator" {
		return fmt.Sprintf("the %s's station gives only the operator's commands: use --as operator", e.StationRole)
	}
	whose := map[string]string{"arbiter": "the arbiter's", "white": "White's", "black": "Black's"}[e.Role]
	if whose == "" {
		whose = e.Role + "'s"
	}
	return fmt.Sprintf("the %s's station gives only the operator's commands, not %s: give %s commands at a record holder (the arbiter's station)", e.StationRole, whose, whose)
}

// NotRunningError: no record holder answers for the station (its station
// process is not running).
type NotRunningError struct{ Station, DB string }

func (e *NotRunningError) Error() string {
	return fmt.Sprintf("station %s is not running: start it with 'arbiter --db %s station serve' and give the command again", e.Station, e.DB)
}

// Refused is a command the authority refused: nothing was written and
// nothing will be for it. Its text is the command line's sentence; Refusal,
// when the match refused it, carries its code and phrase (a *match.Error)
// for the console's words.
type Refused struct {
	Text    string
	Refusal error
}

func (e *Refused) Error() string { return e.Text }

// NotAppliedError: the authority committed the command as event Seq, but
// this station's record did not hold it within Within. It is not a
// refusal: the command stands in the record and will not be undone, so
// giving it again would apply it twice. The command line exits with
// status 3 for it (docs/cli.md, "Exit statuses").
type NotAppliedError struct {
	Seq    uint64
	Within time.Duration
}

func (e *NotAppliedError) Error() string {
	return fmt.Sprintf("the command is committed as event %d at the authority, but this station's record has not caught up within %.0f s: it is not refused, so do not give it again; check 'station status'", e.Seq, e.Within.Seconds())
}

// The ways an operator's credential for an invitation is refused
// (OperatorKeyError.Kind).
const (
	OperatorKeyNotNeeded = iota // an unprotected match: no key file
	OperatorKeyNeeded           // the match has one: its key file is needed
	OperatorKeyWrong            // the key file given is not the match's operator's credential
	OperatorKeyNone             // the match has none: the invitation makes it, no key file
	OperatorKeyNotMade          // registering the new credential through the authority failed (Err)
	// OperatorKeyPassphrase: the match's operator's credential is a
	// passphrase, which no key file holds and so no invitation can carry
	OperatorKeyPassphrase
)

// OperatorKeyError refuses the operator's credential of an invitation.
type OperatorKeyError struct {
	Kind int
	File string
	Err  error
}

func (e *OperatorKeyError) Error() string {
	switch e.Kind {
	case OperatorKeyNotNeeded:
		return "the match is unprotected, so the operator needs no credential: leave out --operator-key"
	case OperatorKeyNeeded:
		return "the match has an operator's credential already: give its key file with --operator-key FILE so that the invitation carries it"
	case OperatorKeyWrong:
		return fmt.Sprintf("%s is not the operator's credential of this match: give the key file the operator's credential was made from", e.File)
	case OperatorKeyNone:
		return "the match has no operator's credential yet; leave out --operator-key and the invitation makes one"
	case OperatorKeyPassphrase:
		return "the match's operator's credential is a passphrase, which an invitation cannot carry: make a key file with 'arbiter credential keygen FILE', hand it out in the passphrase's place with 'arbiter credential add --role operator --key-file FILE' (the arbiter's command), and give it here with --operator-key FILE"
	}
	return fmt.Sprintf("the operator's credential could not be made: %v", e.Err)
}

func (e *OperatorKeyError) Unwrap() error { return e.Err }
