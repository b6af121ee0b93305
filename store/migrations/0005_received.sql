-- 0005: the instant each event was received where it was recorded, beside the
-- instant at_ns it claims (docs/store.md, "Hash-chain encoding"). Events written
-- before have 0: they keep the encoding arbiter-event-v1, so the chain and its
-- head are unchanged; an event with a receipt is hashed as arbiter-event-v2.
ALTER TABLE events ADD COLUMN received_ns INTEGER NOT NULL DEFAULT 0;
