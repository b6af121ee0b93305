//go:build nostation

package cli

import (
	"context"
	"errors"
	"time"
)

// Built with -tags nostation (make bench compares the binary's size and
// build time with and without the engine, docs/stations.md): no station
// commands, and no record is a station's.

// IsStation reports whether the record at db belongs to a station: never
// in a build without stations.
func IsStation(db string) bool { return false }

func forward(ctx context.Context, env Env, g Global, words, argv []string) error {
	return errors.New("this arbiter was built without stations")
}

func stationScript(r *runner) (func([]string, Global, bool) error, time.Time, func(), error) {
	return nil, time.Time{}, nil, errors.New("this arbiter was built without stations")
}
