-- 0002: state kept outside the hash chain.
-- heartbeat: exactly one row (id = 1), overwritten by the process that holds the console.
-- meta: small key/value facts about the file; not hashed, not evidence.
CREATE TABLE heartbeat (
	id      INTEGER PRIMARY KEY CHECK (id = 1),
	wall_ns INTEGER NOT NULL,
	pid     INTEGER NOT NULL,
	host    TEXT    NOT NULL
) STRICT;

CREATE TABLE meta (
	key   TEXT PRIMARY KEY NOT NULL CHECK (key <> ''),
	value TEXT NOT NULL
) STRICT;
