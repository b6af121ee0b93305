-- 0003: Ed25519 signatures beside the hash chain (docs/store.md, "Signatures").
-- Not part of the chain's encoding: the chain of version 1 is unchanged.
-- kind 'command': the role's signature of the command that wrote events seq .. seq+count-1.
-- kind 'station': the station's signature of event seq's hash.
-- kind 'head':    the arbiter's signature of the chain head at event seq.
CREATE TABLE signatures (
	seq     INTEGER NOT NULL CHECK (seq >= 1),
	kind    TEXT    NOT NULL CHECK (kind IN ('command', 'station', 'head')),
	count   INTEGER NOT NULL CHECK (count >= 1),
	cmd     TEXT    NOT NULL,
	signer  TEXT    NOT NULL,
	station TEXT    NOT NULL,
	key     TEXT    NOT NULL CHECK (length(key) = 64),
	sig     TEXT    NOT NULL CHECK (length(sig) = 128),
	PRIMARY KEY (seq, kind)
) STRICT;
