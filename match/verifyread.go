package match

import (
	"context"

	"arbiter/store"
)

// VerifyRecordRead is VerifyRecordAgainst that also returns the events it
// checked (read with their signatures in one transaction), so that a
// caller checking more against them ('arbiter verify': the engine's
// transcripts against the engine.move events) reads the record once, and
// checks the very events that were verified, not a later read of a record
// another process may have appended to since.
func VerifyRecordRead(ctx context.Context, db *store.DB, want Anchors) (RecordReport, []store.Event, error) {
	evs, sigs, err := db.Record(ctx)
	if err != nil {
		return RecordReport{}, nil, err
	}
	r := verifyWhole(evs, sigs, want)
	return r, evs, checkBeside(ctx, db, &r, len(evs))
}
