package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/scoresheet"
)

// MatchPGN is the PGN of game n of the match, or of every game started so far
// when n is 0 (games never started, postponed or forfeited without play are
// left out). See the package documentation for the tags and comments.
func MatchPGN(st *match.State, n int) []scoresheet.PGNGame {
	var out []scoresheet.PGNGame
	if st == nil || st.Match == nil {
		return out
	}
	for _, g := range st.Games {
		if g.Sheet == nil || (n != 0 && g.Number != n) {
			continue
		}
		out = append(out, gamePGN(st, g))
	}
	return out
}

// WritePGN writes MatchPGN(st, n) to w. It fails when there is nothing to
// write: no match, or game n not started.
func WritePGN(w io.Writer, st *match.State, n int) error {
	if st == nil || st.Match == nil {
		return fmt.Errorf("report: there is no match in this record: create one with 'arbiter match new' first")
	}
	games := MatchPGN(st, n)
	if len(games) == 0 {
		if n != 0 {
			if st.Game(n) == nil {
				return fmt.Errorf("report: there is no game %d: the match has games 1 to %d", n, len(st.Games))
			}
			return fmt.Errorf("report: game %d has not started: there are no moves to export yet", n)
		}
		return fmt.Errorf("report: no game has started yet: there is nothing to export")
	}
	if err := scoresheet.WritePGN(w, games); err != nil {
		return fmt.Errorf("report: write PGN: %w", err)
	}
	return nil
}

func gamePGN(st *match.State, g *match.Game) scoresheet.PGNGame {
	m := st.Match
	date := "????.??.??"
	if !g.Started.IsZero() {
		date = g.Started.UTC().Format("2006.01.02")
	}
	result := g.Result
	if result == "" || !g.Over() {
		result = "*"
	}
	tags := []scoresheet.Tag{
		{Name: "Event", Value: orQ(m.Title)},
		{Name: "Site", Value: orQ(m.Site)},
		{Name: "Date", Value: date},
		{Name: "Round", Value: strconv.Itoa(g.Number)},
		{Name: "White", Value: orQ(g.White)},
		{Name: "Black", Value: orQ(g.Black)},
		{Name: "Result", Value: result},
	}
	wc, bc := g.Clock.Control(clock.White), g.Clock.Control(clock.Black)
	tags = append(tags, scoresheet.Tag{Name: "TimeControl", Value: wc.String()})
	if wc.String() != bc.String() {
		tags = append(tags,
			scoresheet.Tag{Name: "WhiteTimeControl", Value: wc.String()},
			scoresheet.Tag{Name: "BlackTimeControl", Value: bc.String()})
	}
	term := string(g.Termination)
	if !g.Over() || term == "" {
		term = "unterminated"
	}
	entries := g.Sheet.Entries()
	tags = append(tags,
		scoresheet.Tag{Name: "Termination", Value: term},
		scoresheet.Tag{Name: "PlyCount", Value: strconv.Itoa(len(entries))})
	if m.Arbiter != "" {
		tags = append(tags, scoresheet.Tag{Name: "Arbiter", Value: m.Arbiter})
	}
	pg := scoresheet.PGNGame{Tags: tags, Result: result}
	if fen := g.Sheet.StartFEN(); fen != scoresheet.StandardFEN {
		pg.StartFEN = fen
	}
	notes := moveNotes(g, len(entries))
	for i, e := range entries {
		pg.Moves = append(pg.Moves, scoresheet.PGNMove{SAN: e.SAN, Comment: MoveComment(e, notes[i+1])})
	}
	return pg
}

func orQ(s string) string {
	if strings.TrimSpace(s) == "" {
		return "?"
	}
	return s
}

// MoveComment is the one comment after a move: "(=) " when the mover offered
// a draw with it, the mover's clock and the time used, then the notes. The
// entry's own Notes are not used: they repeat incidents that the caller
// passes in notes.
func MoveComment(e *scoresheet.Entry, notes []string) string {
	var b strings.Builder
	if e.DrawOffer {
		b.WriteString("(=) ")
	}
	left := e.ClockWhite
	if e.Color == chess.Black {
		left = e.ClockBlack
	}
	fmt.Fprintf(&b, "[%%clk %s] [%%emt %s]", scoresheet.FormatClock(left), scoresheet.FormatClock(e.Elapsed))
	if len(notes) > 0 {
		b.WriteString(" ")
		b.WriteString(commentText(strings.Join(notes, "; ")))
	}
	return b.String()
}

// moveNotes sorts the incidents and struck-out moves of a game by the ply
// they follow: notes[p] belongs after ply p (1-based); what happened before
// the first move goes to ply 1.
func moveNotes(g *match.Game, plies int) [][]string {
	notes := make([][]string, plies+1)
	at := func(p int) int {
		if p < 1 {
			p = 1
		}
		if p > plies {
			p = plies
		}
		return p
	}
	if plies == 0 {
		return notes
	}
	type note struct {
		ply int
		seq int64
		txt string
	}
	var ns []note
	for _, in := range g.Incidents {
		ns = append(ns, note{at(in.Ply), in.Seq, IncidentNote(in)})
	}
	for _, e := range g.Sheet.Struck() {
		label := fmt.Sprintf("%d. %s", e.Number, e.SAN)
		if e.Color == chess.Black {
			label = fmt.Sprintf("%d... %s", e.Number, e.SAN)
		}
		// A struck move stood after ply e.Ply-1; it sorts before the incidents
		// logged there only by its ply.
		ns = append(ns, note{at(e.Ply - 1), 0, "struck out: " + label})
	}
	sort.SliceStable(ns, func(i, j int) bool { return ns[i].ply < ns[j].ply })
	for _, n := range ns {
		notes[n.ply] = append(notes[n.ply], n.txt)
	}
	return notes
}

// IncidentNote is an incident as written in a PGN comment:
// "Arbiter: pause (6.12a) noise; W 1:59:00 B 1:58:00".
func IncidentNote(in match.Incident) string {
	var b strings.Builder
	role := string(in.Role)
	if role == "" {
		role = "system"
	}
	b.WriteString(strings.ToUpper(role[:1]) + role[1:] + ": " + in.Kind)
	if in.Rule != "" {
		b.WriteString(" (" + in.Rule + ")")
	}
	if in.Text != "" {
		b.WriteString(" " + in.Text)
	}
	if in.Effect != "" {
		b.WriteString(" (" + in.Effect + ")")
	}
	fmt.Fprintf(&b, "; W %s B %s", scoresheet.FormatClock(in.WhiteClock), scoresheet.FormatClock(in.BlackClock))
	return b.String()
}

// commentText makes free text safe inside a PGN comment: no braces, no
// "[%" that a reader would take for a command, no line breaks, no "%" at the
// start of a line.
func commentText(s string) string {
	s = strings.NewReplacer("{", "(", "}", ")", "[%", "[ %", "\r", " ", "\n", " ", "\t", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}
