-- 0004: a role's signature of a command given at another station (docs/store.md,
-- "Signatures", and docs/stations.md): kind 'request', with the request's signed
-- fields in the new column request (JSON). SQLite cannot widen a CHECK, so the
-- table is rebuilt; its rows are copied as they are. The chain is untouched.
CREATE TABLE signatures_v4 (
	seq     INTEGER NOT NULL CHECK (seq >= 1),
	kind    TEXT    NOT NULL CHECK (kind IN ('command', 'station', 'head', 'request')),
	count   INTEGER NOT NULL CHECK (count >= 1),
	cmd     TEXT    NOT NULL,
	signer  TEXT    NOT NULL,
	station TEXT    NOT NULL,
	key     TEXT    NOT NULL CHECK (length(key) = 64),
	sig     TEXT    NOT NULL CHECK (length(sig) = 128),
	request TEXT    NOT NULL DEFAULT '',
	PRIMARY KEY (seq, kind)
) STRICT;
INSERT INTO signatures_v4 (seq, kind, count, cmd, signer, station, key, sig)
	SELECT seq, kind, count, cmd, signer, station, key, sig FROM signatures;
DROP TABLE signatures;
ALTER TABLE signatures_v4 RENAME TO signatures;
