package report

// One game's pages: the players, the scoresheet in columns with the time used per move.

import (
	"fmt"
	"math"
	"strings"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/scoresheet"
)

func (r *renderer) playerLine(g *match.Game, side clock.Side) string {
	m := r.st.Match
	name := g.Name(side)
	s := r.t.colour(side) + ": " + name
	if name == m.Computer {
		s += " (" + r.t.s("computer")
		if len(m.Operators) > 0 {
			s += "; " + r.t.s("operators") + ": " + strings.Join(m.Operators, ", ")
		}
		s += ")"
	}
	return s
}

func (r *renderer) game(g *match.Game) {
	f, t := r.f, r.t
	f.AddPage()
	r.font(16, true)
	f.SetX(r.margin)
	f.CellFormat(r.cw, 8, t.f("Game %d", g.Number)+": "+g.White+" – "+g.Black, "", 1, "L", false, 0, "")
	f.SetDrawColor(40, 60, 110)
	f.SetLineWidth(0.5)
	f.Line(r.margin, f.GetY()+1, r.margin+r.cw, f.GetY()+1)
	f.Ln(3)
	const lw = 30
	r.kv(t.s("White"), strings.TrimPrefix(r.playerLine(g, clock.White), t.s("White")+": "), lw)
	r.kv(t.s("Black"), strings.TrimPrefix(r.playerLine(g, clock.Black), t.s("Black")+": "), lw)
	when := t.s("Started") + " " + t.dateTime(g.Started)
	if !g.Ended.IsZero() {
		when += ", " + t.s("Ended") + " " + t.dateTime(g.Ended)
	}
	r.kv(t.s("Date"), when, lw)
	wc, bc := g.Clock.Control(clock.White), g.Clock.Control(clock.Black)
	tc := t.controlWords(wc)
	if wc.String() != bc.String() {
		tc = t.s("White") + ": " + tc + "; " + t.s("Black") + ": " + t.controlWords(bc)
	}
	r.kv(t.s("Time control"), tc, lw)
	res := g.Result
	switch {
	case g.Over():
		res += " (" + t.term(string(g.Termination)) + ")"
		if ref := t.flagVerdict(g); ref != "" {
			res += " — " + ref // the incident log says it
		} else if g.Reason != "" {
			res += " — " + t.said(g.Reason, g.Why)
		}
	default:
		res = "* (" + t.s("in progress") + ")"
	}
	r.kv(t.s("Result"), res, lw)
	f.Ln(3)

	r.startPosition(g)
	r.scoresheet(g)
	r.signatures(g)
	r.chart(g)
	r.incidents(g)
	r.adjustments(g)
}

// sheetLine is one row of the scoresheet: a move number with White's and
// Black's move, or a control mark.
type sheetLine struct {
	num  int
	w, b *scoresheet.Entry
	mark string
	note string // moves struck out here (drawn like a mark, left-aligned)
}

func (r *renderer) sheetLines(g *match.Game) []sheetLine {
	var lines []sheetLine
	var counts [2]int
	ctl := [2]clock.Control{g.Clock.Control(clock.White), g.Clock.Control(clock.Black)}
	// Struck-out moves are named after the move that replaced them; those
	// not replaced yet after the last move.
	struckAt := map[int][]string{}
	plies := g.Sheet.Ply()
	for _, run := range struckRuns(g) {
		var ms []string
		for _, e := range run.Entries {
			lbl := fmt.Sprintf("%d. ", e.Number)
			if e.Color == chess.Black {
				lbl = fmt.Sprintf("%d… ", e.Number)
			}
			ms = append(ms, lbl+r.t.san(e.SAN))
		}
		txt := "✗ " + r.t.s("Struck out") + ": " + strings.Join(ms, " ")
		if run.Rule != "" {
			txt += " (" + r.t.rule(run.Rule) + ")"
		}
		p := run.Entries[0].Ply
		if p > plies {
			p = plies
		}
		struckAt[p] = append(struckAt[p], txt)
	}
	for _, e := range g.Sheet.Entries() {
		if len(lines) == 0 || lines[len(lines)-1].mark != "" || lines[len(lines)-1].note != "" || lines[len(lines)-1].num != e.Number {
			lines = append(lines, sheetLine{num: e.Number})
		}
		l := &lines[len(lines)-1]
		side := clock.White
		if e.Color == chess.Black {
			side = clock.Black
			l.b = e
		} else {
			l.w = e
		}
		counts[side]++
		for _, n := range struckAt[e.Ply] {
			lines = append(lines, sheetLine{note: n})
		}
		if reached(ctl[side], counts[side]) {
			other := side.Other()
			switch {
			case ctl[0].String() == ctl[1].String() && side == clock.Black && counts[other] == counts[side]:
				lines = append(lines, sheetLine{mark: "— " + r.t.f("control at move %d", counts[side]) + " —"})
			case ctl[0].String() == ctl[1].String() && side == clock.White && e.Ply == g.Sheet.Ply():
				lines = append(lines, sheetLine{mark: "— " + r.t.f("control at move %d", counts[side]) + " —"})
			case ctl[0].String() != ctl[1].String():
				lines = append(lines, sheetLine{mark: "— " + r.t.f("%s's control at move %d", r.t.colour(side), counts[side]) + " —"})
			case side == clock.White && e.Number != 0 && g.Sheet.StartFEN() != scoresheet.StandardFEN:
				// Black-to-move starts: White reaches the control one row later.
				lines = append(lines, sheetLine{mark: "— " + r.t.f("%s's control at move %d", r.t.colour(side), counts[side]) + " —"})
			}
		}
	}
	return lines
}

// reached reports whether a player who has completed moves moves has just
// reached the end of a period with a move count.
func reached(c clock.Control, moves int) bool {
	for i := 0; i < 1000; i++ {
		n := c.MovesThrough(i)
		if n == 0 || n > moves {
			return false
		}
		if n == moves {
			return true
		}
	}
	return false
}

const (
	sheetRowH = 4.1
	sheetSepH = 3.6
)

func (r *renderer) scoresheet(g *match.Game) {
	f, t := r.f, r.t
	r.heading(t.s("Scoresheet"), 11)
	lines := r.sheetLines(g)
	if len(lines) == 0 {
		r.para(t.s("No moves were recorded."), 9, false)
		f.Ln(3)
		return
	}
	gap := 6.0
	bw := (r.cw - gap) / 2
	heights := func(ls []sheetLine) float64 {
		h := 0.0
		for _, l := range ls {
			if l.mark != "" || l.note != "" {
				h += sheetSepH
			} else {
				h += sheetRowH
			}
		}
		return h
	}
	// The end of the scoresheet and the game's signature block (sigH, after
	// a legend line) share a page.
	reserve := sigH + 8
	for len(lines) > 0 {
		avail := r.bottom() - f.GetY() - sheetRowH - 2
		if avail < 10*sheetRowH {
			f.AddPage()
			avail = r.bottom() - f.GetY() - sheetRowH - 2
		}
		fit := func(room float64) int {
			n := 0
			for n < len(lines) && heights(lines[:n+1]) <= 2*room-sheetRowH {
				n++
			}
			return n
		}
		room := avail
		n := fit(avail)
		if n == len(lines) {
			// The last lines: keep room for the signatures, or leave some
			// lines for the next page, where the signatures go with them.
			room = avail - reserve
			n = fit(room)
			if n == 0 {
				f.AddPage()
				continue
			}
		}
		// Fit as many lines as the page holds in two blocks, balanced.
		chunk := lines[:n]
		split := len(chunk)
		if heights(chunk) > room || len(chunk) > 12 {
			// Balance the two blocks: the left takes half the height.
			half := heights(chunk) / 2
			split = 0
			for split < len(chunk) && heights(chunk[:split+1]) <= math.Max(half, 0)+0.01 {
				split++
			}
			if heights(chunk[:split]) < half && split < len(chunk) {
				split++
			}
			for heights(chunk[:split]) > room {
				split--
			}
		}
		top := f.GetY()
		h1 := r.sheetBlock(r.margin, top, bw, chunk[:split])
		h2 := 0.0
		if split < len(chunk) {
			h2 = r.sheetBlock(r.margin+bw+gap, top, bw, chunk[split:])
		}
		f.SetXY(r.margin, top+math.Max(h1, h2)+2)
		lines = lines[n:]
	}
	r.font(6.5, false)
	f.SetTextColor(90, 90, 90)
	f.SetX(r.margin)
	f.CellFormat(r.cw, 3.5, t.s("(=) draw offered with the move")+"; "+t.s("clock")+" = "+t.s("Remaining time")+"; "+t.f("times of day in %s", t.zoneFull(g.Started)), "", 1, "L", false, 0, "")
	f.SetTextColor(0, 0, 0)
	f.Ln(3)
}

// sheetBlock draws one column block of the scoresheet and returns its height.
func (r *renderer) sheetBlock(x, y, w float64, lines []sheetLine) float64 {
	f, t := r.f, r.t
	ws := []float64{7, 0, 12.5, 10.5, 0, 12.5, 10.5}
	mv := (w - 7 - 2*23) / 2
	ws[1], ws[4] = mv, mv
	aligns := []string{"R", "L", "R", "R", "L", "R", "R"}
	r.font(6.8, true)
	f.SetFillColor(225, 229, 236)
	f.Rect(x, y, w, sheetRowH, "F")
	cx := x
	for i, h := range []string{t.s("No."), t.s("White"), t.s("clock"), t.s("used"), t.s("Black"), t.s("clock"), t.s("used")} {
		f.SetXY(cx, y)
		f.CellFormat(ws[i], sheetRowH, h, "", 0, aligns[i], false, 0, "")
		cx += ws[i]
	}
	cy := y + sheetRowH
	f.SetLineWidth(0.15)
	row := 0
	for _, l := range lines {
		if l.note != "" {
			r.font(6, false)
			f.SetTextColor(150, 40, 30)
			f.SetXY(x+1, cy)
			txt := l.note
			for f.GetStringWidth(txt) > w-2 && len([]rune(txt)) > 4 {
				txt = string([]rune(txt)[:len([]rune(txt))-2]) + "…"
			}
			f.CellFormat(w-2, sheetSepH, txt, "", 0, "L", false, 0, "")
			f.SetTextColor(0, 0, 0)
			cy += sheetSepH
			continue
		}
		if l.mark != "" {
			f.SetDrawColor(40, 60, 110)
			f.SetLineWidth(0.35)
			f.Line(x, cy+sheetSepH/2, x+w, cy+sheetSepH/2)
			r.font(6, true)
			tw := f.GetStringWidth(l.mark) + 3
			f.SetFillColor(255, 255, 255)
			f.Rect(x+(w-tw)/2, cy+0.4, tw, sheetSepH-0.8, "F")
			f.SetTextColor(40, 60, 110)
			f.SetXY(x, cy)
			f.CellFormat(w, sheetSepH, l.mark, "", 0, "C", false, 0, "")
			f.SetTextColor(0, 0, 0)
			f.SetLineWidth(0.15)
			cy += sheetSepH
			continue
		}
		if row%2 == 1 {
			f.SetFillColor(246, 247, 250)
			f.Rect(x, cy, w, sheetRowH, "F")
		}
		row++
		cells := []string{fmt.Sprint(l.num), "", "", "", "", "", ""}
		if l.w != nil {
			cells[1], cells[2], cells[3] = r.moveText(l.w), clock.FormatShown(l.w.ClockWhite), clock.FormatUsed(l.w.Used)
		} else {
			cells[1] = "…"
		}
		if l.b != nil {
			cells[4], cells[5], cells[6] = r.moveText(l.b), clock.FormatShown(l.b.ClockBlack), clock.FormatUsed(l.b.Used)
		}
		cx := x
		for i, c := range cells {
			bold := i == 1 || i == 4
			if bold {
				r.font(7.2, false)
			} else {
				r.font(6.6, false)
			}
			if i == 2 || i == 3 || i == 5 || i == 6 {
				f.SetTextColor(70, 70, 70)
			}
			f.SetXY(cx, cy)
			f.CellFormat(ws[i], sheetRowH, c, "", 0, aligns[i], false, 0, "")
			f.SetTextColor(0, 0, 0)
			cx += ws[i]
		}
		f.SetDrawColor(215, 215, 215)
		f.Line(x, cy+sheetRowH, x+w, cy+sheetRowH)
		cy += sheetRowH
	}
	// The column rule between White and Black.
	f.SetDrawColor(160, 160, 160)
	f.Line(x+ws[0]+ws[1]+ws[2]+ws[3]+0.6, y, x+ws[0]+ws[1]+ws[2]+ws[3]+0.6, cy)
	return cy - y
}

func (r *renderer) moveText(e *scoresheet.Entry) string {
	s := r.t.san(e.SAN)
	if e.DrawOffer {
		s += " (=)"
	}
	return s
}

// Figurine writes a SAN move in figurine notation: "Nf3" → "♘f3",
// "exd8=Q+" → "exd8=♕+".
func Figurine(san string) string {
	return strings.NewReplacer("K", "♔", "Q", "♕", "R", "♖", "B", "♗", "N", "♘").Replace(san)
}
