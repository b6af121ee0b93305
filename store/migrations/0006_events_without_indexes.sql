-- 0006: a commit writes one page of events, not three (docs/store.md,
-- "Why events has no index but its key", issue 29). No statement reads
-- events by hash or by (match, game): the UNIQUE index on hash and the
-- index events_game cost every commit a page each (hash is random, so its
-- leaf is always another page) and served nothing. A duplicated or edited
-- event is detected by the hash chain (Verify), which covers seq: no two
-- events of a chain share a hash. SQLite cannot drop a column's UNIQUE, so
-- the table is rebuilt: its rows are copied as they are, columns in the
-- same order, and the append-only triggers made again. The chain and its
-- head are untouched.
CREATE TABLE events_v6 (
	seq         INTEGER PRIMARY KEY CHECK (seq >= 1),
	match       INTEGER NOT NULL,
	game        INTEGER NOT NULL CHECK (game >= 0),
	at_ns       INTEGER NOT NULL,
	role        TEXT    NOT NULL CHECK (role IN ('arbiter', 'operator', 'white', 'black', 'system')),
	actor       TEXT    NOT NULL,
	kind        TEXT    NOT NULL CHECK (kind <> ''),
	payload     TEXT    NOT NULL CHECK (json_valid(payload)),
	prev        TEXT    NOT NULL CHECK (length(prev) = 64),
	hash        TEXT    NOT NULL CHECK (length(hash) = 64),
	received_ns INTEGER NOT NULL DEFAULT 0
) STRICT;
INSERT INTO events_v6 (seq, match, game, at_ns, role, actor, kind, payload, prev, hash, received_ns)
	SELECT seq, match, game, at_ns, role, actor, kind, payload, prev, hash, received_ns FROM events ORDER BY seq;
DROP TABLE events; -- with its index, its UNIQUE's index and its triggers
ALTER TABLE events_v6 RENAME TO events;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
	SELECT RAISE(ABORT, 'events are append-only');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
	SELECT RAISE(ABORT, 'events are append-only');
END;
