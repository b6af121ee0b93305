package broadcast

import (
	"fmt"
	"strings"
	"time"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/report"
)

// view is the spectator view of a snapshot, before the instant and the
// language are chosen.
type view struct {
	title, site   string
	game, planned int
	white, black  string
	state         match.GameState
	result, term  string
	fen           string
	clk           clock.Clock
	hasClock      bool
	moves         []move
	firstNo       int
	blackFirst    bool
	incident      [2]string // English, German
	players       [2]string
	points        [2]float64
	seq           int64
}

// move is one move of the current game as the page lists it.
type move struct {
	san, uci string
	clock    string // the mover's clock after the move ("" without clock data)
}

func makeView(st *match.State) view {
	v := view{seq: st.Seq}
	if st.Match == nil {
		return v
	}
	m := st.Match
	v.title, v.site, v.planned = m.Title, m.Site, m.GamesPlanned
	sc := st.Score()
	v.players = m.Players
	v.points = [2]float64{sc[m.Players[0]], sc[m.Players[1]]}
	g := st.CurrentGame()
	if g == nil {
		return v
	}
	v.game, v.white, v.black, v.state = g.Number, g.White, g.Black, g.State
	v.result, v.term = g.Result, string(g.Termination)
	v.clk, v.hasClock = g.Clock, true
	if g.Sheet != nil {
		v.fen = g.Sheet.FEN()
		for _, e := range g.Sheet.Entries() {
			if len(v.moves) == 0 {
				v.firstNo, v.blackFirst = e.Number, e.Color == chess.Black
			}
			mv := move{san: e.SAN, uci: e.UCI}
			if !e.At.IsZero() {
				left := e.ClockWhite
				if e.Color == chess.Black {
					left = e.ClockBlack
				}
				mv.clock = clock.FormatShown(left)
			}
			v.moves = append(v.moves, mv)
		}
	}
	if n := len(g.Incidents); n > 0 {
		in := g.Incidents[n-1]
		v.incident = [2]string{report.IncidentLine(m, in, "en"), report.IncidentLine(m, in, "de")}
	}
	return v
}

// View is what the page shows, /state.json serves and the event stream
// sends.
type View struct {
	Lang    string     `json:"lang"`
	Labels  Labels     `json:"labels"`
	Seq     int64      `json:"seq"`
	Title   string     `json:"title"`
	Site    string     `json:"site"`
	Game    int        `json:"game"`
	Planned int        `json:"games"`
	White   string     `json:"white"`
	Black   string     `json:"black"`
	Status  string     `json:"status"`
	Result  string     `json:"result"`
	FEN     string     `json:"fen"`
	Board   [][]Square `json:"-"`
	Clocks
	Moves []MoveRow `json:"moves"`
	// Last is the last move's squares, from and to ("e2", "e4"); empty
	// before the first move.
	Last     []string `json:"last"`
	Incident string   `json:"incident"`
	Score    string   `json:"score"`
	// Delay is the transmission delay in words ("" without one), DelayS in
	// seconds.
	Delay  string `json:"delay"`
	DelayS int64  `json:"delay_s"`
}

// Clocks are both clocks as they stand at instant At, as the clock on the
// table shows them: the page ticks the running one from here (ShownMS −
// max(0, elapsed − HoldMS), or up when CountUp) until the next reading.
type Clocks struct {
	At      string `json:"at"`      // the served instant the readings are for (RFC 3339, UTC)
	Running string `json:"running"` // "white", "black" or "" (stopped)
	WhiteMS int64  `json:"white_ms"`
	BlackMS int64  `json:"black_ms"`
	HoldMS  int64  `json:"hold_ms"`  // the running clock stands still this long first (the rest of a simple delay)
	CountUp bool   `json:"count_up"` // untimed: the clocks show the time used
}

// Square is one square of the board as drawn.
type Square struct {
	Piece string
	Dark  bool
	Name  string // "e4"
	Last  bool   // a square of the last move
}

// MoveRow is one numbered row of the move list: each move with its
// mover's clock after it.
type MoveRow struct {
	No         int    `json:"no"`
	White      string `json:"white"`
	Black      string `json:"black"`
	WhiteClock string `json:"white_clock"`
	BlackClock string `json:"black_clock"`
	// Cur is the side whose move in this row is the last one ("" in the
	// other rows): the page marks it.
	Cur string `json:"-"`
}

// clocks reads both clocks at instant now.
func (v view) clocks(now time.Time) Clocks {
	c := Clocks{At: now.UTC().Format(time.RFC3339Nano)}
	if !v.hasClock {
		return c
	}
	w, wh := v.clk.Shown(clock.White, now)
	b, bh := v.clk.Shown(clock.Black, now)
	c.WhiteMS, c.BlackMS = w.Milliseconds(), b.Milliseconds()
	ctl := v.clk.Control(clock.White)
	c.CountUp = ctl.Mode != clock.Timed || len(ctl.Periods) == 0
	if s, ok := v.clk.Running(); ok {
		c.Running, c.HoldMS = "white", wh.Milliseconds()
		if s == clock.Black {
			c.Running, c.HoldMS = "black", bh.Milliseconds()
		}
	}
	return c
}

// at reads the view at the served instant now in language lang; delay is
// the server's transmission delay (named on the page).
func (v view) at(now time.Time, lang string, delay time.Duration) View {
	l := labels(lang)
	out := View{Lang: lang, Labels: l, Seq: v.seq, Title: v.title, Site: v.site, Game: v.game, Planned: v.planned,
		White: v.white, Black: v.black, Result: v.result, FEN: v.fen, Clocks: v.clocks(now),
		Incident: v.incident[0], DelayS: int64(delay / time.Second)}
	if lang == "de" {
		out.Incident = v.incident[1]
	}
	if delay > 0 {
		out.Delay = fmt.Sprintf(l.Delayed, l.span(delay))
	}
	if v.title != "" {
		out.Score = fmt.Sprintf("%s %s – %s %s", v.players[0], match.Points(v.points[0]), v.players[1], match.Points(v.points[1]))
	}
	switch {
	case v.title == "":
		out.Status = l.NoMatch
	case v.game == 0:
		out.Status = l.NoGame
	case v.state == match.Running:
		out.Status = l.InProgress
	case v.state == match.Paused:
		out.Status = l.Paused
	case v.state == match.Finished || v.state == match.Forfeited:
		out.Status = l.Finished + " " + v.result
		if v.term != "" {
			out.Status += " (" + l.term(v.term) + ")"
		}
	default:
		out.Status = l.NotStarted
	}
	fen := v.fen
	if fen == "" {
		fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	}
	out.Last = []string{}
	if n := len(v.moves); n > 0 && len(v.moves[n-1].uci) >= 4 {
		u := v.moves[n-1].uci
		out.Last = []string{u[0:2], u[2:4]}
	}
	out.Board = board(fen, out.Last)
	no, black := v.firstNo, v.blackFirst
	for _, mv := range v.moves {
		s := l.san(mv.san)
		if black {
			if len(out.Moves) == 0 {
				out.Moves = append(out.Moves, MoveRow{No: no, White: "…"})
			}
			r := &out.Moves[len(out.Moves)-1]
			r.Black, r.BlackClock = s, mv.clock
			no++
		} else {
			out.Moves = append(out.Moves, MoveRow{No: no, White: s, WhiteClock: mv.clock})
		}
		black = !black
	}
	if n := len(out.Moves); n > 0 {
		out.Moves[n-1].Cur = "white"
		if out.Moves[n-1].Black != "" {
			out.Moves[n-1].Cur = "black"
		}
	} else {
		out.Moves = []MoveRow{}
	}
	return out
}

var glyphs = map[rune]string{
	'K': "♔", 'Q': "♕", 'R': "♖", 'B': "♗", 'N': "♘", 'P': "♙",
	'k': "♚", 'q': "♛", 'r': "♜", 'b': "♝", 'n': "♞", 'p': "♟",
}

// board is the position of a FEN as 8 ranks from the 8th, files a to h,
// the squares in last marked.
func board(fen string, last []string) [][]Square {
	place := strings.Fields(fen)[0]
	var rows [][]Square
	for r, rank := range strings.Split(place, "/") {
		var row []Square
		add := func(piece string) {
			name := string(rune('a'+len(row))) + string(rune('8'-r))
			sq := Square{Piece: piece, Dark: (r+len(row))%2 == 1, Name: name}
			for _, l := range last {
				sq.Last = sq.Last || l == name
			}
			row = append(row, sq)
		}
		for _, c := range rank {
			if c >= '1' && c <= '8' {
				for i := 0; i < int(c-'0'); i++ {
					add("")
				}
				continue
			}
			add(glyphs[c])
		}
		rows = append(rows, row)
	}
	return rows
}

// Labels are the page's words in one language.
type Labels struct {
	Lang       string `json:"-"`
	Game       string `json:"game"`
	White      string `json:"white"`
	Black      string `json:"black"`
	Moves      string `json:"moves"`
	Incident   string `json:"incident"`
	InProgress string `json:"in_progress"`
	Paused     string `json:"paused"`
	Finished   string `json:"finished"`
	NotStarted string `json:"not_started"`
	NoGame     string `json:"no_game"`
	NoMatch    string `json:"no_match"`
	Score      string `json:"score"`
	Live       string `json:"live"`
	Offline    string `json:"offline"`
	NoIncident string `json:"no_incident"`
	NoMoves    string `json:"no_moves"`
	Delayed    string `json:"delayed"` // "delayed by %s"
	Hour       string `json:"-"`
	Minute     string `json:"-"`
	Second     string `json:"-"`
}

func labels(lang string) Labels {
	if lang == "de" {
		return Labels{Lang: "de", Game: "Partie", White: "Weiß", Black: "Schwarz", Moves: "Züge", Incident: "Letztes Vorkommnis",
			InProgress: "läuft", Paused: "Uhren angehalten", Finished: "beendet", NotStarted: "noch nicht begonnen",
			NoGame: "noch keine Partie begonnen", NoMatch: "kein Wettkampf im Protokoll", Score: "Stand", Live: "live",
			Offline: "Verbindung unterbrochen", NoIncident: "keine Vorkommnisse", NoMoves: "noch kein Zug",
			Delayed: "um %s verzögert", Hour: "Std.", Minute: "Min.", Second: "Sek."}
	}
	return Labels{Lang: "en", Game: "Game", White: "White", Black: "Black", Moves: "Moves", Incident: "Last incident",
		InProgress: "in progress", Paused: "clocks stopped", Finished: "finished", NotStarted: "not started yet",
		NoGame: "no game has started yet", NoMatch: "no match in this record", Score: "Score", Live: "live",
		Offline: "connection lost", NoIncident: "no incidents", NoMoves: "no move yet",
		Delayed: "delayed by %s", Hour: "h", Minute: "min", Second: "s"}
}

// span writes a delay in words: "15 min", "1 h 30 min", "90 s" → "1 min 30 s".
func (l Labels) span(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d/time.Hour), int(d/time.Minute)%60, int(d/time.Second)%60
	var parts []string
	if h > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", h, l.Hour))
	}
	if m > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", m, l.Minute))
	}
	if s > 0 || len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%d %s", s, l.Second))
	}
	return strings.Join(parts, " ")
}

var germanTerms = map[string]string{
	"checkmate": "Matt", "stalemate": "Patt", "resignation": "Aufgabe", "agreement": "Remis durch Vereinbarung",
	"time forfeit": "Zeitüberschreitung", "dead position": "tote Stellung", "arbiter decision": "Schiedsrichterentscheid",
	"forfeit": "kampflos", "repetition": "Stellungswiederholung", "fifty moves": "50-Züge-Regel",
}

func (l Labels) term(t string) string {
	if l.Lang == "de" {
		if v, ok := germanTerms[t]; ok {
			return v
		}
	}
	return t
}

// san is a move in the page's language: German piece letters in German.
func (l Labels) san(s string) string {
	if l.Lang == "de" {
		return strings.NewReplacer("N", "S", "B", "L", "R", "T", "Q", "D").Replace(s)
	}
	return s
}
