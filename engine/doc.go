// Package engine is the computer's equipment (issue 26, docs/engine.md): a
// bridge between the record and a UCI chess engine at the operator's
// station, under the match regulations' rules 7–12 and 14.
//
// The bridge is one more face of the command layer: it follows the record
// (on one machine the record itself, polled through SQLite's data_version;
// on an operator's laptop the station's replica) and builds command values
// (match.EngineMove, match.Move, match.LogIncident) that it gives as the
// operator through the same executors as the console: App.Do here, the
// station's link (service.Link.Send, the command's value) at a station's record ([Record]).
//
// When it is the computer's turn it writes "position …" and "go wtime W
// btime B [winc WI binc BI] [movestogo N]" with the clocks read from the
// record at the instant the go line is written, as 'status --at' reads
// them (rules 8, 11); it records the engine's bestmove as engine.move with
// the SHA-256 of the transcript up to it (rule 9), and with --play makes
// it. An engine that exits, hangs or answers an illegal move is a
// technical fault: recorded, and the engine restarted and set up on the
// computer's turn (rules 7, 12). Every line to and from the engine is kept
// in the game's transcript (transcript.go), which 'arbiter verify' checks
// against the engine.move events (CheckTranscripts).
//
// Package fake is a small engine for tests that fails on cue.
package engine
