// Package station makes several machines on the hall's LAN one match: the
// arbiter's workstation, an organiser's machine and the display PC hold the
// record; the operator's laptop and the control room's mirror terminal are
// clients. See docs/stations.md for the contract.
//
// Mechanism. Every record holder embeds a nats-server with JetStream (file
// storage, sync always) and connects to it in process. The match's events
// are one stream (EVENTS, subject arb.ev), one message per event, deletes
// and purges denied, appended with Nats-Expected-Last-Sequence (so the
// stream sequence is the event's seq) and Nats-Msg-Id (the command id, so a
// retry never duplicates); a command of several events is one atomic batch.
// Every station keeps its own SQLite record in today's format (package
// store) and applies the stream to it (Replica), checking each event's seq,
// prev, hash and the signatures that travel with it (match.CheckIncoming);
// a mismatch stops applying and raises the alarm.
//
// One station, the authority, runs commands: it catches up with the stream,
// answers a command id already in the record with its seq, validates the
// command in package match and appends it. Its record's Update puts the
// events into the stream before it commits them (store.DB.SetBeforeCommit),
// so the record never holds an event the stream refused. The authority is
// the station named by the latest claim event (station.claim) in the log; a
// record holder that hears nothing from it for about 2 s appends its own
// claim with the sequence check, so only one claimant, on the majority side,
// wins. The other stations send requests (Request: id, role, the instant
// stamped where the command was given) on arb.cmd and retry with the same id
// until answered. Offsets to the authority's timeline are estimated from
// time requests (arb.time) several times a second, NTP-style. When one of
// two record holders dies, the survivor starts a new epoch (Config.Epoch):
// a lone engine in a new store takes its record and a claim with the next
// epoch's number makes it the only record holder.
//
// Files, by concern (as nats-server keeps raft.go apart from jetstream.go):
// station.go starts and stops a station and reports its status; stream.go
// feeds the replica from the stream and seeds it; commands.go is the
// authority's command path (requests, answers, the append before commit);
// election.go the heartbeats, claims and failover; timesync.go the match
// timeline and the offsets to it; refused.go the refused connections
// recorded; engine.go, replica.go, wire.go, security.go and timeline.go the
// embedded server, the local record, the messages, TLS and the saved
// timeline. A station given its credentials (Config.Creds) signs the
// record with the key its certificate of the match's CA certifies, and its
// claims carry that certificate (match.CertifyStationKey; docs/stations.md,
// "Whose key a system event carries"). The package imports no face and not package service
// (TestStationDoesNotImportServiceNorAFace): its time source is
// internal/timesource.
package station
