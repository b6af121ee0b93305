package store

import "arbiter/internal/phrase"

// A broken chain is said as a phrase, not as finished English (issue 25's
// rule for refusals, applied to the verify report): VerifyReport.Why is the
// problem's code and its arguments, and each face says it in its words (the
// command line in English, VerifyReport.Problem; the console in its
// language). The English of each code is below; en.json holds it under the
// same code, de.json in German (TestEveryChainProblemHasItsWordsInBothDictionaries).
// An event is named by a phrase of its own (EventName: "event 7 (move)"),
// its kind as recorded.

// The chain's problems.
const (
	CodeEventNamed        Code = "chain-event-named"
	CodeEventNumbered     Code = "chain-event-numbered"
	CodeMissingGoesOn     Code = "chain-missing"
	CodeNotFirst          Code = "chain-not-first"
	CodeInsertedBefore    Code = "chain-inserted-before"
	CodeInsertedAsFirst   Code = "chain-inserted-as-first"
	CodeRehashed          Code = "chain-edited-rehashed"
	CodeEdited            Code = "chain-edited"
	CodeCopy              Code = "chain-copy"
	CodeInsertedMoved     Code = "chain-inserted-moved"
	CodeOutOfOrder        Code = "chain-out-of-order"
	CodeMissingRenumbered Code = "chain-missing-renumbered"
	CodeManyMissing       Code = "chain-missing-many-renumbered"
	CodeHeadNotInChain    Code = "chain-head-not-in-chain"
)

// problems are the chain's problems' English words (the shared
// dictionary's), byte for byte the sentences Problem said before they were
// codes.
var problems = phrase.Table[Code]{
	CodeEventNamed:        "event %d (%s)",
	CodeEventNumbered:     "event %d",
	CodeMissingGoesOn:     "event %d is missing (the record goes on with %s)",
	CodeNotFirst:          "%s does not start the chain (its prev is not 64 zeros)",
	CodeInsertedBefore:    "%s was inserted (event %d records event %d as its predecessor)",
	CodeInsertedAsFirst:   "%s was inserted (event %d claims to be the first event)",
	CodeRehashed:          "%s was edited and re-hashed (event %d records a different hash for it)",
	CodeEdited:            "%s was edited (hash mismatch)",
	CodeCopy:              "%s is a copy of event %d",
	CodeInsertedMoved:     "%s was inserted (the original event %d now sits at %d)",
	CodeOutOfOrder:        "%s is out of order (it was recorded as event %d)",
	CodeMissingRenumbered: "event %d is missing (later events were renumbered; %s was recorded as event %d)",
	CodeManyMissing:       "events %d to %d are missing (later events were renumbered; %s was recorded as event %d)",
	CodeHeadNotInChain:    "head %s… is not in the chain",
}

// ProblemCodes lists the chain's problems.
func ProblemCodes() []Code { return problems.Codes() }

// ProblemEnglish is the English format of a chain problem's words.
func ProblemEnglish(code Code) string { return problems[code] }

// Problem is the chain problem code with its arguments; its Error() is the
// English.
func Problem(code Code, args ...any) *phrase.Error { return problems.Refuse(code, args...) }

// EventName names an event in a problem by its seq and, where it is known,
// its kind as recorded ("event 7 (move)", "event 7"); the kind is never
// translated.
func EventName(seq int64, kind string) *phrase.Error {
	if kind == "" {
		return Problem(CodeEventNumbered, seq)
	}
	return Problem(CodeEventNamed, seq, kind)
}
