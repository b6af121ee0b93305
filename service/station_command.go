package service

import (
	"crypto/ed25519"
	"time"

	"arbiter/match"
)

// StationCommand is one command given at a station: its value (the same the
// command line and the console run on one machine; the authority decodes
// it and runs it with match.App.Do), and who gives it, when and with which
// credential (g: the role, --pin, --secret, --key-file; g.At when g.AtSet,
// else the instant is stamped).
type StationCommand struct {
	Cmd match.Command
	G   Global
	// RoleGiven: the role was named (--as, or the console's mode): on the
	// operator's laptop a command without it is the operator's.
	RoleGiven bool
	// Key is the role's key when the face has read it already (the console
	// holds it); else g.KeyFile is read here.
	Key ed25519.PrivateKey
	// Pressed is the instant the command was given on the face's time
	// source Now (default: Now() once the command is ready to be sent — its
	// link up, the offset known, its key unlocked — just before it is
	// signed and sent); the request is
	// stamped with Pressed plus this station's offset to the authority,
	// estimated on Now.
	Pressed time.Time
	Now     func() time.Time
	// Notice is told, once, what the command waits for (no authority
	// answers yet); the face shows it.
	Notice func(string)
}

// StationResult is what the authority answered: the command's last event, and
// what the command did as this station's record holds it (its events,
// match.ResultOf), for the face to word.
type StationResult struct {
	Seq    uint64
	Result match.Result
	// Role is the role the command was given in (on the operator's laptop
	// a command without one is the operator's).
	Role match.Role
	// Stamp is the instant the request was stamped with (the match
	// timeline) and the round trip it was estimated with.
	Stamp time.Time
	RTT   time.Duration
}

// ServeOptions are how a face runs a station.
type ServeOptions struct {
	// Epoch: the survivor of two record holders starts a new epoch as it
	// starts (station serve --epoch; the caller checked the arbiter's PIN).
	Epoch bool
	// Logf is told what the station does (the command line's stderr).
	Logf func(format string, a ...any)
	// Started is told each time the station's engine (re)starts, with the
	// number of record holders it started with.
	Started func(sf *StationFile, holders int)
	// Now is the station's time source (default timesource.New).
	Now func() time.Time
	// Lock is the record's station lock the caller took before writing
	// anything (LockStation); Serve takes it itself when nil, and releases
	// it when it returns either way.
	Lock *StationLock
}
