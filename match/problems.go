package match

import (
	"strings"

	"arbiter/internal/phrase"
)

// A record that does not hold is said as a phrase, as a broken chain is
// (store/problems.go): RecordReport.Why is the problem's code and its
// arguments, which each face says in its words (the command line in
// English, RecordReport.Problem; the console in its language). The
// problems of the signatures, of the anchors a record is checked against
// and of a tail read after the App's state are below, with their English;
// en.json holds it under the same code, de.json in German
// (TestEveryRecordProblemHasItsWordsInBothDictionaries). They are not
// refusals (errors.go): a report says them, and a refusal of a command on
// a broken record carries one as its argument (CodeRecordBroken).
//
// A problem of one event begins with its seq and its kind as recorded
// ("event 7 (move) carries no signature …"): fail puts them first.

// The record's problems beyond its chain.
const (
	CodeSignedUnprotected     Code = "record-check-signed-unprotected"
	CodeUnsigned              Code = "record-check-unsigned"
	CodeSystemKind            Code = "record-check-system-kind"
	CodeSystemNotAuthority    Code = "record-check-system-not-authority"
	CodeStationUncertified    Code = "record-check-station-uncertified"
	CodeRequestNotAuthority   Code = "record-check-request-not-authority"
	CodeCredentialUnsigned    Code = "record-check-credential-unsigned"
	CodeCommandBeyond         Code = "record-check-command-beyond"
	CodeWrongKey              Code = "record-check-wrong-key"
	CodeRoleSigner            Code = "record-check-role-signer"
	CodeStationUnsigned       Code = "record-check-station-unsigned"
	CodeOtherStation          Code = "record-check-other-station"
	CodeStationMismatch       Code = "record-check-station-mismatch"
	CodeCommandMismatch       Code = "record-check-command-mismatch"
	CodeRegisteredByOther     Code = "record-check-registered-by-other"
	CodeForgedRotation        Code = "record-check-forged-rotation"
	CodeRequestUnreadable     Code = "record-check-request-unreadable"
	CodeRequestDisagrees      Code = "record-check-request-disagrees"
	CodeRequestRecordEdited   Code = "record-check-request-record-edited"
	CodeRequestReordered      Code = "record-check-request-reordered"
	CodeRequestRewritten      Code = "record-check-request-rewritten"
	CodeRequestForgedRotation Code = "record-check-request-forged-rotation"
	CodeRequestOtherMove      Code = "record-check-request-other-move"
	CodeSchemaEdited          Code = "record-check-schema-edited"
	CodeLogTakesBack          Code = "record-check-log-takes-back"
	CodeReplayedCommand       Code = "record-check-replayed-command"
	CodeHeadCut               Code = "record-check-head-cut"
	CodeHeadMismatch          Code = "record-check-head-mismatch"
	CodeHeadRemoved           Code = "record-check-head-removed"
	CodeSignatureFields       Code = "record-check-signature-fields"
	CodeNoArbiterKey          Code = "record-check-no-arbiter-key"
	CodeRekeyed               Code = "record-check-rekeyed"
	CodeRekeyedLater          Code = "record-check-rekeyed-later"
	CodeNoMatchNew            Code = "record-check-no-match-new"
	CodeNoMatchID             Code = "record-check-no-match-id"
	CodeOtherMatch            Code = "record-check-other-match"
	CodeNoCA                  Code = "record-check-no-ca"
	CodeOtherCA               Code = "record-check-other-ca"
	CodeShorter               Code = "record-check-shorter"
	CodeNotFollowing          Code = "record-check-not-following"
	// Found while the record is open (App.Watch): a signature row checked
	// before that is no longer as it was, and the file under the record's
	// name that is no longer the one opened, and a -wal or -shm beside it
	// that is no longer the one its events are written to.
	CodeSignatureEdited  Code = "record-check-signature-edited"
	CodeFileReplaced     Code = "record-check-file-replaced"
	CodeSideFileReplaced Code = "record-check-side-file-replaced"
	// A head signature offered for the record (ArbiterKeyring.CheckHead:
	// a station's heads stream) that it does not take.
	CodeHeadNotHead     Code = "record-check-head-not-head"
	CodeHeadNotInRecord Code = "record-check-head-not-in-record"
	CodeHeadNotArbiters Code = "record-check-head-not-arbiters"
	CodeHeadNotHash     Code = "record-check-head-not-hash"
	// A signer or a credential named in a problem (signerWord,
	// credentialWord): a role ("arbiter", the English "the arbiter's
	// credential"), a player's credential as the signature rows name it
	// ("player:Deep Blue") or as the credential does ("player Deep Blue").
	// German names each in the genitive its sentences need: "der
	// Zugangsschlüssel der Rolle Schiedsrichter", "… des Spielers Deep Blue".
	CodeSignerRole       Code = "record-check-signer-role"
	CodeSignerPlayer     Code = "record-check-signer-player"
	CodeCredentialPlayer Code = "record-check-credential-player"
	// The append-only triggers dropped or made again otherwise by another
	// program (checkSchema, branch htrust), and which of them (guardWord).
	CodeTriggerDropped Code = "record-check-trigger-dropped"
	CodeTriggerChanged Code = "record-check-trigger-changed"
	CodeGuardUpdate    Code = "record-check-guard-update"
	CodeGuardDelete    Code = "record-check-guard-delete"
	CodeGuardBoth      Code = "record-check-guard-both"
	// Rows no walk of the chain reads (checkSchema, branch hattack).
	CodeRowsOutsideChain Code = "record-check-rows-outside-chain"
	// A table's definition rewritten by another program (checkSchema,
	// branch hattack).
	CodeTableChanged    Code = "record-check-table-changed"
	CodeTableEvents     Code = "record-check-table-events"
	CodeTableSignatures Code = "record-check-table-signatures"
	CodeTableHeartbeat  Code = "record-check-table-heartbeat"
	CodeTableMeta       Code = "record-check-table-meta"
	// Not a problem: what a record that verifies against no anchor from
	// outside it does not prove (Unanchored).
	CodeUnanchored Code = "record-check-unanchored"
)

// problems are the record's problems' English words (the shared
// dictionary's), byte for byte the sentences Problem said before they were
// codes.
var problems = phrase.Table[Code]{
	CodeSignedUnprotected:     "event %d (%s) carries signatures although the match was not protected then (signatures were added to an unprotected record)",
	CodeUnsigned:              "event %d (%s) carries no signature of a credential (it was added or changed without one)",
	CodeSystemKind:            "event %d (%s) is recorded under the system's role, which records only the stations' events, recovery notes and suspensions, and carries no signature of a credential (it was added or changed without one)",
	CodeSystemNotAuthority:    "event %d (%s) carries no signature of a credential and is signed by a station key other than the one the match's CA certified for station %s, the authority then (it was added by another station or under a key nobody certified)",
	CodeStationUncertified:    "event %d (%s) claims authority for station %s without that station's certificate of the match's CA for the key that signs it (it was added under a key nobody certified)",
	CodeRequestNotAuthority:   "event %d (%s) records a command given at another station but was appended under a station key other than the one the match's CA certified for station %s, the authority then (it was appended by another station or under a key nobody certified)",
	CodeCredentialUnsigned:    "event %d (%s) registers a credential without the arbiter's signature (only the arbiter hands out credentials)",
	CodeCommandBeyond:         "event %d (%s) has a command signature that covers events not in the record (the record was cut off or events were deleted)",
	CodeWrongKey:              "event %d (%s) is signed with a key that is not the %s's credential",
	CodeRoleSigner:            "event %d (%s) was recorded for the %s but signed with the %s's credential",
	CodeStationUnsigned:       "event %d (%s) has no station signature (it was added or changed afterwards)",
	CodeOtherStation:          "event %d (%s) was appended by a station other than the one named in its command",
	CodeStationMismatch:       "event %d (%s) does not match the hash its station signed (it was edited and re-hashed)",
	CodeCommandMismatch:       "event %d (%s) does not match the command the %s signed (it was edited, reordered or re-hashed)",
	CodeRegisteredByOther:     "event %d (%s) registers the %s's credential under the %s's signature (only the arbiter hands out credentials)",
	CodeForgedRotation:        "event %d (%s) registers a new arbiter key that is not signed by the arbiter key it replaces, %s (a forged rotation)",
	CodeRequestUnreadable:     "event %d (%s) has a request signature whose fields are unreadable (the row was edited)",
	CodeRequestDisagrees:      "event %d (%s) has a request signature whose fields disagree with its row (the row was edited)",
	CodeRequestRecordEdited:   "event %d (%s) does not match the record the %s signed a later request on, at event %d (it was edited and re-hashed)",
	CodeRequestReordered:      "event %d (%s) has a request signature made on a record of %d events, more than stood before it (the record was reordered)",
	CodeRequestRewritten:      "event %d (%s) has a request signed on a record whose event %d had another hash (the record was rewritten up to that event)",
	CodeRequestForgedRotation: "event %d (%s) registers an arbiter key that is not the one in the request the arbiter signed (a forged rotation)",
	CodeReplayedCommand:       "event %d (%s) is a command the record holds already, at event %d (a signed command or request replayed in another place)",
	CodeSchemaEdited:          "the record's file holds %s, which Arbiter did not make (its schema was edited by another program)",
	CodeTriggerDropped:        "the record's file no longer holds what Arbiter made: %s (dropped by another program: since then nothing refused an edit of its events)",
	CodeTriggerChanged:        "the record's file holds %s in another form than Arbiter made it (made again by another program: since then nothing may have refused an edit of its events)",
	CodeGuardUpdate:           "its trigger that refuses any change of an event",
	CodeGuardDelete:           "its trigger that refuses any deletion of an event",
	CodeGuardBoth:             "its triggers that refuse any change or deletion of an event",
	CodeTableEvents:           "its table of events",
	CodeTableSignatures:       "its table of signatures",
	CodeTableHeartbeat:        "its heartbeat table",
	CodeTableMeta:             "its table of settings",
	CodeTableChanged:          "the record's file holds %s in another form than Arbiter made it (its definition was rewritten by another program: since then the table may have taken rows that Arbiter refuses)",
	CodeRowsOutsideChain:      "the record's file holds event rows numbered below 1 (%d of them), outside its chain, where Arbiter never writes and no check reads (put there by another program, which first took the events table's refusal of such rows out of its definition)",
	CodeUnanchored:            "nothing from outside the file was given to check it against, so this proves only that the file agrees with itself: a record cut short at its end together with its signatures, or made again from its start under other keys, verifies as well; to prove that it is the whole record and the arbiter's, check it against what was written down or printed away from this computer (a head, the arbiter's first key, the match id, the match's CA), or compare it with another station's copy or the live feed's archive",
	CodeLogTakesBack:          "the -wal file beside the record takes back event %d its main file holds, as another copy's log put beside it does, or an edit not yet copied into the file; moved away, it leaves the record as its file holds it",
	CodeRequestOtherMove:      "event %d (%s) is not the move %s the %s signed at another station, or not at the instant it was stamped (it was edited and signed again by another station key)",
	CodeHeadCut:               "a head signature names event %d, which is not in the record (the record was cut off)",
	CodeHeadMismatch:          "event %d (%s) does not match the head the arbiter signed there (the record was rewritten up to this event)",
	CodeHeadRemoved:           "event %d (%s) ends a command the arbiter signed, and the head he signed with it is not in the record (his head signature was deleted)",
	CodeSignatureFields:       "event %d (%s) has a %s signature row with a field a row of its kind does not carry (the row was edited)",
	CodeNoArbiterKey:          "the record carries no arbiter key, so it is not signed by the key it is checked against (it is unprotected or was stripped of its credentials)",
	CodeRekeyed:               "event %d (%s) registers the arbiter key %s, not the key %s it is checked against (the record was re-keyed)",
	CodeRekeyedLater:          "event %d (%s) registers the arbiter key %s, not the key %s it is checked against (the record was re-keyed; that key is registered only at event %d, as a later key, and the record is anchored by its first)",
	CodeNoMatchNew:            "the record has no match.new, so it has no match id to check",
	CodeNoMatchID:             "event %d (%s) carries no match id (the record was made before match ids were recorded), so its match id cannot be checked: check it against the arbiter's key and a head written down instead",
	CodeOtherMatch:            "event %d (%s) records the match id %s, not %s it is checked against (it is another match)",
	CodeNoCA:                  "the record carries no CA of the match's stations (none of its claims of authority certifies a station's key), so it is not anchored to the CA it is checked against (it was never served by stations with their credentials, or it was re-made without them)",
	CodeOtherCA:               "event %d (%s) anchors the stations' keys to the CA %s, not to the CA %s it is checked against (the record was re-made under another CA)",
	CodeShorter:               "the record is shorter than the events it was checked with",
	CodeNotFollowing:          "event %d (%s) does not follow event %d in the chain (the record was rewritten)",
	CodeSignatureEdited:       "event %d (%s) has a %s signature that is not the one checked before (the signature row was edited)",
	CodeFileReplaced:          "the record's file %s is no longer the file that was opened (another file was put in its place, or it was removed)",
	CodeSideFileReplaced:      "the record's side file %s is no longer the one its events are written to (another file was put in its place, or it was removed): close every program that has the record open, then check it with arbiter verify",
	CodeHeadNotHead:           "a %s signature is not a head signature",
	CodeHeadNotInRecord:       "the head signature names event %d, which is not in the record",
	CodeHeadNotArbiters:       "the head signature of event %d is not by the arbiter's key there",
	CodeHeadNotHash:           "the head signature of event %d does not match that event's hash",
	CodeSignerRole:            "%s",
	CodeSignerPlayer:          "player:%s",
	CodeCredentialPlayer:      "player %s",
}

// Unanchored says what a record that verifies proves when it was checked
// against nothing from outside the file (no head, key, match id or CA
// given: Anchors is empty), and what to bring to prove the rest
// (docs/reliability.md, "What verify proves from the file alone"): verify
// says it in each face's words (branch htrust).
func Unanchored() *phrase.Error { return problem(CodeUnanchored) }

// None tells whether no anchor is given.
func (a Anchors) None() bool { return a == Anchors{} }

// ProblemCodes lists the record's problems beyond its chain
// (store.ProblemCodes lists the chain's).
func ProblemCodes() []Code { return problems.Codes() }

// problem is the record problem code with its arguments; its Error() is
// the English.
func problem(code Code, args ...any) *phrase.Error { return problems.Refuse(code, args...) }

// broken says in r that the record does not hold at event seq (of kind
// kind as recorded, "" for none named), and why.
func (r *RecordReport) broken(seq int64, kind string, why *phrase.Error) {
	r.OK, r.BadSeq, r.BadKind = false, seq, kind
	r.Why, r.Problem = why, why.Error()
}

// signerWord names a signature's signer in a problem: a role the
// dictionary translates ("arbiter"), or a player's credential as the row
// names it ("player:Deep Blue").
func signerWord(signer string) any {
	if name, ok := strings.CutPrefix(signer, "player:"); ok {
		return problem(CodeSignerPlayer, name)
	}
	return problem(CodeSignerRole, Role(signer))
}

// credentialWord names a credential in a problem, or in a refusal whose
// sentence says whose credential it is (need-credential), in English as
// credWord does ("arbiter", "player Deep Blue"), in German in the genitive.
func credentialWord(id string) any {
	if name, ok := strings.CutPrefix(id, "player:"); ok {
		return problem(CodeCredentialPlayer, name)
	}
	return problem(CodeSignerRole, Role(id))
}
