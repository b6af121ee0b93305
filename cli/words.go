package cli

import (
	"arbiter/assets"
	"arbiter/engine"
	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/service"
)

// words is the command line's own table of words (a phrase.Dictionary over
// the shared English one, assets/translations/en.json, which holds the
// words every face shares): the refusals of the core that each face words
// itself (match.Code), for the command line names its own flags and
// commands, and the few texts the console's English words otherwise.
// docs/errors.md explains both.
// brokenRecordAction is what to do with a record that does not verify, as
// the console's banner says it: every refusal of the command line on such a
// record ends with it (verify, export, and every command that writes:
// CodeRecordBroken), rather than sending the user from one command to the
// other.
const brokenRecordAction = "keep this file as it is, tell the appeals board, and continue from a backup"

var words = phrase.Dictionary{
	string(engine.CodeNoCommand):                  "no engine command given: give --cmd with the engine's program, e.g. --cmd /usr/games/stockfish",
	string(engine.CodeNotThere):                   "the engine %s is not there: give --cmd with the path of a UCI engine (e.g. /usr/games/stockfish)",
	string(engine.CodeOptionNotNameValue):         "--option %q is not NAME=VALUE: give e.g. --option Hash=16",
	string(service.CodeNotADatabase):              "the file is not an Arbiter database; give the match's database with --db",
	string(service.CodeNotAStationRecord):         "%s is not a station's record: start one with 'station serve' or 'station join'",
	string(service.CodeStationNotRun):             "station has not run on %s yet: start it with 'station serve'",
	string(service.CodeListenNotHostPort):         "--listen %q is not HOST:PORT",
	string(service.CodeListenPort):                "--listen %q: the port must be a number from 1 to 65534 (the next port is the client port)",
	string(service.CodeNotAStationRole):           "--role %q is not a station role: use organiser, display, operator or mirror",
	string(service.CodeInviteNeedsName):           "station invite needs --name NAME and -o INVITE",
	string(service.CodeNotARunningHolder):         "%s is not a running record holder: start it with 'station serve' first",
	string(service.CodeDamagedRecord):             "the database file is damaged; continue from the latest copy made with 'arbiter backup' and keep the damaged file for the appeals board",
	string(match.CodeRecordBroken):                "the record does not verify (%s), so nothing more is written to it: " + brokenRecordAction,
	string(match.CodeSignNeedsPIN):                "signing the head needs the arbiter's credential: give --pin",
	string(match.CodeNoMatch):                     "this database holds no match yet: create one with 'arbiter match new'",
	string(match.CodeGameOver):                    "game %d is over (%s): start the next game with 'game start'",
	string(match.CodeNoGame):                      "no game is in progress: start one with 'game start'",
	string(match.CodeMatchExists):                 "this database already holds the match %q: use another file with --db",
	string(match.CodeNeedTwoPlayers):              "a match needs two players: give --player NAME twice",
	string(match.CodeComputerNotAPlayer):          "--computer %q is not one of the players %q and %q",
	string(match.CodeOperatorsNeedComputer):       "operators relay moves for a computer: name the computer player with --computer",
	string(match.CodeGamesOutOfRange):             "a match of %d games is not possible: give --games between 1 and 100",
	string(match.CodeControlNeedsName):            "a control for one player needs the player's name before the '=': give --tc \"NAME=SPEC\"",
	string(match.CodeControlNotAPlayer):           "%s is not a player of this match: give --tc \"NAME=SPEC\" with %s or %s, exactly as given with --player",
	string(match.CodeUntimedControl):              "the match needs a timed control, not %q: give e.g. --tc acm1996 or --tc 40/7200:20/3600:1800",
	string(match.CodeWhiteNotAPlayer):             "--white %q is neither player nor \"lots\"",
	string(match.CodeClocksNeedPosition):          "the clocks are given with a start position: add --fen FEN, or leave out --white and --black",
	string(match.CodeBefore1900):                  "the instant %s is before the year 1900: give the instant it happened, in RFC 3339 (1996-02-10T20:00:00Z)",
	string(match.CodeBeforeMatch):                 "the instant %s is earlier than the start of the match (%s): give an instant of the match",
	string(match.CodeFuture):                      "the instant %s is later than the moment the command was received (%s) by more than the clock's uncertainty (%s): nobody records an instant that has not yet come; give the command when it happens, without --at",
	string(match.CodeFutureHere):                  "the instant %s is later than the moment the command was received (%s), on this computer's clock: nobody records an instant that has not yet come; give the command when it happens, without --at",
	string(match.CodeTooLate):                     "the instant %s is more than 5 s before the moment the command was received (%s): on a protected match only the arbiter's credential (--pin, or his --key-file) records an earlier instant",
	string(match.CodeBeforeClock):                 "the instant %s is earlier than the last event of this game's clock (%s): the clock's time never runs back",
	string(match.CodeBeforeRecord):                "the command's time %s is earlier than the last event in the record (%s): time in the record never runs back",
	string(match.CodeBeforeFallenFlag):            "%s's flag fell at %s, before the moment the command was received (%s), and the command claims %s, earlier than the fall by more than the clock's uncertainty (%s): a party's command received after a flag fell never stops that clock before it; if it truly came in time, the arbiter records it with his credential (--pin, or his --key-file)",
	string(match.CodeBeforeFallenFlagHere):        "%s's flag fell at %s, before the moment the command was received (%s), and the command claims %s, before the fall: a party's command received after a flag fell never stops that clock before it; if it truly came in time, the arbiter records it with his credential (--pin, or his --key-file)",
	string(match.CodeNoPressWaiting):              "no clock press is waiting for its move: enter the move without --pressed",
	string(match.CodePressedBeforeMove):           "%s pressed the clock before the move was recorded: enter it with 'move %s --pressed'",
	string(match.CodeClocksStopped):               "the clocks are stopped (%s): the arbiter resumes them with 'resume'",
	string(match.CodeAlreadyPressed):              "%s already pressed: record that move with 'move MOVE --pressed' first",
	string(match.CodePressedRecordFirst):          "%s pressed the clock before the move was recorded: record that move with 'move MOVE --pressed' first",
	string(match.CodeNotAPauseCause):              "%q is not a cause of a pause: give --cause fault, power-failure, unplayable, correction or other",
	string(match.CodePlayerPausesOnlyToCall):      "a player may stop the clocks only to call the arbiter (6.12b): use 'pause --call'",
	string(match.CodeOperatorPausesOnlyToCall):    "the operator may stop the clocks only to call the arbiter: use 'pause --call'",
	string(match.CodePauseNeedsArbiter):           "pause must be given by the arbiter, or by a player with --call",
	string(match.CodeNoPauseForFault):             "rule 7: during a technical fault the computer's clock keeps running on its turn, so the clocks are not stopped for a fault; log it with 'incident technical-fault', or give --cause power-failure or unplayable",
	string(match.CodeAdjustNeedsReason):           "adjust needs --reason: say why the clock is corrected",
	string(match.CodeResultNeedsReason):           "result needs --reason: say why the arbiter decides",
	string(match.CodeNoSuchPly):                   "there is no ply %d to take back: the last recorded ply of game %d is ply %d; give --ply from 1 to %d",
	string(match.CodeNoPlyToAmend):                "there is no ply %d to amend: the last recorded ply of game %d is ply %d; give --ply from 1 to %d",
	string(match.CodeCorrectNeedsReason):          "correct needs --reason: say what went wrong",
	string(match.CodeNotACorrectionCause):         "--cause %q is not a cause: use operator-error (rule 10) or irregularity (6.13)",
	string(match.CodeNotAMethod):                  "--method %q is not a method: use record, proportional, keep or set",
	string(match.CodeReadingsGoWithSet):           "--white and --black go with --method set",
	string(match.CodeSetNeedsReadings):            "--method set needs both readings: --white H:MM:SS --black H:MM:SS, each above zero",
	string(match.CodePassphraseTooShort):          "the passphrase is too short: use at least %d characters (a few words), or a key file made with 'arbiter credential keygen'",
	string(match.CodeNotAKeyFile):                 "this is not an Arbiter key file: make one with 'arbiter credential keygen FILE'",
	string(match.CodeNeedPIN):                     "this match is protected: commands given as the arbiter need the arbiter's PIN: give --pin",
	string(match.CodeNoCredential):                "the %s has no credential: the arbiter gives one with 'credential add', or give the arbiter's --pin",
	string(match.CodeNeedPINOrKey):                "this match is protected: commands given as the arbiter need the arbiter's PIN: give --pin (or --key-file)",
	string(match.CodeNeedCredential):              "this match is protected: commands given as %s need the %s's credential (--secret or --key-file) or the arbiter's --pin",
	string(match.CodeUnprotected):                 "unprotected match: anyone can act as the arbiter and nothing is signed; protect it with 'credential add --role arbiter --secret PASSPHRASE'",
	string(match.CodeCredentialOneOf):             "give the new credential as --secret PASSPHRASE or as --key-file FILE (one of them)",
	string(match.CodePlayerCredentialNeedsRole):   "--player names a player's credential: give --role player with it",
	string(match.CodeCredentialNotAPlayer):        "%q is not a player of this match: give --player %q or --player %q",
	string(match.CodeProtectFirst):                "the match is unprotected: give the arbiter a credential first with 'credential add --role arbiter --secret PASSPHRASE'",
	string(match.CodePINOrKeyNotBoth):             "give the arbiter's credential as --pin PASSPHRASE or as --key-file FILE, not both",
	string(match.CodeIncidentNeedsText):           "incident %s needs --text: describe what happened",
	string(match.CodeFlagBothNeedsOrder):          "'flag both' records Article 6.11: add --order-unknown, or name the side whose flag fell first",
	string(match.CodeBothFlagsRecorded):           "Article 6.11 has already been recorded for both flags: the game continues, and the arbiter decides with 'result' if it cannot go on",
	string(match.CodeOrderUnknownGoesWithBoth):    "--order-unknown goes with 'flag both'",
	string(match.CodeSameInstant):                 "both flags fell at the same instant (%s), so which fell first cannot be established: the arbiter records Article 6.11 with 'flag both --order-unknown'",
	string(match.CodeIncidentTakesNo):             "this kind of incident does not take --%s: leave it out",
	string(match.CodeSayWhere):                    "say where the work is done: --in-hall (in the playing hall) or --remote (from the control room's mirror terminal)",
	string(match.CodeNeedName):                    "give the new person's name with --name",
	string(match.CodeAppealNeedsRefers):           "an appeal contests a decision of the arbiter: give its event number with --refers (see the incident log)",
	string(match.CodeAppealDecisionNeedsRefers):   "an appeal decision closes an appeal: give the appeal's event number with --refers",
	string(match.CodeAppealGameInProgress):        "game %d is still in progress: the appeals board changes results of finished games only; end the game with 'result'",
	string(match.CodeForfeitNeedsReason):          "forfeit needs --reason: say what happened",
	string(match.CodeForfeitNoStart):              "game %d has no scheduled start: start it with 'game start' (White's clock runs, 6.5) or schedule it, then wait %s",
	string(match.CodeAmendNeedsReason):            "amend needs --reason: say what was entered wrongly",
	string(match.CodeAmendNeedsMove):              "amend needs the right move, e.g. 'amend --ply 12 Nf3 --reason ...'",
	string(match.CodeAmendChangesStanding):        "amending %s to %s would change how the game stands (%s): take back with 'correct' or decide with 'result' instead",
	string(match.CodeMatchNewNeedsArbiter):        "match new must be given by the arbiter",
	string(match.CodeNotTheEnginesMove):           "%s is not the engine's move: %s plays %s (an operator's error, rule 10): enter that move, or give --not-engine --reason TEXT to record this one",
	string(match.CodeEngineBridgeRuns):            "an engine bridge already plays for the computer in this match, at %s (process %d, since %s): one engine per match; stop that one there, or, if it is gone (its station died, a technical fault), take over from it with 'engine run … --take-over REASON' on %s's turn",
	string(match.CodeEngineNoneToTakeOver):        "the engine bridge %s is not playing any more: nothing to take over; run 'engine run' without --take-over",
	string(match.CodeEngineReasonWithoutTakeOver): "a reason is given only with --take-over",
	string(match.CodeEngineNotAnswered):           "%s: the engine bridge at %s plays for %s and has not answered for this position yet: wait for the engine's move ('engine status'), or give --not-engine --reason TEXT if this move is meant (rules 9, 10)",
	string(match.CodeNotEngineNeedsReason):        "--not-engine and --reason go together: give both to record a move of the computer that is not its engine's",
	string(match.CodeNotAFlag):                    "flag needs white, black or both, not %q",
	string(match.CodeArriveNeedsPlayer):           "arrive needs --player NAME, the player who arrived at the board",
	// the shared refusals and texts whose English the console words its
	// own way (it names its menu where the command line names the command)
	string(match.CodeGameInProgress): "game %d is still in progress: finish it (result, resign, draw) before starting another",
	"%s; whether %s can still checkmate is undetermined (%s): the arbiter decides the result": "%s; whether %s can still checkmate is undetermined (%s): the arbiter decides the result",
}

// say is the command line's word for s: its own table's, else the shared
// English dictionary's, else s itself.
func say(s string) string {
	if w, ok := words[s]; ok {
		return w
	}
	return assets.Dictionary("en").T(s)
}

// inWords gives a refusal the command line's words as its text, for an
// answer that crosses the network as text (a station's reply, told by the
// sending station's command line); it still unwraps to the refusal.
func inWords(err error) error {
	if err == nil || match.ErrorCode(err) == "" {
		return err
	}
	return worded{err, phrase.Translate(err, say)}
}

type worded struct {
	err  error
	text string
}

func (w worded) Error() string { return w.text }
func (w worded) Unwrap() error { return w.err }
