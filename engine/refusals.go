package engine

import (
	"arbiter/internal/phrase"
	"arbiter/match"
)

// The bridge refuses with a code and its arguments (issue 25: one way to
// refuse), as the service does: the refusals every face words alike are
// below with their English (which en.json holds under the same code:
// TestEveryEngineRefusalHasItsWordsInBothDictionaries), each face's words
// the shared dictionary's, the console's in English or German. Those that
// name the command line's flags are the second list, worded by each face
// itself (cli/words.go; the console's dictionaries), and a record without
// a match is the core's own refusal (match.CodeNoMatch).
const (
	CodeBusy                 match.Code = "engine-busy"
	CodeUnterminatedQuote    match.Code = "engine-command-unterminated-quote"
	CodeCannotStart          match.Code = "engine-cannot-start"
	CodeStatusDamaged        match.Code = "engine-status-damaged"
	CodeFolderNotMade        match.Code = "engine-folder-not-made"
	CodeTranscriptUnreadable match.Code = "engine-transcript-unreadable"
	CodeTranscriptNotOpened  match.Code = "engine-transcript-not-opened"
	CodeTranscriptNotWritten match.Code = "engine-transcript-not-written"
	CodeLockNotTaken         match.Code = "engine-lock-not-taken"
	CodeTakenOver            match.Code = "engine-taken-over"
	CodeOptionUnknown        match.Code = "engine-option-unknown"
	CodeOptionOutOfBounds    match.Code = "engine-option-out-of-bounds"
	CodeOptionNotCheck       match.Code = "engine-option-not-check"
	CodeOptionNotOneOf       match.Code = "engine-option-not-one-of"
)

// The refusals that name the command line's flags (--cmd, --option): each
// face words them itself.
const (
	CodeNoCommand          match.Code = "engine-no-command"
	CodeNotThere           match.Code = "engine-not-there"
	CodeOptionNotNameValue match.Code = "engine-option-not-name-value"
)

// english are the refusals' English words (the shared dictionary's).
var english = phrase.Table[match.Code]{
	CodeBusy:                 "an engine bridge already runs for %s (process %d): stop it first; a record has one computer's equipment",
	CodeUnterminatedQuote:    "the engine's command %q has an unterminated %s quote",
	CodeCannotStart:          "the engine %s cannot be started: %v",
	CodeStatusDamaged:        "the engine's status %s is damaged: %v",
	CodeFolderNotMade:        "the engine's folder %s cannot be made: %v",
	CodeTranscriptUnreadable: "the transcript %s cannot be read: %v",
	CodeTranscriptNotOpened:  "the transcript %s cannot be opened: %v",
	CodeTranscriptNotWritten: "the transcript %s could not be written: %v",
	CodeLockNotTaken:         "the engine bridge's lock cannot be taken: %v",
	CodeTakenOver:            "this engine bridge (%s) was taken over by the bridge %s at %s, which plays the computer now (one engine per match): it stops",
	CodeOptionUnknown:        "the engine %s has no option %q (its options: %s): correct the option's name or leave it out, and start the bridge again",
	CodeOptionOutOfBounds:    "the engine %s takes the option %s as a whole number from %d to %d, not %q: correct it and start the bridge again",
	CodeOptionNotCheck:       "the engine %s takes the option %s as true or false, not %q: correct it and start the bridge again",
	CodeOptionNotOneOf:       "the engine %s takes the option %s as one of %s, not %q: correct it and start the bridge again",
}

// RefusalCodes lists the bridge's own refusals every face words alike.
func RefusalCodes() []match.Code { return english.Codes() }

// FaceCodes lists the bridge's refusals each face words itself.
func FaceCodes() []match.Code {
	return []match.Code{CodeNoCommand, CodeNotThere, CodeOptionNotNameValue}
}

// RefusalEnglish is the English format of code's words.
func RefusalEnglish(code match.Code) string { return english[code] }

// refuse is the refusal code with its arguments: its Error() is the
// English words of the shared dictionary, or, for a code each face words
// itself, the code and its arguments.
func refuse(code match.Code, args ...any) error {
	if _, ok := english[code]; ok {
		return english.Refuse(code, args...)
	}
	return phrase.Coded(string(code), args...)
}
