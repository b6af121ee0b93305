package engine

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"
)

// The states of the bridge (engine status's "state").
const (
	StateStarting     = "starting"      // the engine is starting (uci, its options, isready)
	StateThinking     = "thinking"      // a search for the computer's move runs
	StatePondering    = "pondering"     // a search on the human's time runs (go ponder)
	StateIdle         = "idle"          // the engine waits (the human's turn, between games)
	StateNotAnswering = "not-answering" // the engine owes an answer past its time, or hung and waits for its restart
	StateStopped      = "stopped"       // no bridge runs, or it left the computer to the operator
)

// Status is what the running bridge tells of itself (FILE.engine/status.json,
// 'engine status --json'): at least the state, the engine's name, its last
// bestmove with its evaluation and depth, and the clocks it sent last.
type Status struct {
	State    string `json:"state"`
	Engine   string `json:"engine"`
	BestMove string `json:"bestmove"`
	Eval     string `json:"eval"`
	Depth    int    `json:"depth"`
	Sent     *Sent  `json:"sent"`
	// Game is the game the engine serves and Ply the ply it thinks on (or
	// last thought on).
	Game int `json:"game"`
	Ply  int `json:"ply"`
	// Seq is the last event of the record the bridge has read.
	Seq int64 `json:"seq"`
	// Cmd is the engine's command, PID its process (0 when none runs),
	// BridgePID the bridge's.
	Cmd       string `json:"cmd"`
	PID       int    `json:"pid"`
	BridgePID int    `json:"bridge_pid"`
	// Bridge is the bridge's id (its engine.start; its transcripts are
	// game-N.BRIDGE.log).
	Bridge string `json:"bridge,omitempty"`
	// Restarts counts this game's restarts after technical faults, of at
	// most MaxRestarts.
	Restarts    int `json:"restarts"`
	MaxRestarts int `json:"max_restarts"`
	// Fault is the last technical fault, Note what the operator should
	// know now ("" when nothing).
	Fault string `json:"fault,omitempty"`
	Note  string `json:"note,omitempty"`
	// SuggestResign: the engine's evaluation of its last ResignMoves moves
	// in a row was at or below ResignBelow pawns (engine run
	// --resign-below, --resign-moves; absent when off): the operator may
	// resign for the computer (rule 14). The bridge never does.
	SuggestResign bool     `json:"suggest_resign"`
	ResignBelow   *float64 `json:"resign_below,omitempty"`
	ResignMoves   int      `json:"resign_moves,omitempty"`
	// Station: the bridge runs at a station's record (the operator's
	// laptop); Uncertainty is how far its instants may be from the match
	// timeline, in milliseconds.
	Station       bool    `json:"station"`
	UncertaintyMS float64 `json:"uncertainty_ms"`
	Updated       string  `json:"updated"`
}

// StatusPath is the running bridge's status file of the record db.
func StatusPath(db string) string { return filepath.Join(Dir(db), "status.json") }

// staleAfter is how old a status file may be before the bridge that wrote
// it counts as gone (it writes every second).
const staleAfter = 3 * time.Second

// writeStatus replaces the status file whole (a temporary file renamed
// over it), so that a reader never sees half of it.
func writeStatus(db string, s Status) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	path := StatusPath(db)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ReadStatus reads the bridge's status of the record db at the instant now:
// a status older than 3 s (the bridge writes it every second) is a bridge
// gone, and reads as stopped; no status file at all is a bridge that never
// ran (ok false).
func ReadStatus(db string, now time.Time) (Status, bool, error) {
	b, err := os.ReadFile(StatusPath(db))
	if errors.Is(err, os.ErrNotExist) {
		return Status{State: StateStopped}, false, nil
	}
	if err != nil {
		return Status{}, false, err
	}
	var s Status
	if err := json.Unmarshal(b, &s); err != nil {
		return Status{}, false, refuse(CodeStatusDamaged, StatusPath(db), err)
	}
	if at, err := time.Parse(time.RFC3339Nano, s.Updated); err != nil || now.Sub(at) > staleAfter {
		if s.State != StateStopped {
			s.Note = "the bridge is not running (its status was last written at " + s.Updated + ")"
		}
		s.State, s.PID = StateStopped, 0
	}
	return s, true, nil
}
