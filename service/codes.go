package service

import "arbiter/match"

// The failures of the database file that each face words itself (its
// table holds them beside match's codes; docs/errors.md). Sentence falls
// back to the store's neutral sentence when a face has no words for one.
const (
	CodeNotADatabase  match.Code = "not-an-arbiter-database" // store.ErrForeign
	CodeDamagedRecord match.Code = "database-damaged"        // store.ErrCorrupt
)
