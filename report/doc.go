// Package report writes what an arbiter hands out after a match: the match
// PGN for broadcasters and databases, and the signed PDF match report for the
// organisers and the appeals board. Both are read from a match.State; neither
// writes an event.
//
// # PGN (MatchPGN, WritePGN)
//
// Every game started so far is one PGN game, in game order (docs/pgn.md is
// the full contract). Its tags are the Seven Tag Roster first and in its
// order — Event (the match title), Site ("?" when unknown), Date (the day the
// game started in the match's time zone, "YYYY.MM.DD"), Round (the game
// number), White and Black (a person as "Last, First", the computer's name as
// it is), Result ("*" while undecided) — then Annotator (the arbiter, "Last,
// First"), UTCDate and UTCTime (the start in UTC), Mode "OTB", TimeControl
// (§9.6.1 of the standard, "?" where it cannot express the control: delays,
// an increment in a period with a move count) with ArbiterTimeControl (the
// exact control; per side when the players' controls differ), WhiteType and
// BlackType ("human", "program"), Termination (§9.8.1 values only:
// StandardTermination), PlyCount, Arbiter and ArbiterTimeZone.
//
// Every move carries exactly one comment, built as
//
//	[(=) ][%clk H:MM:SS] [%emt H:MM:SS][ [%evt …]…][ NOTE; NOTE…]
//
// "(=)" when the mover offered a draw with that move; %clk is the mover's
// remaining time after the move, including any period time or increment the
// move earned, rounded down to whole seconds; %emt is the time the move took:
// the running time of the mover's turn up to the press, a delay included,
// time with the clocks stopped excluded (the time charged follows from
// consecutive %clk).
// The incidents that happened after that move and before the next one, by
// their instants ([match.Game.Follows]: what happened before the first move
// is in a comment before it, what happened after a move struck out since is
// in that move's comment in its variation), are each a structured command
// "[%evt KIND RULE TIME ROLE]" (IncidentCommand; TIME in UTC to the
// millisecond) and the words "#SEQ Role: kind (rule) text; W H:MM:SS[.fff]
// B H:MM:SS[.fff]" (IncidentNote: SEQ the record's event, an appeal
// "against #SEQ" of the decision it contests; an adjustment or a
// correction with both clocks before and after it). Moves struck out of the
// record by a correction are a variation right after the move that replaced
// them, each with its [%clk] and [%emt], commented "struck out: operator
// error, rule 10: REASON"; a struck run not yet replaced is named in the
// last comment. MatchPGNMainLine (the live feed) says each struck run in
// the comment of the move before it instead of a variation. The
// last move's comment ends with how the game ended ("[%evt end TERMINATION
// TIME system] Game over: …"); what was logged after the game ended (an
// appeal) follows that, in record order. Free text never contains "{", "}"
// or "[%".
// The movetext itself is written by scoresheet.WritePGN.
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
// incident log — each incident with its record event "#14", an appeal with
// the decision it contests "against #14" —, signature lines for the arbiter and both players) and an
// appendix (rulings, appeals and other decisions with their outcome; the
// record's fingerprint and how to check it with "arbiter verify --head").
//
// Output is deterministic: the same state, head and options give the same
// bytes (the document's dates are the instant of the record's last event).
// Times of day are printed in the match's time zone (match.Match.Location),
// the zone named.
//
// # Files
//
// pdf.go holds WritePDF and its options; layout.go the renderer and its
// primitives (headings, paragraphs, tables); then one file per part of the
// report: cover.go, sheet.go (a game's scoresheet), chart.go (the time
// chart), incidents.go (the incident log and the clock adjustments),
// signatures.go and appendix.go. The incident kinds they tell apart are
// match's constants (match.IncidentAdjust, …).
package report
