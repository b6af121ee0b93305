package service

import (
	"arbiter/match"
	"arbiter/store"
)

// The failures of the database file, which each face words by what its
// user can do (the shared dictionary, assets/translations; the command line
// names its own commands for the first two: cli/words.go; docs/errors.md).
const (
	CodeNotADatabase  match.Code = "not-an-arbiter-database" // store.ErrForeign
	CodeDamagedRecord match.Code = "database-damaged"        // store.ErrCorrupt
	CodeDiskFull      match.Code = "disk-full"               // store.ErrDiskFull
	CodeReadOnly      match.Code = "record-read-only"        // store.ErrReadOnly
	CodeNewerSchema   match.Code = "newer-schema"            // store.ErrNewerSchema
	CodeNoEventLog    match.Code = "no-event-log"            // store.ErrEmpty
	CodeFileExists    match.Code = "destination-exists"      // store.ErrExists
)

// SharedCodes are the failures of the file every face words alike (in the
// shared dictionary): only the first two name a face's own commands.
var SharedCodes = []match.Code{CodeDiskFull, CodeReadOnly, CodeNewerSchema, CodeNoEventLog, CodeFileExists}

// fileFailures are the store's failures with their codes (Coded), in the
// order they are looked for.
var fileFailures = []struct {
	err  error
	code match.Code
}{
	{store.ErrDiskFull, CodeDiskFull}, {store.ErrReadOnly, CodeReadOnly}, {store.ErrForeign, CodeNotADatabase},
	{store.ErrNewerSchema, CodeNewerSchema}, {store.ErrCorrupt, CodeDamagedRecord}, {store.ErrEmpty, CodeNoEventLog},
	{store.ErrExists, CodeFileExists},
}
