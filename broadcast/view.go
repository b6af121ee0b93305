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
	moves         []string // SAN in order
	firstNo       int
	blackFirst    bool
	incident      [2]string // English, German
	score         string
	seq           int64
}

func makeView(st *match.State) view {
	v := view{seq: st.Seq}
	if st.Match == nil {
		return v
	}
	m := st.Match
	v.title, v.site, v.planned = m.Title, m.Site, m.GamesPlanned
	sc := st.Score()
	v.score = fmt.Sprintf("%s %s – %s %s", m.Players[0], match.Points(sc[m.Players[0]]), m.Players[1], match.Points(sc[m.Players[1]]))
	g := st.CurrentGame()
	if g == nil {
		return v
	}
	v.game, v.white, v.black, v.state = g.Number, g.White, g.Black, g.State
	v.result, v.term = g.Result, string(g.Termination)
	if g.Sheet != nil {
		v.fen = g.Sheet.FEN()
		for _, e := range g.Sheet.Entries() {
			if len(v.moves) == 0 {
				v.firstNo, v.blackFirst = e.Number, e.Color == chess.Black
			}
			v.moves = append(v.moves, e.SAN)
		}
		v.clk, v.hasClock = g.Clock, g.Clock.Started()
	}
	if n := len(g.Incidents); n > 0 {
		in := g.Incidents[n-1]
		v.incident = [2]string{report.IncidentLine(m, in, "en"), report.IncidentLine(m, in, "de")}
	}
	return v
}

// View is what the page shows and /state.json serves.
type View struct {
	Lang     string     `json:"lang"`
	Labels   Labels     `json:"labels"`
	Seq      int64      `json:"seq"`
	Title    string     `json:"title"`
	Site     string     `json:"site"`
	Game     int        `json:"game"`
	Planned  int        `json:"games"`
	White    string     `json:"white"`
	Black    string     `json:"black"`
	Status   string     `json:"status"`
	Result   string     `json:"result"`
	FEN      string     `json:"fen"`
	Board    [][]Square `json:"-"`
	Running  string     `json:"running"` // "white", "black" or "" (stopped)
	WhiteMS  int64      `json:"white_ms"`
	BlackMS  int64      `json:"black_ms"`
	At       string     `json:"at"` // the instant the readings are for (RFC 3339, UTC)
	Moves    []MoveRow  `json:"moves"`
	Incident string     `json:"incident"`
	Score    string     `json:"score"`
}

// Square is one square of the board as drawn.
type Square struct {
	Piece string
	Dark  bool
}

// MoveRow is one numbered row of the move list.
type MoveRow struct {
	No    int    `json:"no"`
	White string `json:"white"`
	Black string `json:"black"`
}

// at reads the view at instant now in language lang.
func (v view) at(now time.Time, lang string) View {
	l := labels(lang)
	out := View{Lang: lang, Labels: l, Seq: v.seq, Title: v.title, Site: v.site, Game: v.game, Planned: v.planned,
		White: v.white, Black: v.black, Result: v.result, FEN: v.fen, At: now.UTC().Format(time.RFC3339Nano),
		Incident: v.incident[0], Score: v.score}
	if lang == "de" {
		out.Incident = v.incident[1]
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
	if v.hasClock {
		out.WhiteMS = v.clk.Remaining(clock.White, now).Milliseconds()
		out.BlackMS = v.clk.Remaining(clock.Black, now).Milliseconds()
		if s, ok := v.clk.Running(); ok {
			out.Running = "white"
			if s == clock.Black {
				out.Running = "black"
			}
		}
	}
	fen := v.fen
	if fen == "" {
		fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	}
	out.Board = board(fen)
	no, black := v.firstNo, v.blackFirst
	for _, san := range v.moves {
		s := l.san(san)
		if black {
			if len(out.Moves) == 0 {
				out.Moves = append(out.Moves, MoveRow{No: no, White: "…"})
			}
			out.Moves[len(out.Moves)-1].Black = s
			no++
		} else {
			out.Moves = append(out.Moves, MoveRow{No: no, White: s})
		}
		black = !black
	}
	if out.Moves == nil {
		out.Moves = []MoveRow{}
	}
	return out
}

var glyphs = map[rune]string{
	'K': "♔", 'Q': "♕", 'R': "♖", 'B': "♗", 'N': "♘", 'P': "♙",
	'k': "♚", 'q': "♛", 'r': "♜", 'b': "♝", 'n': "♞", 'p': "♟",
}

// board is the position of a FEN as 8 ranks from the 8th, files a to h.
func board(fen string) [][]Square {
	place := strings.Fields(fen)[0]
	var rows [][]Square
	for r, rank := range strings.Split(place, "/") {
		var row []Square
		for _, c := range rank {
			if c >= '1' && c <= '8' {
				for i := 0; i < int(c-'0'); i++ {
					row = append(row, Square{Dark: (r+len(row))%2 == 1})
				}
				continue
			}
			row = append(row, Square{Piece: glyphs[c], Dark: (r+len(row))%2 == 1})
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
}

func labels(lang string) Labels {
	if lang == "de" {
		return Labels{Lang: "de", Game: "Partie", White: "Weiß", Black: "Schwarz", Moves: "Züge", Incident: "Letztes Vorkommnis",
			InProgress: "läuft", Paused: "Uhren angehalten", Finished: "beendet", NotStarted: "noch nicht begonnen",
			NoGame: "noch keine Partie begonnen", NoMatch: "kein Wettkampf im Protokoll", Score: "Stand", Live: "live",
			Offline: "Verbindung unterbrochen", NoIncident: "keine Vorkommnisse"}
	}
	return Labels{Lang: "en", Game: "Game", White: "White", Black: "Black", Moves: "Moves", Incident: "Last incident",
		InProgress: "in progress", Paused: "clocks stopped", Finished: "finished", NotStarted: "not started yet",
		NoGame: "no game has started yet", NoMatch: "no match in this record", Score: "Score", Live: "live",
		Offline: "connection lost", NoIncident: "no incidents"}
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
