package match

import (
	"time"

	"arbiter/internal/phrase"
	"arbiter/store"
)

// One engine per match (docs/engine.md, "One bridge per match"). The engine
// bridge that plays the computer's side records its start (engine.start)
// and its end (engine.stop), so that every station's replica knows which
// bridge runs, where (the station), in which process and under which
// transcripts (FILE.engine/game-N.BRIDGE.log). A second bridge anywhere in
// the match is refused naming the first. Taking over from a bridge that is
// gone is an explicit act the record keeps: engine.start names the bridge
// it replaces and why, at another station only when it is not the human's
// turn (rules 12 and 13: work on the computer's equipment, not on the
// human's turn), and a technical fault is logged in the game in progress
// (rules 6, 7, 12). While the record knows a bridge plays, a move of the
// computer given by hand before that bridge answered is refused unless it
// is marked as not the engine's (Move.NotEngine, an incident not-engine).

// Bridge is the engine bridge the record knows to play the computer's
// side: its engine.start, until its engine.stop or another bridge's
// take-over (State.Bridge).
type Bridge struct {
	Seq     int64
	Started time.Time
	EngineStartPayload
}

// Where is where the bridge runs, as a face says it: the station's name,
// or the record's own machine (a record without stations).
func (b *Bridge) Where() any {
	if b.Station == "" {
		return phrase.Word("the record's own machine")
	}
	return b.Station
}

// EngineStartPayload is a bridge's start as the record holds it.
type EngineStartPayload struct {
	// Bridge is the bridge's id (BridgeIDLen lowercase hex digits, random):
	// its transcripts are FILE.engine/game-N.BRIDGE.log.
	Bridge string `json:"bridge"`
	// Station is the station the bridge runs at ("": the record's own
	// machine, a record without stations); Host the machine's name and
	// PID the bridge's process, for the words; Cmd the engine's command.
	Station string `json:"station,omitempty"`
	Host    string `json:"host,omitempty"`
	PID     int    `json:"pid,omitempty"`
	Cmd     string `json:"cmd,omitempty"`
	// Replaces is the bridge this one takes over (gone: its station died,
	// its process ended without stopping), Reason why.
	Replaces string `json:"replaces,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// EngineStopPayload is a bridge's end.
type EngineStopPayload struct {
	Bridge string `json:"bridge"`
}

// BridgeIDLen is the length of a bridge's id in hex digits.
const BridgeIDLen = 12

// EngineStart records that an engine bridge plays the computer's side from
// now on ('engine run' gives it as the operator before its engine starts).
// Refused while the record knows another bridge plays, unless Replaces
// names that one, with a Reason.
type EngineStart struct {
	Bridge   string `json:"bridge"`
	Station  string `json:"station,omitempty"`
	Host     string `json:"host,omitempty"`
	PID      int    `json:"pid,omitempty"`
	Cmd      string `json:"cmd,omitempty"`
	Replaces string `json:"replaces,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

func (EngineStart) Kind() string { return "engine.start" }

// Validate checks the fields' forms.
func (s EngineStart) Validate() error {
	if !isHex(s.Bridge, BridgeIDLen) || (s.Replaces != "" && (!isHex(s.Replaces, BridgeIDLen) || s.Replaces == s.Bridge)) {
		return refuseAs(CodeEngineBridgeIDMalformed)
	}
	if s.PID < 0 {
		return refuseAs(CodeEngineBridgeIDMalformed)
	}
	for what, v := range map[phrase.Word]string{"the station": s.Station, "the host": s.Host, "the engine's command": s.Cmd} {
		if err := checkText(what, v, false); err != nil {
			return err
		}
	}
	if s.Replaces != "" {
		return checkText("the reason", s.Reason, true)
	}
	if s.Reason != "" {
		return refuseAs(CodeEngineReasonWithoutTakeOver)
	}
	return nil
}

func (s EngineStart) run(t *tx, res *Result) error {
	if err := t.require("engine start", RoleArbiter, RoleOperator); err != nil {
		return err
	}
	mt, err := t.match()
	if err != nil {
		return err
	}
	if mt.Computer == "" {
		return refuseAs(CodeNoComputer)
	}
	if err := s.Validate(); err != nil {
		return err
	}
	if sr := t.cmd.Signed; sr != nil && sr.From != s.Station {
		// a bridge says where it runs; a station's signed request says it too
		return refuseAs(CodeEngineStationNotSender, s.Station, sr.From)
	}
	cur := t.st.Bridge
	switch {
	case cur != nil && cur.Bridge == s.Bridge:
		return refuseAs(CodeEngineBridgeStarted, s.Bridge)
	case cur != nil && s.Replaces != cur.Bridge:
		return refuseAs(CodeEngineBridgeRuns, cur.Where(), cur.PID, cur.Started.UTC().Format(time.RFC3339), mt.Computer)
	case cur == nil && s.Replaces != "":
		return refuseAs(CodeEngineNoneToTakeOver, s.Replaces)
	}
	g := t.st.CurrentGame()
	live := cur != nil && g != nil && g.Live()
	if live && cur.Station != s.Station {
		// replacing the computer's equipment by another machine's: not on
		// the human's turn (rules 12, 13)
		if err := notHumansTurn("rule 13", "taking over the computer's equipment at another station")(t, g, IncidentArgs{}); err != nil {
			return err
		}
	}
	p := EngineStartPayload(s)
	if err := t.emit(0, KindEngineStart, p); err != nil {
		return err
	}
	if !live {
		return nil
	}
	text := phrase.Errorf("The engine bridge %s at %s (process %d, started %s) is taken over by the bridge %s at %s (process %d): %s",
		cur.Bridge, cur.Where(), cur.PID, cur.Started.UTC().Format(time.RFC3339), s.Bridge, p.where(), s.PID, s.Reason)
	return LogIncident{Incident: IncidentTechnicalFault, IncidentArgs: IncidentArgs{Text: text.Error()}}.run(t, res)
}

func (p EngineStartPayload) where() any { return (&Bridge{EngineStartPayload: p}).Where() }

// EngineStop records that the bridge that plays the computer's side
// stopped (the operator stopped it; it left no game to play).
type EngineStop struct {
	Bridge string `json:"bridge"`
}

func (EngineStop) Kind() string { return "engine.stop" }

// Validate checks the bridge's id.
func (s EngineStop) Validate() error {
	if !isHex(s.Bridge, BridgeIDLen) {
		return refuseAs(CodeEngineBridgeIDMalformed)
	}
	return nil
}

func (s EngineStop) run(t *tx, _ *Result) error {
	if err := t.require("engine stop", RoleArbiter, RoleOperator); err != nil {
		return err
	}
	if _, err := t.match(); err != nil {
		return err
	}
	if err := s.Validate(); err != nil {
		return err
	}
	if cur := t.st.Bridge; cur == nil || cur.Bridge != s.Bridge {
		return refuseAs(CodeEngineBridgeNotPlaying, s.Bridge)
	}
	return t.emit(0, KindEngineStop, EngineStopPayload(s))
}

func applyEngineStart(s *State, e store.Event) error {
	var p EngineStartPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	s.Bridge = &Bridge{Seq: e.Seq, Started: e.At, EngineStartPayload: p}
	return nil
}

func applyEngineStop(s *State, e store.Event) error {
	var p EngineStopPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	if s.Bridge != nil && s.Bridge.Bridge == p.Bridge {
		s.Bridge = nil
	}
	return nil
}
