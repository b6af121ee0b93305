package station

import (
	"arbiter/internal/phrase"
	"arbiter/match"
)

// The alarm (AlarmError) and a head signature the record does not take
// (HeadError) are said as phrases, as a record's verification problems are
// (match/problems.go): AlarmError.Why and HeadError.Why are the code and
// its arguments, the reason itself a phrase, which each face says in its
// words (the command line and the log in English, Error(); the console in
// its language, from Status.AlarmWhy and Seen.AlarmWhy). The English of
// each code is below, byte for byte the sentences the alarm said before it
// was a code; en.json holds it under the same code, de.json in German
// (TestEveryAlarmHasItsWordsInBothDictionaries). A reason that quotes
// another error (an unreadable message, a store refusal) keeps that
// error's words: a phrase is translated, the rest stays as it was.
const (
	// the alarm: an event from the stream does not fit, or the file was
	// changed behind the station; its argument is the reason
	CodeAlarmStream match.Code = "station-alarm-stream"
	CodeAlarmFile   match.Code = "station-alarm-file"

	// why an event from the stream does not fit
	CodeAlarmRecordEnds      match.Code = "station-alarm-record-ends"
	CodeAlarmPrev            match.Code = "station-alarm-prev"
	CodeAlarmAnotherEvent    match.Code = "station-alarm-another-event"
	CodeAlarmComputes        match.Code = "station-alarm-computes"
	CodeAlarmSignaturesUnfit match.Code = "station-alarm-signatures-unfit"
	CodeAlarmSignatureFails  match.Code = "station-alarm-signature-fails"
	CodeAlarmUnreadable      match.Code = "station-alarm-unreadable"
	CodeAlarmParts           match.Code = "station-alarm-parts"
	CodeAlarmSaysEvent       match.Code = "station-alarm-says-event"
	CodeAlarmHash            match.Code = "station-alarm-hash"
	CodeAlarmBreaksOff       match.Code = "station-alarm-breaks-off"
	CodeAlarmStartMissing    match.Code = "station-alarm-start-missing"
	CodeAlarmPlaced          match.Code = "station-alarm-placed"
	CodeAlarmOwnEvent        match.Code = "station-alarm-own-event"
	CodeAlarmNotPlayable     match.Code = "station-alarm-not-playable"

	// why the file was changed behind the station
	CodeFileLost    match.Code = "station-alarm-file-lost"
	CodeFileOther   match.Code = "station-alarm-file-other"
	CodeFileEdited  match.Code = "station-alarm-file-edited"
	CodeFileDamaged match.Code = "station-alarm-file-damaged"

	// a head signature from the heads stream this record does not take
	// (its argument the reason: below, or match's CodeHead*)
	CodeHeadNotTaken  match.Code = "station-head-not-taken"
	CodeHeadBeyond    match.Code = "station-head-beyond"
	CodeHeadOtherHash match.Code = "station-head-other-hash"
)

// alarms are the alarm's and the head refusals' English words (the shared
// dictionary's).
var alarms = phrase.Table[match.Code]{
	CodeAlarmStream: "event %d from the stream does not fit this record (%s): this station stopped applying; keep both records for the appeals board and join again with a new invitation",
	CodeAlarmFile:   "this station's record file was changed behind it (%s): this station stopped applying; keep the file for the appeals board and join again with a new invitation",

	CodeAlarmRecordEnds:      "the record ends at event %d",
	CodeAlarmPrev:            "its prev is not the record's head",
	CodeAlarmAnotherEvent:    "the record holds another event %d",
	CodeAlarmComputes:        "the record computes event %d with hash %s…",
	CodeAlarmSignaturesUnfit: "its signatures do not fit the record: %v",
	CodeAlarmSignatureFails:  "its signature does not hold: %s",
	CodeAlarmUnreadable:      "unreadable event message: %v",
	CodeAlarmParts:           "event %d: part %d of %d",
	CodeAlarmSaysEvent:       "it says it is event %d",
	CodeAlarmHash:            "its hash is not its own",
	CodeAlarmBreaksOff:       "it breaks off command %s after part %d of %d",
	CodeAlarmStartMissing:    "it is part %d of a command whose start is missing",
	CodeAlarmPlaced:          "the stream placed the command at event %d, the record at %d",
	CodeAlarmOwnEvent:        "the record's own event does not continue the chain",
	CodeAlarmNotPlayable:     "it cannot be played on the match: %v",

	CodeFileLost:    "it no longer holds event %d, the last this station wrote",
	CodeFileOther:   "its event %d is not the one this station wrote",
	CodeFileEdited:  "its event %d (%s) was edited: the hash recomputed from what the file holds is not the event's",
	CodeFileDamaged: "SQLite finds it damaged",

	CodeHeadNotTaken:  "the head signature of event %d from the heads stream is not taken: %s",
	CodeHeadBeyond:    "the record holds %d events, not event %d",
	CodeHeadOtherHash: "it signs another hash than the record's event %d",
}

// AlarmCodes lists the alarm's codes and its reasons', and a head
// signature's refusals (the station's own; match's CodeHead* are the
// record's).
func AlarmCodes() []match.Code { return alarms.Codes() }

// AlarmPhrase is the alarm's, a reason's or a head refusal's code with its
// arguments, as a phrase whose Error() is its English (as AlarmError.Why
// holds it: a face's tests say a station's alarm with it).
func AlarmPhrase(code match.Code, args ...any) *phrase.Error { return alarms.Refuse(code, args...) }

// why is the alarm's or a head refusal's reason code with its arguments
// (integers as int64, so that a phrase read back from JSON says them as it
// was made).
func why(code match.Code, args ...any) *phrase.Error { return alarms.Refuse(code, args...) }

// streamAlarm is the alarm raised at event seq from the stream, which does
// not fit the record for reason (a phrase, or an error quoted as it is).
func streamAlarm(seq uint64, reason error) *AlarmError {
	return &AlarmError{Seq: seq, Reason: reason.Error(), Why: alarms.Refuse(CodeAlarmStream, int64(seq), reason)}
}

// fileAlarm is the alarm raised at event seq when the record's file was
// changed behind the station, for reason.
func fileAlarm(seq uint64, reason *phrase.Error) *AlarmError {
	return &AlarmError{Seq: seq, Reason: reason.Error(), File: true, Why: alarms.Refuse(CodeAlarmFile, reason)}
}
