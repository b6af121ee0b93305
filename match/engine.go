package match

import (
	"encoding/hex"
	"strings"
	"time"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/scoresheet"
	"arbiter/store"
)

// The computer's equipment (issue 26, docs/engine.md): a UCI engine at the
// operator's station, run by the engine bridge (package engine), records
// each move it chooses as an engine.move event before the operator makes it
// on the board (rule 9). The event names the position the engine was given
// and the transcript of everything said to and by the engine up to its
// answer (its SHA-256), so that the record proves what the computer chose
// and when. A move of the computer entered otherwise is refused in one
// sentence naming both moves (an operator's error, rule 10), unless it is
// marked as not the engine's, with a reason, which logs an incident.

// IncidentNotEngine is the incident a move of the computer entered as not
// the engine's logs (rules 9 and 10).
const IncidentNotEngine = "not-engine"

// EngineMovePayload is the engine's move as the record holds it.
type EngineMovePayload struct {
	// Ply is the ply the move would be (1-based: the plies recorded before
	// it plus one) and FEN the position the engine was given.
	Ply int    `json:"ply"`
	FEN string `json:"fen"`
	UCI string `json:"uci"`
	SAN string `json:"san"`
	// Received is the instant the bridge read the engine's bestmove, on the
	// match timeline (RFC 3339; the transcript line's instant). Given at a
	// station later than the command's receipt (within the receiving
	// clock's uncertainty) it is lowered to the receipt: Lowered, and Read
	// is the instant the bridge said, as signed.
	Received string `json:"received"`
	Read     string `json:"read,omitempty"`
	Lowered  bool   `json:"lowered,omitempty"`
	// Eval is the engine's last score before it answered, as UCI says it
	// from the engine's side ("cp 34", "mate -3"); Depth and Nodes its
	// search's.
	Eval  string `json:"eval,omitempty"`
	Depth int    `json:"depth,omitempty"`
	Nodes int64  `json:"nodes,omitempty"`
	// Pondered: the search began on the human's time (go ponder) and the
	// human played the expected move (ponderhit).
	Pondered bool `json:"pondered,omitempty"`
	EngineTranscript
	// Bridge is the bridge that recorded it (absent: by hand, or in older
	// records).
	Bridge string `json:"bridge,omitempty"`
}

// EngineTranscript names the part of a game's transcript
// (FILE.engine/game-N.log) an engine.move attests: its first Lines lines,
// Bytes long, whose SHA-256 is SHA256 (hex), ending with the bestmove line
// and its newline. LineHashes are the first 8 hex digits of the SHA-256 of
// each line (without its newline) after the lines the game's previous
// engine.move attested (From of them): they let 'arbiter verify' name the
// first line that differs.
type EngineTranscript struct {
	File       string   `json:"transcript"`
	Lines      int      `json:"lines"`
	Bytes      int64    `json:"bytes"`
	SHA256     string   `json:"sha256"`
	From       int      `json:"from,omitempty"`
	LineHashes []string `json:"line_hashes,omitempty"`
}

// EngineMove records the move the computer's engine chose ('engine move';
// the bridge gives it as the operator): the game and ply it is for, the
// position the engine was given, the move (UCI), when it was received and
// the transcript that shows it. With Play the operator's move and press
// follow in the same command (engine run --play: an unattended operator's
// station).
type EngineMove struct {
	Game     int       `json:"game"`
	Ply      int       `json:"ply"`
	FEN      string    `json:"fen"`
	UCI      string    `json:"uci"`
	Received time.Time `json:"received"`
	Eval     string    `json:"eval,omitempty"`
	Depth    int       `json:"depth,omitempty"`
	Nodes    int64     `json:"nodes,omitempty"`
	Pondered bool      `json:"pondered,omitempty"`
	EngineTranscript
	Play bool `json:"play,omitempty"`
	// Bridge is the bridge that records it (its engine.start; "": a move
	// recorded by hand, 'engine move', or by a bridge before bridges were
	// recorded): refused unless that bridge plays (one engine per match: a
	// bridge taken over records nothing more).
	Bridge string `json:"bridge,omitempty"`
}

func (EngineMove) Kind() string { return "engine.move" }

// clockBound: like the move it may make, the engine's move is bounded by
// its game's clock only (a system event recorded meanwhile never refuses
// it: docs/commands.md).
func (EngineMove) clockBound() {}

// Validate checks the fields' forms.
func (m EngineMove) Validate() error {
	if err := checkGameNumber(m.Game); err != nil {
		return err
	}
	switch {
	case m.Game < 1 || m.Ply < 1 || m.Received.IsZero() || m.Lines < 1 || m.Bytes < 1 || m.From < 0 || m.From >= m.Lines:
		return refuseAs(CodeEngineMoveIncomplete)
	case !isHex(m.SHA256, 64) || len(m.LineHashes) > m.Lines-m.From:
		return refuseAs(CodeEngineMoveIncomplete)
	}
	for _, h := range m.LineHashes {
		if !isHex(h, 8) {
			return refuseAs(CodeEngineMoveIncomplete)
		}
	}
	for what, s := range map[phrase.Word]string{"the move": m.UCI, "the FEN": m.FEN, "the transcript": m.File} {
		if err := checkText(what, s, true); err != nil {
			return err
		}
	}
	if err := checkText("the evaluation", m.Eval, false); err != nil {
		return err
	}
	if strings.ContainsAny(m.File, `/\`) || m.File == "." || m.File == ".." {
		return refuseAs(CodeEngineMoveIncomplete)
	}
	if m.Bridge != "" && !isHex(m.Bridge, BridgeIDLen) {
		return refuseAs(CodeEngineBridgeIDMalformed)
	}
	return nil
}

func isHex(s string, n int) bool {
	if len(s) != n || strings.ToLower(s) != s {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

func (m EngineMove) run(t *tx, res *Result) error {
	g, err := t.liveFor("engine move", RoleArbiter, RoleOperator)
	if err != nil {
		return err
	}
	if err := t.clockBound(g); err != nil {
		return err
	}
	if err := m.Validate(); err != nil {
		return err
	}
	mt := t.st.Match
	side, ok := g.Side(mt.Computer)
	if !ok {
		return refuseAs(CodeNoComputer)
	}
	switch b := t.st.Bridge; {
	case m.Bridge == "" && b != nil:
		// One engine per match: while the record knows a bridge plays,
		// the engine's move is that bridge's to record, not a second
		// engine's typed in by hand.
		return refuseAs(CodeEngineBridgeRuns, b.Where(), b.PID, b.Started.UTC().Format(time.RFC3339), mt.Computer)
	case m.Bridge != "" && (b == nil || b.Bridge != m.Bridge):
		return refuseAs(CodeEngineBridgeNotPlaying, m.Bridge)
	}
	if g.Number != m.Game || g.Sheet.Ply()+1 != m.Ply || g.Sheet.FEN() != m.FEN {
		return refuseAs(CodeEngineMoveStale, m.Game, m.Ply, g.Number, g.Sheet.Ply()+1)
	}
	if g.ToMove() != side {
		return refuseAs(CodeEngineMoveNotComputers, mt.Computer, m.Ply)
	}
	// the instant the bridge read the move is bounded as the command's own
	// (checkWhen): nobody records an instant that has not yet come, and the
	// engine answered no position of a game not yet begun
	received, tol := t.cmd.receipt(t.cmd.At)
	if m.Received.After(received.Add(tol)) {
		return refuseWithin(CodeEngineReadFuture, CodeEngineReadFutureHere, tol, instantText(m.Received, false), instantText(received, false))
	}
	if m.Received.Before(g.Started) {
		return refuseAs(CodeEngineReadBeforeGame, instantText(m.Received, false), g.Number, instantText(g.Started, false))
	}
	pos := g.Sheet.Position()
	mv, err := chess.UCINotation{}.Decode(pos, m.UCI)
	if err != nil || !legal(pos, mv) {
		return refuseAs(CodeMoveNotLegal, phrase.Errorf("%s is not a legal move in this position", m.UCI))
	}
	pressed := g.Pressed != nil
	p := EngineMovePayload{Ply: m.Ply, FEN: m.FEN, UCI: m.UCI, SAN: chess.AlgebraicNotation{}.Encode(pos, mv),
		Received: m.Received.UTC().Format(time.RFC3339Nano), Eval: m.Eval, Depth: m.Depth, Nodes: m.Nodes, Pondered: m.Pondered,
		EngineTranscript: m.EngineTranscript, Bridge: m.Bridge}
	if m.Received.After(received) {
		// no instant lies after its receipt: a station's read within
		// the receipt's uncertainty is lowered to it, as a press is
		// (Cmd.lowered), the instant read kept as signed
		p.Received, p.Read, p.Lowered = received.UTC().Format(time.RFC3339Nano), p.Received, true
	}
	if err := t.emit(g.Number, KindEngineMove, p); err != nil {
		return err
	}
	if !m.Play {
		return nil
	}
	return Move{Input: m.UCI, Pressed: pressed}.run(t, res)
}

// legal reports whether mv is one of pos's legal moves.
func legal(pos *chess.Position, mv *chess.Move) bool {
	for _, v := range pos.ValidMoves() {
		if v.String() == mv.String() {
			return true
		}
	}
	return false
}

// EngineChoice is the engine's latest move recorded in a game (Game.Engine).
type EngineChoice struct {
	Seq int64
	EngineMovePayload
}

// Label is the move as a scoresheet writes it: "23.Nf3", "23…Nf6".
func (e EngineChoice) Label() string { return labelIn(e.FEN, e.SAN) }

// labelIn is the move san made in the position fen as a scoresheet writes
// it: the FEN's move number, and "…" for Black's move.
func labelIn(fen, san string) string {
	f := strings.Fields(fen)
	n := "1"
	if len(f) == 6 {
		n = f[5]
	}
	if len(f) > 1 && f[1] == "b" {
		return n + "…" + san
	}
	return n + "." + san
}

// EngineFor is the engine's move for the position g stands in (the next
// ply), or nil when the record has none for it.
func (g *Game) EngineFor() *EngineChoice {
	if g.Engine == nil || g.Sheet == nil || g.Engine.Ply != g.Sheet.Ply()+1 || g.Engine.FEN != g.Sheet.FEN() {
		return nil
	}
	return g.Engine
}

func applyEngineMove(s *State, g *Game, e store.Event) error {
	var p EngineMovePayload
	if err := decode(e, &p); err != nil {
		return err
	}
	g.Engine = &EngineChoice{Seq: e.Seq, EngineMovePayload: p}
	return nil
}

// checkEngine refuses a move of the computer that is not the move its
// engine chose for this position (an operator's error, rule 10), unless it
// is marked as not the engine's with a reason; then it returns the
// incident to log after the move.
func (m Move) checkEngine(t *tx, g *Game, mover clock.Side, mv *scoresheet.Tried) (*IncidentPayload, error) {
	mt := t.st.Match
	computers := mt.Computer != "" && g.Name(mover) == mt.Computer
	if m.NotEngine && !computers {
		return nil, refuseAs(CodeNotEngineOnlyComputer, g.Name(mover), mt.Computer)
	}
	if !computers {
		return nil, nil
	}
	label := labelIn(g.Sheet.FEN(), mv.SAN) // the move as worked out once (Sheet.Try)
	chosen := g.EngineFor()
	if !m.NotEngine {
		if chosen != nil && chosen.UCI != mv.UCI {
			return nil, refuseAs(CodeNotTheEnginesMove, label, mt.Computer, chosen.Label())
		}
		if b := t.st.Bridge; chosen == nil && b != nil {
			// a bridge plays the computer and has not answered: a move by
			// hand now is meant only as not the engine's (rules 9, 10)
			return nil, refuseAs(CodeEngineNotAnswered, label, b.Where(), mt.Computer)
		}
		return nil, nil
	}
	why := phrase.Errorf("%s's move %s entered as not the engine's (the engine gave no move for it): %s", mt.Computer, label, m.Reason)
	if chosen != nil {
		why = phrase.Errorf("%s's move %s entered, not the engine's move %s: %s", mt.Computer, label, chosen.Label(), m.Reason)
	}
	return &IncidentPayload{Kind: IncidentNotEngine, Text: why.Error(), Rule: "rules 9, 10", Why: why}, nil
}
