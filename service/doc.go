// Package service is the layer between the two faces (cli/ and gui/) and the
// core (match/, store/): what both faces need that is neither the rules of
// the match nor words of one face. The faces import service and the domain
// packages, never each other and never store/ (TestFacesImportOnlyTheService
// checks it).
//
// It opens the record (read-write for the console and the commands that
// write, read-only when a command only reads and the file is
// write-protected), continues a match in a new file, verifies a copy, holds
// the options of a session (Global), reads clock corrections
// (ParseAdjustment) and turns errors into the one sentence a user reads
// (Sentence, SentenceIn). Exports are written with package atomicfile.
//
// Refusals are codes with arguments (match.Code); SentenceIn says them in
// the words of the face that passes its table (docs/errors.md).
//
// It holds the time source of a live session (TimeSource: the wall clock
// read once, advanced by the platform's monotonic clock that counts sleep;
// docs/clock.md). The transaction wrapper and the change notifications
// still live in match/ (App.do, App.OnChange): they are the core's own
// guarantee that an event is committed before anyone sees its effect.
package service
