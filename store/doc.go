// Package store is Arbiter's event log: one SQLite file per match holding an
// append-only, hash-chained sequence of events.
//
// # Contract
//
//   - The file is a SQLite 3 database whose PRAGMA application_id is
//     ApplicationID ("ARBI"). Open refuses any other file with ErrForeign and
//     leaves it byte-for-byte untouched; it decides this by reading the file
//     header directly and then through a read-only connection, before any
//     write. The header is read directly only while no SQLite connection of
//     this process holds the file (held.go): closing a descriptor opened by
//     other means would drop the process's POSIX locks on the record, and an
//     outside reader would then delete the write-ahead log under the writer
//     (docs/store.md, "One way in to the file").
//   - A station sets a head check (SetHeadCheck): before the first Append of
//     an Update, the file's last event is read whole and checked, so that a
//     file edited behind its writer is caught before anything follows it.
//   - The schema is created and upgraded by numbered migrations embedded in
//     the binary (migrations/0001_*.sql, ...). PRAGMA user_version records the
//     last one applied. Each migration runs in its own transaction. A file
//     whose user_version is newer than this binary knows is refused with
//     ErrNewerSchema, untouched. Before an existing file is upgraded, a
//     consistent copy of it is written to PATH.bak-v<N>, N being its old
//     user_version.
//   - Events are numbered 1, 2, 3, ... without gaps (Event.Seq). Each event
//     carries the hash of its predecessor (Event.Prev; 64 zeros for event 1)
//     and its own hash (Event.Hash), a SHA-256 over a length-prefixed encoding
//     of all its fields (see EventHash). Changing, removing, inserting or
//     reordering an event therefore breaks the chain, and Verify says where.
//     A wholesale rebuilt chain is caught by comparing the head hash with one
//     written down outside the file (Verify's wantHead).
//   - Triggers refuse UPDATE and DELETE on the events table. They stop
//     mistakes, not intruders; the hash chain is what detects intruders.
//   - Writers use Update, which runs fn inside BEGIN IMMEDIATE on a single
//     connection: fn sees every event committed before it by any process
//     (Tx.EventsAfter) and appends new ones (Tx.Append). Either all events
//     appended by fn are committed, or none. Update returns only after the
//     commit is durable (WAL, synchronous=FULL) — except an Update marked
//     HeldElsewhere on a handle told SetEventsHeldElsewhere (a record
//     holder's station: events its stream holds on the disk already),
//     which commits with synchronous=NORMAL: in the log, which a kill -9
//     and every reader find, not yet on the disk, which a power cut may
//     take and the stream gives back (heldsync.go; docs/stations.md, "The
//     record holders' commits without a second fsync"). Every other write
//     (an Update not so marked, the heartbeat, meta, checkpoints, backups)
//     stays FULL, and its sync takes the commits before it too.
//   - Several processes may use one file at once (the console and a CLI
//     call). Each *DB holds exactly one SQLite connection; writers wait up to
//     5 s for one another (busy_timeout).
//   - The heartbeat (which process holds the console, and when it last said
//     so) and the meta table live outside the hash chain.
//   - Ed25519 signatures live beside the chain in the signatures table
//     (Signature, Tx.PutSignature, DB.Record). The store keeps them without
//     interpreting them; package match says what is signed and checks it, so
//     that a consistently rewritten chain is caught without a head written
//     down elsewhere (docs/store.md, "Credentials and signatures").
//   - SQLite's "disk full" and "read-only" failures surface as errors that
//     wrap ErrDiskFull and ErrReadOnly.
//   - What a person reads is a refusal with a [Code] and its arguments
//     (refusals.go, [ErrorCode]; issue 25): its Error() is the English, and
//     every face words it from the shared dictionary by its code. SQLite's
//     own failures stay errors wrapped with their context (docs/errors.md).
//
// Calling any *DB method from inside the fn of an Update on the same *DB
// deadlocks, because the one connection is busy with the transaction; use the
// *Tx instead.
//
// The file format and the hash encoding are described for outside readers in
// docs/store.md.
package store
