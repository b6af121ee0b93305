// Package broadcast serves the match live on the hall's network, read-only
// and without credentials: the PGN of every game with [%clk] on each move for
// broadcasters (lichess broadcasts, DGT LiveChess, pgn4web poll a URL), and a
// spectator page for a projector's browser.
//
// A Server reads the record through its own read-only handle. Its poller asks
// the store for the last seq (one indexed query) every Interval; when the
// seq moved it applies the new events to its own match.State and builds an
// immutable snapshot — the PGN of all games and of each game, its ETag
// ("seq-head") and Last-Modified (the instant of the last event), and the
// spectator view. Requests only read the current snapshot (an atomic
// pointer), so a commit is visible within Interval plus one rebuild and no
// request ever touches the database.
//
// Routes: GET/HEAD /games.pgn, /game/N.pgn, / (the spectator page, English
// or German by ?lang= or Accept-Language), /state.json (what the page polls),
// /assets/… (embedded CSS, script and font). Everything else is 404, every
// other method 405. Nothing of the match's PIN hash or salt is ever served.
package broadcast
