package service

import (
	"arbiter/internal/phrase"
	"arbiter/match"
)

// The service refuses with a code and its arguments (issue 25: one way to
// refuse), as the clock does: its refusals that every face words alike are
// below, their English the table's (which en.json holds under the same
// code: TestEveryServiceRefusalHasItsWordsInBothDictionaries), each face's
// words the shared dictionary's, the console's in English or German.
// Those that name the command line's flags or commands are in codes.go,
// worded by each face itself (cli/words.go; the console's dictionaries).
const (
	CodeCannotRead         match.Code = "service-cannot-read"
	CodeNotRegular         match.Code = "service-not-a-regular-file"
	CodeTooLarge           match.Code = "service-file-too-large"
	CodeKeyFileReadable    match.Code = "service-key-file-readable"
	CodeNotARecordFile     match.Code = "service-not-a-record-file"
	CodeCopyDoesNotVerify  match.Code = "service-copy-does-not-verify"
	CodeCopyProblem        match.Code = "service-copy-problem"
	CodeCopyNotInChain     match.Code = "service-copy-not-in-chain"
	CodeStationCertificate match.Code = "service-station-certificate"
	CodeStationFileDamaged match.Code = "service-station-file-damaged"
	CodeNoStation          match.Code = "service-no-station"
	CodeStatusDamaged      match.Code = "service-status-damaged"
	CodeInvitationExists   match.Code = "service-invitation-exists"
	CodeNotFirstStation    match.Code = "service-not-first-station"
	CodeCAKeyDamaged       match.Code = "service-ca-key-damaged"
	CodeCAKeyUnreadable    match.Code = "service-ca-key-unreadable"
	CodeLockNotOpened      match.Code = "service-lock-not-opened"
	CodeLockNotTaken       match.Code = "service-lock-not-taken"
	CodeHeadNotSigned      match.Code = "service-head-not-signed"
	CodeReplicaNotOpen     match.Code = "service-replica-not-open"
	CodeNotInReplica       match.Code = "service-not-in-replica"
	CodeOlderPIN           match.Code = "service-older-pin"
	CodeNoStations         match.Code = "service-built-without-stations"
)

// english are the refusals' English words (the shared dictionary's).
var english = phrase.Table[match.Code]{
	CodeCannotRead:         "cannot read %s %s: %v",
	CodeNotRegular:         "%s %s is %s, not a regular file: give the file itself",
	CodeTooLarge:           "%s %s is larger than %d bytes: give the file written for it",
	CodeKeyFileReadable:    "the key file %s can be read by others: make it private with 'chmod 600 %s' (and make a new key if others may have read it)",
	CodeNotARecordFile:     "%s is not a file that can hold a match record: give the database file",
	CodeCopyDoesNotVerify:  "the copy %s does not verify (%s): keep the original and try again",
	CodeCopyProblem:        "the copy does not verify: %s",
	CodeCopyNotInChain:     "the copy's last event %d is not in the original's chain",
	CodeStationCertificate: "the station's certificate %s cannot be read (%v): join again with a new invitation",
	CodeStationFileDamaged: "%s is damaged (%v): join again with a new invitation",
	CodeNoStation:          "this record belongs to no station",
	CodeStatusDamaged:      "the station's status file is damaged: restart the station",
	CodeInvitationExists:   "%s exists already: choose a new file name for the invitation",
	CodeNotFirstStation:    "only the match's first station holds the key that signs invitations: invite from there",
	CodeCAKeyDamaged:       "the match's CA key %s is damaged",
	CodeCAKeyUnreadable:    "the match's CA key %s is damaged: %v",
	CodeLockNotOpened:      "the station's lock %s cannot be opened: %v",
	CodeLockNotTaken:       "the station's lock %s cannot be taken: %v",
	CodeHeadNotSigned:      "the command is committed as event %d, but the arbiter's signature of that head is not recorded (%v): it is signed at his next command",
	CodeReplicaNotOpen:     "this station's record is not open",
	CodeNotInReplica:       "event %d is not in this station's record",
	CodeOlderPIN:           "this record keeps an older PIN without signing keys, which a station cannot check without sending it: give the arbiter's commands on a record made with this version",
	CodeNoStations:         "this arbiter was built without stations",
}

// RefusalCodes lists the service's own refusals.
func RefusalCodes() []match.Code { return english.Codes() }

// RefusalEnglish is the English format of code's words.
func RefusalEnglish(code match.Code) string { return english[code] }

// refuse is the refusal code with its arguments; its Error() is the
// English words.
func refuse(code match.Code, args ...any) error { return english.Refuse(code, args...) }
