-- 0001: the append-only, hash-chained event log.
-- Every column is NOT NULL; the hash chain itself is checked by Verify, not by SQL.
PRAGMA application_id = 1095909961;

CREATE TABLE events (
	seq     INTEGER PRIMARY KEY CHECK (seq >= 1),
	match   INTEGER NOT NULL,
	game    INTEGER NOT NULL CHECK (game >= 0),
	at_ns   INTEGER NOT NULL,
	role    TEXT    NOT NULL CHECK (role IN ('arbiter', 'operator', 'white', 'black', 'system')),
	actor   TEXT    NOT NULL,
	kind    TEXT    NOT NULL CHECK (kind <> ''),
	payload TEXT    NOT NULL CHECK (json_valid(payload)),
	prev    TEXT    NOT NULL CHECK (length(prev) = 64),
	hash    TEXT    NOT NULL UNIQUE CHECK (length(hash) = 64)
) STRICT;

CREATE INDEX events_game ON events (match, game, seq);

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
	SELECT RAISE(ABORT, 'events are append-only');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
	SELECT RAISE(ABORT, 'events are append-only');
END;
