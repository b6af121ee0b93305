//go:build nostation

package service

import (
	"context"
	"time"

	"arbiter/internal/phrase"
)

// Built with -tags nostation: no record is a station's (see stations.go).

// StationFile describes a station's record.
type StationFile struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

// StationMember is one member of a station's status.
type StationMember struct {
	Name string `json:"name"`
	Role string `json:"role"`
	Up   bool   `json:"up"`
	Lag  int64  `json:"lag"`
}

// StationStatus is what 'station status --json' prints.
type StationStatus struct {
	Station       string          `json:"station"`
	Role          string          `json:"role"`
	Authority     string          `json:"authority"`
	Members       []StationMember `json:"members"`
	Seq           uint64          `json:"seq"`
	Head          string          `json:"head"`
	OffsetMS      float64         `json:"offset_ms"`
	UncertaintyMS float64         `json:"uncertainty_ms"`
	Alarm         string          `json:"alarm,omitempty"`
	AlarmWhy      *phrase.Error   `json:"alarm_why,omitempty"`
	CanAppend     bool            `json:"can_append"`
	Epoch         int             `json:"epoch"`
	Stations      []StationSeen   `json:"stations"`
}

// StationSeen is a station as another knows it (station.Seen).
type StationSeen struct {
	Name          string        `json:"name"`
	Role          string        `json:"role"`
	Connected     bool          `json:"connected"`
	LastSeenNS    int64         `json:"last_seen_ns"`
	Lag           int64         `json:"lag"`
	UncertaintyMS float64       `json:"uncertainty_ms"`
	Alarm         string        `json:"alarm,omitempty"`
	AlarmWhy      *phrase.Error `json:"alarm_why,omitempty"`
	Authority     bool          `json:"authority,omitempty"`
	Self          bool          `json:"self,omitempty"`
}

// ErrNoStation: the record belongs to no station.
var ErrNoStation = refuse(CodeNoStation)

// StationRoles are the roles an invitation can name.
var StationRoles = []string{"organiser", "display", "operator", "mirror"}

// IsStation: never in a build without stations.
func IsStation(db string) bool { return false }

// ReadStation: no record belongs to a station.
func ReadStation(db string) (*StationFile, bool, error) { return nil, false, nil }

// ReadStationStatus: no record belongs to a station.
func ReadStationStatus(db string, now time.Time) (StationStatus, bool, error) {
	return StationStatus{}, false, ErrNoStation
}

// InviteStation: this arbiter was built without stations.
func InviteStation(ctx context.Context, db, role, name, out string, g Global, keyFile string) error {
	return refuse(CodeNoStations)
}

// Forward: this arbiter was built without stations.
func Forward(ctx context.Context, db string, c StationCommand) (StationResult, error) {
	return StationResult{}, refuse(CodeNoStations)
}

// Link: no link to an authority in a build without stations.
type Link struct{}

// Dial: this arbiter was built without stations.
func Dial(ctx context.Context, db string, now func() time.Time) (*Link, error) {
	return nil, refuse(CodeNoStations)
}

// Close: nothing to close.
func (l *Link) Close() {}

// Offset: no authority answers in a build without stations.
func (l *Link) Offset() (offset, rtt time.Duration, ok bool) { return 0, 0, false }

// Prepare: this arbiter was built without stations.
func (l *Link) Prepare(ctx context.Context, c StationCommand) error {
	return refuse(CodeNoStations)
}

// Send: this arbiter was built without stations.
func (l *Link) Send(ctx context.Context, c StationCommand) (StationResult, error) {
	return StationResult{}, refuse(CodeNoStations)
}

// CheckCredential: this arbiter was built without stations.
func (l *Link) CheckCredential(ctx context.Context, c StationCommand) (StationResult, error) {
	return StationResult{}, refuse(CodeNoStations)
}

// Executor: no station runs commands for others in a build without
// stations.
type Executor func()

// Serve: this arbiter was built without stations.
func Serve(ctx context.Context, db string, sf *StationFile, o ServeOptions) error {
	return refuse(CodeNoStations)
}

// StationLock: no station runs in a build without stations.
type StationLock struct{}

// BusyError: a station already runs for the record (never without stations).
type BusyError struct {
	DB  string
	PID int
}

func (e *BusyError) Error() string { return "a station already runs for " + e.DB }

// Release: nothing is held.
func (l *StationLock) Release() {}

// LockStation: this arbiter was built without stations.
func LockStation(db string) (*StationLock, error) {
	return nil, refuse(CodeNoStations)
}

// Running: no station runs in a build without stations.
func Running(db string, now time.Time) bool { return false }
