package match

import (
	"errors"
	"time"

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
	// CodeTooManyWrong is a credential tried during the back-off after
	// wrong ones: it was not checked, and nothing is recorded; it wraps
	// ErrPermission.
	CodeTooManyWrong Code = "too-many-wrong-credentials"
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
	CodeNotAFlag                  Code = "not-a-flag-side"
	CodeMatchNewNeedsArbiter      Code = "match-new-needs-arbiter"
	CodeNotTheEnginesMove         Code = "not-the-engines-move"
	CodeNotEngineNeedsReason      Code = "not-engine-needs-reason"
	CodeArriveNeedsPlayer         Code = "arrive-needs-player"
	// The bounds on a command's instant (app.go, checkWhen).
	CodeBefore1900   Code = "instant-before-1900"
	CodeBeforeMatch  Code = "instant-before-match"
	CodeFuture       Code = "instant-in-the-future"
	CodeTooLate      Code = "instant-too-early-for-a-party"
	CodeBeforeClock  Code = "instant-before-clock"
	CodeBeforeRecord Code = "instant-before-record"
	// A party's command received after a flag fell that would stop that
	// clock before it (flagDue.check).
	CodeBeforeFallenFlag Code = "instant-before-a-fallen-flag"
	// The words of CodeFuture and CodeBeforeFallenFlag where the receipt
	// is this machine's own clock (the uncertainty none: refuseWithin):
	// not codes a refusal carries, but the keys of their sentences.
	CodeFutureHere           Code = "instant-in-the-future-here"
	CodeBeforeFallenFlagHere Code = "instant-before-a-fallen-flag-here"
)

// The refusals every face words alike (the shared dictionary,
// assets/translations: the words are the same on the command line and in
// the console; SharedCodes lists them): arguments in the order of their
// English words.
const (
	CodeAllGamesPlayed            Code = "all-games-played"
	CodeAlreadyStopped            Code = "clocks-already-stopped"
	CodeAppealDecided             Code = "appeal-already-decided"
	CodeArrivalAhead              Code = "arrival-ahead"
	CodeArrivedAlready            Code = "arrived-already"
	CodeBadTimeControl            Code = "bad-time-control"
	CodeBothFlagsNotFallen        Code = "both-flags-not-fallen"
	CodeCannotAmend               Code = "cannot-amend"
	CodeCannotCorrectClock        Code = "cannot-correct-clock"
	CodeCannotPostpone            Code = "cannot-postpone"
	CodeCannotSchedule            Code = "cannot-schedule"
	CodeCannotStart               Code = "cannot-start"
	CodeCannotTakeBack            Code = "cannot-take-back"
	CodeClaimNotYourMove          Code = "claim-not-your-move"
	CodeClockRunning              Code = "clock-already-running"
	CodeComputersClockRuns        Code = "computers-clock-runs"
	CodeCorrectionTooLarge        Code = "correction-too-large"
	CodeCredentialAddNeedsArbiter Code = "credential-add-needs-arbiter"
	CodeCredentialNotMadeHere     Code = "credential-not-made-here"
	CodeFENMoveNumber             Code = "fen-move-number"
	CodeFlagNotFallen             Code = "flag-not-fallen"
	CodeFlagOrderUnknown          Code = "flag-order-unknown"
	CodeForfeitTooEarly           Code = "forfeit-too-early"
	CodeGameInProgress            Code = "game-in-progress"
	CodeGameNumberOutOfRange      Code = "game-number-out-of-range"
	CodeHumansTurn                Code = "humans-turn"
	CodeIncidentNeedsGame         Code = "incident-needs-game"
	CodeKeyFileDamaged            Code = "key-file-damaged"
	CodeMalformedCommand          Code = "malformed-command"
	CodeMethodImpossible          Code = "method-impossible"
	CodeMoveCounterOutOfRange     Code = "move-counter-out-of-range"
	CodeMoveNotLegal              Code = "move-not-legal"
	CodeNegativeClock             Code = "negative-clock"
	CodeNegativeForfeitTime       Code = "negative-forfeit-time"
	CodeNoCommand                 Code = "no-command"
	CodeNoCommandKind             Code = "no-command-kind"
	CodeNoComputer                Code = "no-computer-player"
	CodeNoDrawOffer               Code = "no-draw-offer"
	CodeNoGameToForfeit           Code = "no-game-to-forfeit"
	CodeNoGameToReset             Code = "no-game-to-reset"
	CodeNoKeyToSignHead           Code = "no-key-to-sign-head"
	CodeNoOperator                Code = "no-operator"
	CodeNoOperatorCredential      Code = "no-operator-credential"
	CodeNoPlyToAmend              Code = "no-ply-to-amend"
	CodeNoMovesYet                Code = "no-moves-yet" // correct or amend on a game with no move recorded
	CodeNoRecordToAmend           Code = "no-record-to-amend"
	CodeNoScheduledStart          Code = "no-scheduled-start"
	CodeNoSuchGame                Code = "no-such-game"
	CodeNotAClaim                 Code = "not-a-claim"
	CodeNotACommandKind           Code = "not-a-command-kind"
	CodeNotACredentialRole        Code = "not-a-credential-role"
	CodeNotAPosition              Code = "not-a-position"
	CodeNotAResult                Code = "not-a-result"
	CodeNotARuling                Code = "not-a-ruling"
	CodeNotATimeZone              Code = "not-a-time-zone"
	CodeNotAnAppeal               Code = "not-an-appeal"
	CodeNotAnIncidentKind         Code = "not-an-incident-kind"
	CodeNotAnObject               Code = "command-not-an-object"
	CodeNotCanonical              Code = "command-not-canonical"
	CodeNotARole                  Code = "not-a-role"
	CodeNotPlayerOfGame           Code = "not-a-player-of-the-game"
	CodeNotYourSide               Code = "not-your-side"
	CodeNothingToAmend            Code = "nothing-to-amend"
	CodeNothingToPress            Code = "nothing-to-press"
	CodeOfferOpen                 Code = "draw-offer-open"
	CodeOwnOfferAccept            Code = "own-draw-offer-accept"
	CodeOwnOfferDecline           Code = "own-draw-offer-decline"
	CodeOlderPIN                  Code = "older-pin-record"
	CodeOperatorOnlyForComputer   Code = "operator-only-for-computer"
	CodeOwnFlagFirst              Code = "own-flag-fell-first"
	CodePassphraseNotUTF8         Code = "passphrase-not-utf8"
	CodePeriodOutOfRange          Code = "period-out-of-range"
	CodePlayerHasMoved            Code = "player-has-moved"
	CodePlayerArrived             Code = "player-arrived-in-time"
	CodePositionOver              Code = "position-already-over"
	CodeRecordGrew                Code = "record-grew-while-signing"
	CodeRegistrationUnsigned      Code = "registration-unsigned"
	CodeRequestOtherRecord        Code = "request-signed-on-another-record"
	CodeSamePlayerNames           Code = "same-player-names"
	CodeStartClockOutOfRange      Code = "start-clock-out-of-range"
	CodeTextEmpty                 Code = "text-empty"
	CodeTextInvalid               Code = "text-not-valid-utf8"
	CodeTextNUL                   Code = "text-contains-nul"
	CodeTextNotUTF8               Code = "text-not-utf8"
	CodeTextTooLong               Code = "text-too-long"
	CodeTimeInfoOnComputersTurn   Code = "time-info-on-computers-turn"
	CodeUnknownTimeZone           Code = "unknown-time-zone"
	CodeWrongClockRunning         Code = "wrong-clock-running"
	CodeWrongRole                 Code = "wrong-role"
	CodeEngineMoveIncomplete      Code = "engine-move-incomplete"
	CodeEngineMoveStale           Code = "engine-move-stale"
	CodeEngineMoveNotComputers    Code = "engine-move-not-computers-turn"
	CodeNotEngineOnlyComputer     Code = "not-engine-only-computer"
	CodeEngineReadFuture          Code = "engine-move-read-in-the-future"
	CodeEngineReadFutureHere      Code = "engine-move-read-in-the-future-here" // its words on one machine (refuseWithin)
	CodeEngineReadBeforeGame      Code = "engine-move-read-before-game"
	// One bridge per match (bridge.go): the shared words first, then the
	// ones naming the command line's flags (--take-over, --not-engine).
	CodeEngineBridgeIDMalformed     Code = "engine-bridge-id-malformed"
	CodeEngineStationNotSender      Code = "engine-station-not-sender"
	CodeEngineBridgeStarted         Code = "engine-bridge-started"
	CodeEngineBridgeNotPlaying      Code = "engine-bridge-not-playing"
	CodeEngineBridgeRuns            Code = "engine-bridge-runs"
	CodeEngineNoneToTakeOver        Code = "engine-none-to-take-over"
	CodeEngineReasonWithoutTakeOver Code = "engine-reason-without-take-over"
	CodeEngineNotAnswered           Code = "engine-not-answered"
)

// SharedCodes are the refusals every face words alike (above): the command
// line's table need not word them.
var SharedCodes = []Code{
	CodeAllGamesPlayed, CodeAlreadyStopped, CodeAppealDecided, CodeArrivalAhead, CodeArrivedAlready, CodeBadTimeControl,
	CodeBothFlagsNotFallen, CodeCannotAmend, CodeCannotCorrectClock, CodeCannotPostpone,
	CodeCannotSchedule, CodeCannotStart, CodeCannotTakeBack, CodeClaimNotYourMove, CodeClockRunning,
	CodeComputersClockRuns, CodeCorrectionTooLarge, CodeCredentialAddNeedsArbiter,
	CodeCredentialNotMadeHere, CodeFENMoveNumber, CodeFlagNotFallen, CodeFlagOrderUnknown,
	CodeForfeitTooEarly, CodeGameInProgress, CodeGameNumberOutOfRange, CodeHumansTurn,
	CodeIncidentNeedsGame, CodeKeyFileDamaged, CodeMalformedCommand,
	CodeMethodImpossible, CodeMoveCounterOutOfRange, CodeMoveNotLegal, CodeNegativeClock,
	CodeNegativeForfeitTime, CodeNoCommand, CodeNoCommandKind, CodeNoComputer, CodeNoDrawOffer,
	CodeNoGameToForfeit, CodeNoGameToReset, CodeNoKeyToSignHead, CodeNoOperator,
	CodeNoOperatorCredential, CodeNoPlyToAmend, CodeNoMovesYet, CodeNoRecordToAmend, CodeNoScheduledStart,
	CodeNoSuchGame, CodeNotAClaim, CodeNotACommandKind, CodeNotACredentialRole,
	CodeNotAPosition, CodeNotAResult, CodeNotARuling, CodeNotATimeZone, CodeNotAnAppeal,
	CodeNotAnIncidentKind, CodeNotAnObject, CodeNotCanonical, CodeNotARole, CodeNotPlayerOfGame, CodeNotYourSide, CodeNothingToAmend, CodeNothingToPress,
	CodeOfferOpen, CodeOwnOfferAccept, CodeOwnOfferDecline, CodeOlderPIN, CodeOperatorOnlyForComputer, CodeOwnFlagFirst, CodePassphraseNotUTF8,
	CodePeriodOutOfRange, CodePlayerArrived, CodePlayerHasMoved, CodePositionOver, CodeRecordGrew,
	CodeRegistrationUnsigned, CodeRequestOtherRecord, CodeSamePlayerNames, CodeStartClockOutOfRange, CodeTextEmpty,
	CodeTextInvalid, CodeTextNUL, CodeTextNotUTF8, CodeTextTooLong, CodeTimeInfoOnComputersTurn,
	CodeUnknownTimeZone, CodeWrongClockRunning, CodeWrongRole,
	CodeEngineMoveIncomplete, CodeEngineMoveStale, CodeEngineMoveNotComputers, CodeNotEngineOnlyComputer,
	CodeEngineReadFuture, CodeEngineReadFutureHere, CodeEngineReadBeforeGame,
	CodeEngineBridgeIDMalformed, CodeEngineStationNotSender, CodeEngineBridgeStarted, CodeEngineBridgeNotPlaying,
}

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

// refuseWithin is refuseAs for a refusal that states the receiving
// clock's uncertainty tol as its last argument: with none (tol 0: a
// command given on this machine, read on the clock it is received on) the
// refusal keeps its code but is said by here's words, which name no
// uncertainty (before, "… by more than the clock's uncertainty (0s)").
func refuseWithin(code, here Code, tol time.Duration, args ...any) error {
	if tol == 0 {
		return &Error{Code: code, phrase: phrase.Coded(string(here), args...)}
	}
	return refuseAs(code, append(args, tol.String())...)
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
