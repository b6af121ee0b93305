package station

import (
	"arbiter/internal/phrase"
	"arbiter/match"
)

// The station refuses with a code and its arguments (issue 25: one way to
// refuse), as the clock and the service do: the refusals every face words
// alike are below, their English the table's (which en.json holds under the
// same code: TestEveryStationRefusalHasItsWordsInBothDictionaries). The
// answers to 'station claim' that name the command line's commands, and the
// alarm's and the log's technical lines, stay sentences (docs/errors.md).
const (
	CodeCannotReach          match.Code = "station-cannot-reach"
	CodeEngineStart          match.Code = "station-engine-start"
	CodeEngineSlow           match.Code = "station-engine-slow"
	CodeEngineConnect        match.Code = "station-engine-connect"
	CodeNotHostPort          match.Code = "station-not-host-port"
	CodeBadPort              match.Code = "station-bad-port"
	CodeStreamNotCreated     match.Code = "station-stream-not-created"
	CodeStreamSilent         match.Code = "station-stream-silent"
	CodeCADamaged            match.Code = "station-ca-damaged"
	CodeCAUnreadable         match.Code = "station-ca-unreadable"
	CodeCAKeyDamaged         match.Code = "station-ca-key-damaged"
	CodeCertificateDamaged   match.Code = "station-certificate-damaged"
	CodeCACertificateDamaged match.Code = "station-ca-certificate-damaged"
	CodeHeadAlone            match.Code = "station-head-alone"
	CodeHeadRefused          match.Code = "station-head-refused"
	CodeOwnEventOnly         match.Code = "station-own-event-only"
	CodeNoAuthorityAnswered  match.Code = "station-no-authority-answered"
	CodeConnectionClosed     match.Code = "station-connection-closed"
	// a command given at a station whose alarm is raised (its record file
	// edited behind it, or an event from the stream that does not fit)
	CodeAlarmRefused match.Code = "station-alarm-refused"
)

// english are the refusals' English words (the shared dictionary's).
var english = phrase.Table[match.Code]{
	CodeCannotReach:          "station: cannot reach a record holder at %s: %v",
	CodeEngineStart:          "station: start the engine: %v",
	CodeEngineSlow:           "station: the engine did not start within 10 s; check that the ports are free",
	CodeEngineConnect:        "station: connect to the engine: %v",
	CodeNotHostPort:          "station: %q is not HOST:PORT: %v",
	CodeBadPort:              "station: the port in %q is not a number from 1 to 65535",
	CodeStreamNotCreated:     "station: the match's stream could not be created: %v",
	CodeStreamSilent:         "station: the match's stream does not answer: %v",
	CodeCADamaged:            "station: the match's CA is damaged",
	CodeCAUnreadable:         "station: the match's CA is damaged: %v",
	CodeCAKeyDamaged:         "station: the match's CA key is damaged: %v",
	CodeCertificateDamaged:   "station: the station's certificate is damaged: %v",
	CodeCACertificateDamaged: "station: the match's CA certificate is damaged",
	CodeHeadAlone:            "a head signature is sent alone, without a command: give the command again",
	CodeHeadRefused:          "the arbiter's head signature is refused: %s",
	CodeOwnEventOnly:         "only a record holder records a station's own event, and without a command",
	CodeNoAuthorityAnswered:  "station: no authority answered command %s: %v",
	CodeConnectionClosed:     "station: no authority answered command %s: the connection was closed",
	CodeAlarmRefused:         "station %s takes no command: %s; give commands at another station meanwhile",
}

// RefusalCodes lists the station's refusals.
func RefusalCodes() []match.Code { return english.Codes() }

// RefusalEnglish is the English format of code's words.
func RefusalEnglish(code match.Code) string { return english[code] }

// refuse is the refusal code with its arguments; its Error() is the
// English words.
func refuse(code match.Code, args ...any) error { return english.Refuse(code, args...) }

// AlarmRefusal is the refusal of a command given at station name, whose
// alarm (AlarmError.Why; a phrase, or its English when a status carries
// none) is raised: it says the alarm, which says what was found and what
// to do, and that commands are given at another station meanwhile. The
// face refuses so at once (service.Link) rather than send a command its
// station would never apply, and so does the station (Submit).
func AlarmRefusal(name string, alarm error) *phrase.Error {
	return english.Refuse(CodeAlarmRefused, name, alarm)
}

// refusedWith is the refusal as a reply carries it: its English, and its
// code and arguments for the face's words.
func refusedWith(code match.Code, args ...any) Reply {
	err := refuse(code, args...)
	return Reply{Error: err.Error(), Phrase: err.(*phrase.Error)}
}
