package service

import (
	"context"

	"arbiter/match"
)

// OpenReplica opens a station's record read-only for the console: every
// write to a station's record goes through its station (the authority
// appends it to the stream first), so the console never writes it itself.
func OpenReplica(ctx context.Context, path string) (*match.App, error) {
	return OpenReadOnly(ctx, path)
}
