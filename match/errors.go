package match

import (
	"errors"

	"arbiter/internal/phrase"
)

// Code names a kind of refusal, in the manner of benbjohnson/wtf's error
// codes: faces match on it (never on the text) and choose their words by
// it. The core never chooses a face's words: a refusal whose words differ
// by face (the command line names its flags and commands, the console its
// keys and menus) carries its code and arguments and no words at all, and
// each face holds a table of words for every such code (cli/words.go; the
// console's translations/en.json and de.json, keyed by the code). A refusal
// whose sentence reads the same everywhere ("%s is in check") keeps that
// neutral English sentence as its phrase, with the code [CodeInvalid] or
// [CodeForbidden]; the console translates it by that sentence.
// docs/errors.md lists the codes.
type Code string

// The kinds of refusal with neutral words.
const (
	// CodeInvalid is a refusal of the command as given (bad input, the
	// wrong moment); its phrase is a neutral English sentence.
	CodeInvalid Code = "invalid"
	// CodeForbidden is a refusal for a missing role or credential; it
	// wraps ErrPermission.
	CodeForbidden Code = "forbidden"
	// CodeWrongCredential is a credential that was given and is wrong (the
	// attempt is recorded and backs off); it wraps ErrPermission.
	CodeWrongCredential Code = "wrong-credential"
)

// The refusals each face words itself (cli/words.go, the console's
// translations): arguments in the order of the command line's sentence.
const (
	CodeRecordBroken              Code = "record-does-not-verify"
	CodeSignNeedsPIN              Code = "sign-needs-pin"
	CodeNoMatch                   Code = "no-match"
	CodeGameOver                  Code = "game-over"
	CodeNoGame                    Code = "no-game"
	CodeMatchExists               Code = "match-exists"
	CodeNeedTwoPlayers            Code = "need-two-players"
	CodeComputerNotAPlayer        Code = "computer-not-a-player"
	CodeOperatorsNeedComputer     Code = "operators-need-computer"
	CodeGamesOutOfRange           Code = "games-out-of-range"
	CodeControlNeedsName          Code = "control-needs-player-name"
	CodeControlNotAPlayer         Code = "control-not-a-player"
	CodeUntimedControl            Code = "untimed-control"
	CodeWhiteNotAPlayer           Code = "white-not-a-player"
	CodeClocksNeedPosition        Code = "clocks-need-position"
	CodeNoPressWaiting            Code = "no-press-waiting"
	CodePressedBeforeMove         Code = "pressed-before-move"
	CodeClocksStopped             Code = "clocks-stopped"
	CodeAlreadyPressed            Code = "already-pressed"
	CodePressedRecordFirst        Code = "pressed-record-that-move-first"
	CodeNotAPauseCause            Code = "not-a-pause-cause"
	CodePlayerPausesOnlyToCall    Code = "player-pauses-only-to-call"
	CodeOperatorPausesOnlyToCall  Code = "operator-pauses-only-to-call"
	CodePauseNeedsArbiter         Code = "pause-needs-arbiter"
	CodeNoPauseForFault           Code = "no-pause-for-fault"
	CodeAdjustNeedsReason         Code = "adjust-needs-reason"
	CodeResultNeedsReason         Code = "result-needs-reason"
	CodeNoSuchPly                 Code = "no-such-ply"
	CodeCorrectNeedsReason        Code = "correct-needs-reason"
	CodeNotACorrectionCause       Code = "not-a-correction-cause"
	CodeNotAMethod                Code = "not-a-method"
	CodeReadingsGoWithSet         Code = "readings-go-with-set"
	CodeSetNeedsReadings          Code = "set-needs-readings"
	CodePassphraseTooShort        Code = "passphrase-too-short"
	CodeNotAKeyFile               Code = "not-a-key-file"
	CodeNeedPIN                   Code = "need-pin"
	CodeNoCredential              Code = "no-credential"
	CodeNeedPINOrKey              Code = "need-pin-or-key"
	CodeNeedCredential            Code = "need-credential"
	CodeUnprotected               Code = "unprotected"
	CodeCredentialOneOf           Code = "credential-one-of"
	CodePlayerCredentialNeedsRole Code = "player-credential-needs-role"
	CodeCredentialNotAPlayer      Code = "credential-not-a-player"
	CodeProtectFirst              Code = "protect-first"
	CodePINOrKeyNotBoth           Code = "pin-or-key-not-both"
	CodeIncidentNeedsText         Code = "incident-needs-text"
	CodeFlagBothNeedsOrder        Code = "flag-both-needs-order"
	CodeBothFlagsRecorded         Code = "both-flags-recorded"
	CodeOrderUnknownGoesWithBoth  Code = "order-unknown-goes-with-both"
	CodeSameInstant               Code = "flags-fell-at-same-instant"
	CodeIncidentTakesNo           Code = "incident-does-not-take"
	CodeSayWhere                  Code = "say-where-work-is-done"
	CodeNeedName                  Code = "need-name"
	CodeAppealNeedsRefers         Code = "appeal-needs-refers"
	CodeAppealDecisionNeedsRefers Code = "appeal-decision-needs-refers"
	CodeAppealGameInProgress      Code = "appeal-game-in-progress"
	CodeForfeitNeedsReason        Code = "forfeit-needs-reason"
	CodeForfeitNoStart            Code = "forfeit-no-scheduled-start"
	CodeAmendNeedsReason          Code = "amend-needs-reason"
	CodeAmendNeedsMove            Code = "amend-needs-move"
	CodeAmendChangesStanding      Code = "amend-changes-standing"
	// The bounds on a command's instant (app.go, checkWhen).
	CodeBefore1900  Code = "instant-before-1900"
	CodeBeforeMatch Code = "instant-before-match"
	CodeFuture      Code = "instant-in-the-future"
	CodeTooLate     Code = "instant-too-early-for-a-party"
	CodeBeforeClock Code = "instant-before-clock"
)

// Error is a refusal a user can act on: one sentence, in a face's words,
// saying what was wrong and what to do instead. Nothing was written when a
// command returns it. Its phrase (which it unwraps to) is either a neutral
// English sentence or, for the codes each face words itself, the code and
// arguments only (phrase.Coded); Error() is then the code and arguments,
// which a face shows only when its table lacks the code.
type Error struct {
	Code   Code
	phrase *phrase.Error
	perm   bool // wraps ErrPermission
}

func (e *Error) Error() string { return e.phrase.Error() }

// Args are the arguments the face's words for Code take.
func (e *Error) Args() []any { return e.phrase.Args }

func (e *Error) Unwrap() []error {
	if e.perm {
		return []error{e.phrase, ErrPermission}
	}
	return []error{e.phrase}
}

// ErrorCode is the code of the refusal in err's chain, "" if there is none.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// ErrPermission is wrapped by refusals for a missing role or PIN.
var ErrPermission = errors.New("not permitted")

// refuse makes a refusal from a neutral English format; arguments that are
// phrase.Words (colours, states) or phrase errors are translated with it.
func refuse(format string, args ...any) error {
	return &Error{Code: CodeInvalid, phrase: phrase.Errorf(format, args...)}
}

// forbid refuses a command for a missing role or PIN (it wraps
// ErrPermission), in neutral words.
func forbid(format string, args ...any) error {
	return &Error{Code: CodeForbidden, phrase: phrase.Errorf(format, args...), perm: true}
}

// refuseAs makes a refusal that each face words itself.
func refuseAs(code Code, args ...any) error {
	return &Error{Code: code, phrase: phrase.Coded(string(code), args...)}
}

// forbidAs is refuseAs for a missing role or credential (it wraps
// ErrPermission).
func forbidAs(code Code, args ...any) error {
	return &Error{Code: code, phrase: phrase.Coded(string(code), args...), perm: true}
}

// withCode gives a neutral refusal a code of its own, for faces to match on.
func withCode(code Code, err error) error {
	err.(*Error).Code = code
	return err
}
