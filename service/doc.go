// Package service is the layer between the two faces (cli/ and gui/) and the
// core (match/, store/): what both faces need that is neither the rules of
// the match nor words of one face. The faces import service and the domain
// packages, never each other and never store/ (TestFacesImportOnlyTheService
// checks it).
//
// It opens the record (read-write for the console and the commands that
// write, read-only when a command only reads and the file is
// write-protected), continues a match in a new file, verifies a copy, holds
// the options of a session (Global), reads clock corrections
// (ParseAdjustment) and gives a failure of the file its code (Coded), for
// the one sentence a user reads. Exports are written with package
// atomicfile.
//
// Refusals are codes with arguments (match.Code, and this package's own,
// codes.go and refusals.go); each face says them with its dictionary,
// dictionary.Sentence(service.Coded(err)) (docs/errors.md).
//
// A station's record (docs/stations.md): what both faces need of it — its
// description beside the record, the status file the running station
// writes, the invitation the first station makes, the station lock, the
// command path (Link, Forward: a command's value given at a station sent to
// the authority, signed where it was given) and the serve loop (Serve) —
// is here too (station_*.go), over package station, which imports no face
// and not this package. Built with -tags nostation those files are stubs
// (no record is a station's).
//
// It copies a match to a new file (CopyMatch, ContinueIn) and
// owns the change notifications (Live: the match a console works on, the
// subscribers it tells after each commit, the switch to a new file), as
// wtf's inmem.EventService is wired in its cmd/wtfd/main.go.
//
// # What stays in match/, and why
//
// The command's transaction (match.App.do) stays in the core. The store's
// transaction itself is store's (store.DB.Update: BEGIN IMMEDIATE … COMMIT),
// "now" comes from the session's time source (package timesource, match.Cmd.Now) and the
// notifications go out through Live; but every step between BEGIN and
// COMMIT is a rule of the record over state the core keeps private:
//   - the tail check (events another process appended must continue the
//     chain, else the record is marked broken and read-only) and catching
//     up on a copy of the state (State.clone, Apply);
//   - reading "now" inside the write lock and refusing an instant earlier
//     than the record's last (time never runs back);
//   - re-checking the credentials against the state inside the transaction
//     (changed credentials, the back-off after wrong ones) and appending
//     auth.fail instead of the command for a wrong credential;
//   - an armed recovery note written as the command's first event (rule 7),
//     and the heartbeat marked only when that commit wrote it;
//   - the station's and the arbiter's signatures, stored in the same
//     transaction with keys the App and the authentication hold;
//   - publishing the new state and seal under the App's lock only after
//     the commit, then telling (SetChanged) — so nothing sees an event's
//     effect before the event is in the record.
//
// Running these from here would export the core's transaction, the
// authentication result, the keys, the state's clone and the tail check, so
// that the credential rules would be executed outside the core; the state
// published after the commit would have to live here (a service.App), and
// every holder of *match.App (both faces, station/, broadcast/, the
// station files here) would change; and match's own tests, which are in
// package match and cannot import service (an import cycle), would need a
// second copy of the wrapper. In wtf's terms match/ plays the part of wtf's
// sqlite services (the use case and its transaction), store/ the SQL
// driver, and this package main.go's wiring and the event service.
package service
