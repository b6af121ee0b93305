package report

// The time chart: both clocks over the moves of a game.

import (
	"fmt"
	"math"
	"time"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/match"
)

func (r *renderer) chart(g *match.Game) {
	f, t := r.f, r.t
	es := g.Sheet.Entries()
	if len(es) == 0 {
		return
	}
	const h = 45.0
	r.ensure(h + 22)
	r.heading(t.s("Remaining time"), 11)
	wc, bc := g.Clock.Control(clock.White), g.Clock.Control(clock.Black)
	type pt struct {
		x float64
		y time.Duration
	}
	series := [2][]pt{{{0, wc.Allotment(0)}}, {{0, bc.Allotment(0)}}}
	first := es[0].Number - 1
	series[0][0].x, series[1][0].x = float64(first), float64(first)
	maxY := time.Duration(0)
	for _, e := range es {
		if e.Color == chess.White {
			series[0] = append(series[0], pt{float64(e.Number), e.ClockWhite})
		} else {
			series[1] = append(series[1], pt{float64(e.Number), e.ClockBlack})
		}
	}
	for _, s := range series {
		for _, p := range s {
			if p.y > maxY {
				maxY = p.y
			}
		}
	}
	last := es[len(es)-1].Number
	xmax := last + 1
	for _, c := range []clock.Control{wc, bc} {
		for i := 0; i < 100; i++ {
			n := c.MovesThrough(i)
			if n == 0 || n > last+10 {
				break
			}
			if n+2 > xmax {
				xmax = n + 2
			}
		}
	}
	step := chooseStep(maxY)
	ymax := time.Duration(math.Ceil(float64(maxY)/float64(step))) * step
	if ymax == 0 {
		ymax = step
	}
	left, top := r.margin+14, f.GetY()+2
	w := r.cw - 14 - 2
	x0 := float64(first)
	X := func(x float64) float64 { return left + (x-x0)/(float64(xmax)-x0)*w }
	Y := func(d time.Duration) float64 { return top + h - float64(d)/float64(ymax)*h }
	// Grid and axes.
	f.SetDrawColor(225, 225, 225)
	f.SetLineWidth(0.15)
	r.font(6.5, false)
	for v := time.Duration(0); v <= ymax; v += step {
		f.Line(left, Y(v), left+w, Y(v))
		f.SetXY(r.margin, Y(v)-1.6)
		f.CellFormat(12.5, 3.2, clock.FormatHoursMinutes(v), "", 0, "R", false, 0, "")
	}
	xstep := 5
	if xmax-first > 80 {
		xstep = 10
	}
	for m := (first/xstep + 1) * xstep; m <= xmax; m += xstep {
		f.Line(X(float64(m)), top, X(float64(m)), top+h)
		f.SetXY(X(float64(m))-5, top+h+0.5)
		f.CellFormat(10, 3, fmt.Sprint(m), "", 0, "C", false, 0, "")
	}
	f.SetDrawColor(80, 80, 80)
	f.SetLineWidth(0.3)
	f.Line(left, top, left, top+h)
	f.Line(left, top+h, left+w, top+h)
	// Time controls.
	f.SetDrawColor(40, 60, 110)
	f.SetLineWidth(0.3)
	f.SetDashPattern([]float64{1.2, 0.9}, 0)
	drawn := map[int]bool{}
	labelStart, labelEnd, labelY := 0.0, 0.0, 0.0
	for _, c := range []clock.Control{wc, bc} {
		for i := 0; i < 100; i++ {
			n := c.MovesThrough(i)
			if n == 0 || n > xmax {
				break
			}
			if drawn[n] || n <= first {
				continue
			}
			drawn[n] = true
			f.Line(X(float64(n)), top, X(float64(n)), top+h)
			r.font(6, true)
			f.SetTextColor(40, 60, 110)
			label := t.f("control at move %d", n)
			lw := f.GetStringWidth(label) + 2
			x0, align := X(float64(n))+0.5, "L"
			if X(float64(n))+lw > left+w {
				x0, align = X(float64(n))-lw-0.5, "R"
			}
			// A label that would overlap the one before goes one line lower.
			ly := top + 0.5
			if x0 < labelEnd && x0+lw > labelStart && labelY == ly {
				ly += 3.5
			}
			labelStart, labelEnd, labelY = x0, x0+lw, ly
			f.SetXY(x0, ly)
			f.CellFormat(lw, 3, label, "", 0, align, false, 0, "")
			f.SetTextColor(0, 0, 0)
		}
	}
	f.SetDashPattern([]float64{}, 0)
	// The two players.
	colours := [2][3]int{{20, 20, 20}, {200, 60, 40}}
	for s, pts := range series {
		f.SetDrawColor(colours[s][0], colours[s][1], colours[s][2])
		f.SetLineWidth(0.55)
		if s == 1 {
			f.SetDashPattern([]float64{2, 0.8}, 0)
		}
		for i := 1; i < len(pts); i++ {
			f.Line(X(pts[i-1].x), Y(pts[i-1].y), X(pts[i].x), Y(pts[i].y))
		}
		f.SetDashPattern([]float64{}, 0)
	}
	// Axis label and legend.
	r.font(6.5, false)
	f.SetXY(left+w-20, top+h+3.5)
	f.CellFormat(20, 3, t.s("move")+" →", "", 0, "R", false, 0, "")
	// The legend goes under the chart, where it hides no line.
	lx, ly := left, top+h+4
	for s := 0; s < 2; s++ {
		f.SetDrawColor(colours[s][0], colours[s][1], colours[s][2])
		f.SetLineWidth(0.55)
		if s == 1 {
			f.SetDashPattern([]float64{2, 0.8}, 0)
		}
		f.Line(lx, ly+1.5, lx+8, ly+1.5)
		f.SetDashPattern([]float64{}, 0)
		label := t.colour(clock.Side(s)) + ": " + g.Name(clock.Side(s))
		r.font(7, false)
		f.SetXY(lx+9.5, ly)
		f.CellFormat(f.GetStringWidth(label)+2, 3, label, "", 0, "L", false, 0, "")
		lx += 9.5 + f.GetStringWidth(label) + 8
	}
	f.SetXY(r.margin, top+h+8)
	r.font(6.5, false)
	f.SetTextColor(90, 90, 90)
	f.CellFormat(r.cw, 3.5, t.s("Time chart: remaining time after each move; dashed lines mark the time controls."), "", 1, "L", false, 0, "")
	f.SetTextColor(0, 0, 0)
	f.Ln(4)
}

func chooseStep(max time.Duration) time.Duration {
	for _, s := range []time.Duration{time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour} {
		if max/s <= 8 {
			return s
		}
	}
	return 2 * time.Hour
}
