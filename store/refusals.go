package store

import (
	"fmt"

	"arbiter/internal/phrase"
)

// The store refuses with a code and its arguments (issue 25: one way to
// refuse), as the clock, the service and the station do: what a person reads
// (a file that is not an Arbiter database, a damaged file, a newer schema, a
// full disk, a read-only file, the append-only guard, a missing folder or
// file, a bad fault point) is below, its English the table's, which en.json
// holds under the same code and de.json in German
// (TestEveryStoreRefusalHasItsWordsInBothDictionaries). Error() is the
// English, byte for byte the sentences of before. The failures of SQLite
// itself stay wrapped errors with their context ("store: update: commit:
// …"); the sentinels below are still compared with errors.Is, and
// service.Coded still gives the file's failures their faces' codes
// (docs/errors.md).

// Code is a store refusal's code.
type Code string

// The store's refusals.
const (
	CodeForeign      Code = "store-not-an-arbiter-database"
	CodeNewerSchema  Code = "store-newer-schema"
	CodeReadOnly     Code = "store-read-only"
	CodeDiskFull     Code = "store-disk-full"
	CodeAppendOnly   Code = "store-append-only"
	CodeCorrupt      Code = "store-damaged"
	CodeExists       Code = "store-destination-exists"
	CodeEmpty        Code = "store-no-event-log"
	CodeNoFolder     Code = "store-no-folder"
	CodeNoFile       Code = "store-no-file"
	CodeFaultCount   Code = "store-fault-count"
	CodeFaultPoint   Code = "store-fault-point"
	CodeNotWritten   Code = "store-event-not-written"
	CodeLogTakesBack Code = "store-log-takes-back"
	// the file's schema version lowered below its tables' (branch hanchor)
	CodeVersionEdited Code = "store-schema-version-edited"
	// a write refused by the process's file size limit (branch hattack)
	CodeFileSizeLimit Code = "store-file-size-limit"
)

// english are the refusals' English words (the shared dictionary's).
var english = phrase.Table[Code]{
	CodeForeign:       "the file is not an Arbiter database; open the match's database file",
	CodeNewerSchema:   "the file was written by a newer version of Arbiter; open it with that version or newer",
	CodeReadOnly:      "the event log is read-only; open it read-write, or check the file's permissions",
	CodeDiskFull:      "the disk is full; free some space and try again — nothing of the failed step was written",
	CodeFileSizeLimit: "the record's file could not grow: the disk is full, or the file reached the largest size this program may write (a file size limit of %s, as 'ulimit -f' sets); free some space or lift the limit, then try again — nothing of the failed step was written",
	CodeAppendOnly:    "events are append-only; record a correcting event instead of changing an old one",
	CodeCorrupt:       "the database file is damaged; continue from the latest backup copy and keep the damaged file for the appeals board",
	CodeExists:        "the destination already exists; choose a new file name",
	CodeEmpty:         "the file holds no event log yet; open it read-write once to create one",
	CodeNoFolder:      "store: open %s: the folder %s does not exist; create it or choose another place (%v)",
	CodeNoFile:        "store: open %s read-only: the file does not exist; check the path (%v: %v)",
	CodeFaultCount:    "count %q is not a whole number of at least 1; write POINT:N, e.g. after-insert:2",
	CodeFaultPoint:    "point %q is not one of %s",
	CodeLogTakesBack:  "the -wal file beside %s would change event %d the file holds (another copy's log was put beside it, or the record was edited and the edit not yet copied into the file), and opening it to write would make that final; check it with arbiter verify, or move the -wal file away to open the record as the file holds it, and keep both files for the appeals board",
	CodeVersionEdited: "the file says its schema is of version %d, but its tables are of version %d: the version in its header was changed by another program, and nothing was written to it; keep it as it is for the appeals board and continue from a backup",
	CodeNotWritten:    "the event was not written: the file holds a trigger that Arbiter did not make, which dropped it; nothing of the command was recorded — keep the file as it is for the appeals board and continue from a backup",
}

// RefusalCodes lists the store's refusals.
func RefusalCodes() []Code { return english.Codes() }

// RefusalEnglish is the English format of code's words.
func RefusalEnglish(code Code) string { return english[code] }

// ErrorCode is the code of the store's refusal in err's chain ("" if
// none).
func ErrorCode(err error) Code { return english.CodeIn(err) }

// refuse is the refusal code with its arguments; its Error() is the
// English words.
func refuse(code Code, args ...any) *phrase.Error { return english.Refuse(code, args...) }

// refuseWrapping is the refusal code with its arguments that still wraps
// causes for errors.Is (ErrNotFound, the operating system's error).
func refuseWrapping(causes []error, code Code, args ...any) error {
	return refusal{refuse(code, args...), causes}
}

// refusal is a coded refusal with the errors it wraps: a face finds its
// phrase first, errors.Is the causes.
type refusal struct {
	phrase *phrase.Error
	causes []error
}

func (r refusal) Error() string   { return r.phrase.Error() }
func (r refusal) Unwrap() []error { return append([]error{r.phrase}, r.causes...) }

// sizeText says a file size limit of n bytes as a person reads it: "2 MiB
// (2097152 bytes)", or the bytes alone.
func sizeText(n uint64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB (%d bytes)", n>>30, n)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB (%d bytes)", n>>20, n)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB (%d bytes)", n>>10, n)
	}
	return fmt.Sprintf("%d bytes", n)
}
