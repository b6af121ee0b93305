// Package report writes what an arbiter hands out after a match: the match
// PGN for broadcasters and databases, and the signed PDF match report for the
// organisers and the appeals board. Both are read from a match.State; neither
// writes an event.
//
// # PGN (MatchPGN, WritePGN)
//
// Every game started so far is one PGN game, in game order. Its tags are the
// Seven Tag Roster first and in its order — Event (the match title), Site
// ("?" when unknown), Date (the day the game started, UTC, "YYYY.MM.DD"),
// Round (the game number), White, Black, Result ("*" while undecided) — then
// TimeControl (White's control in PGN syntax; when the players' controls
// differ, also WhiteTimeControl and BlackTimeControl), Termination (the
// scoresheet's termination, "unterminated" while the game runs), PlyCount and
// Arbiter. There is no Annotator tag.
//
// Every move carries exactly one comment, built as
//
//	[(=) ][%clk H:MM:SS] [%emt H:MM:SS][ NOTE; NOTE…]
//
// "(=)" when the mover offered a draw with that move; %clk is the mover's
// remaining time after the move, including any period time or increment the
// move earned, rounded down to whole seconds; %emt is the time the move took:
// the running time of the mover's turn up to the press, a delay included,
// time with the clocks stopped excluded (the time charged follows from
// consecutive %clk).
// The notes are the incidents logged after that move and before the next one
// (an incident logged before the first move goes to the first move's
// comment), each written "Role: kind (rule) text; W H:MM:SS B H:MM:SS", and
// moves struck out of the record by a correction ("struck out: 24. Nf3").
// Comment text never contains "{" or "}". The movetext itself is written by
// scoresheet.WritePGN.
//
// # PDF (WritePDF)
//
// A4 or US Letter, English or German, DejaVu Sans embedded (moves are printed
// in figurine notation, ♘f3). The report has a cover (match, players — the
// computer and its operators named —, arbiter, appeals board, time control,
// standings table, match result), one section per game started (header,
// two-column scoresheet with the clock after each move and the time it took,
// "(=)" draw-offer marks, a rule where each period's control was reached, a
// chart of both players' remaining time with the controls drawn in, the
// incident log, signature lines for the arbiter and both players) and an
// appendix (rulings, appeals and other decisions with their outcome; the
// record's fingerprint and how to check it with "arbiter verify --head").
//
// Output is deterministic: the same state, head and options give the same
// bytes (the document's dates are the instant of the record's last event).
// Times of day are printed in UTC.
package report
