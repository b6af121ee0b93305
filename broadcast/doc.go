// Package broadcast serves the match live on the hall's network, read-only
// and without credentials: the PGN of every game for relays (lichess
// broadcasts, DGT LiveChess, pgn4web poll a URL), and a spectator page for
// a projector's browser and for phones, optionally delayed
// (Options.Delay) against cheating.
//
// A Server reads the record through a [Source]: the process's own SQLite
// handle of it (the console's connection, or the read-only one of `arbiter
// broadcast`); it never opens the file itself. Its poller asks for the last
// seq (one indexed query) every Interval and reads only the events after
// the last one read. Without a delay each is applied at once; with one, an
// event is held back until its instant plus the delay, and the poller wakes
// exactly then: the served view is always the record up to the first event
// later than now − Delay, replayed, so it is exactly the record as it stood
// at that instant. On each change the server builds an immutable snapshot —
// the relay PGN of all games and of each game (relayPGN), its ETag
// ("seq-head") and Last-Modified, the spectator view, and the page's stream
// event in each language — and publishes it through an atomic pointer,
// closing the previous snapshot's channel to wake every open event stream.
// Requests only read the current snapshot and derive the clocks at the
// served instant (now − Delay) from its clock value; none touches the
// database.
//
// Routes: GET/HEAD /games.pgn, /game/N.pgn, / (the spectator page, English
// or German by ?lang= or Accept-Language), /events (the page's server-sent
// events), /state.json (the page's view at the instant asked), /assets/…
// (embedded CSS, scripts and font). Everything else is 404, every other
// method 405. Nothing of the match's PIN hash or salt is ever served.
//
// Serve applies [Limits]: read, write and idle timeouts (a reader that
// takes nothing is dropped within 40 s by default; an event stream is not
// idle) and a connection limit (4,096 by default; more are answered 503),
// lowered to what the process's limit of open files allows. The contract is
// docs/broadcast.md.
package broadcast
