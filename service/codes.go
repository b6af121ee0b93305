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

// The refusals of a station's record that name the command line's flags
// and commands: each face words them itself (cli/words.go; the console's
// en.json and de.json).
const (
	CodeNotAStationRecord match.Code = "not-a-station-record"
	CodeStationNotRun     match.Code = "station-not-run-yet"
	CodeListenNotHostPort match.Code = "listen-not-host-port"
	CodeListenPort        match.Code = "listen-port-out-of-range"
	CodeNotAStationRole   match.Code = "not-a-station-role"
	CodeInviteNeedsName   match.Code = "invite-needs-name"
	CodeNotARunningHolder match.Code = "not-a-running-holder"
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
