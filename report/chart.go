package report

// The time chart: both clocks over the moves of a game.

import (
	"fmt"
	"math"
	"time"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/scoresheet"
)

// chart draws both clocks over the moves of game g: the remaining time
// after each move, a dashed line at each time control.
func (r *renderer) chart(g *match.Game) {
	f, t := r.f, r.t
	es := g.Sheet.Entries()
	if len(es) == 0 {
		return
	}
	const h = 45.0
	r.ensure(h + 22)
	r.heading(t.s("Remaining time"), 11)
	controls := []clock.Control{g.Clock.Control(clock.White), g.Clock.Control(clock.Black)}
	series, maxY := chartSeries(es, controls)
	flags := chartFlags(g, es, &series)
	first, last := es[0].Number-1, es[len(es)-1].Number
	xmax := last + 1
	for _, c := range controls {
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
	fr := chartFrame{left: r.margin + 14, top: f.GetY() + 2, w: r.cw - 14 - 2, h: h, first: first, xmax: xmax, ymax: ymax}
	r.chartAxes(fr, step)
	r.chartControls(fr, controls)
	r.chartLines(fr, series)
	r.chartFlagMarks(fr, series, flags)
	r.chartLegend(fr, g, flags)
}

// chartFlags ends the line of each side whose flag fell at zero, at the
// move that side was to make when it fell (its clock reached zero in that
// turn), and says which sides it ended so. The instant is the clock's
// (clock.Clock.Flag: the flag recorded, its instant derived from the clock
// value when it ran out), never a sample; a flag not yet recorded (a
// clock still running) is not drawn, so the chart shows no instant that
// has not come.
func chartFlags(g *match.Game, es []*scoresheet.Entry, series *[2][]chartPoint) (flags [2]bool) {
	last := es[len(es)-1]
	for s := range series {
		f := g.Clock.Flag(clock.Side(s), time.Time{}) // recorded flags only
		if !f.Fallen || f.OrderUnknown {
			continue
		}
		// the number of the move the side was to make
		next := last.Number + 1
		if clock.Side(s) == clock.Black && last.Color == chess.White {
			next = last.Number
		}
		series[s] = append(series[s], chartPoint{float64(next), 0})
		flags[s] = true
	}
	return flags
}

// chartFlagMarks draws a ring at the end of each line a flag ended (at
// zero, chartFlags).
func (r *renderer) chartFlagMarks(fr chartFrame, series [2][]chartPoint, flags [2]bool) {
	f := r.f
	for s, pts := range series {
		if !flags[s] || len(pts) == 0 {
			continue
		}
		p := pts[len(pts)-1]
		f.SetDrawColor(chartColours[s][0], chartColours[s][1], chartColours[s][2])
		f.SetLineWidth(0.45)
		f.Circle(fr.X(p.x), fr.Y(p.y), 1.1, "D")
	}
}

// chartPoint is a clock reading after a move.
type chartPoint struct {
	x float64
	y time.Duration
}

// chartSeries are each side's readings after its moves, from the start, and
// the largest of them.
func chartSeries(es []*scoresheet.Entry, controls []clock.Control) ([2][]chartPoint, time.Duration) {
	first := float64(es[0].Number - 1)
	series := [2][]chartPoint{{{first, controls[0].Allotment(0)}}, {{first, controls[1].Allotment(0)}}}
	for _, e := range es {
		if e.Color == chess.White {
			series[0] = append(series[0], chartPoint{float64(e.Number), e.ClockWhite})
		} else {
			series[1] = append(series[1], chartPoint{float64(e.Number), e.ClockBlack})
		}
	}
	maxY := time.Duration(0)
	for _, s := range series {
		for _, p := range s {
			if p.y > maxY {
				maxY = p.y
			}
		}
	}
	return series, maxY
}

// chartFrame is where the chart stands on the page and what its axes span:
// moves first to xmax, readings 0 to ymax.
type chartFrame struct {
	left, top, w, h float64
	first, xmax     int
	ymax            time.Duration
}

// X is the abscissa of move x.
func (fr chartFrame) X(x float64) float64 {
	x0 := float64(fr.first)
	return fr.left + (x-x0)/(float64(fr.xmax)-x0)*fr.w
}

// Y is the ordinate of reading d.
func (fr chartFrame) Y(d time.Duration) float64 {
	return fr.top + fr.h - float64(d)/float64(fr.ymax)*fr.h
}

// chartAxes draws the grid, its labels (a line every step of time, every 5
// or 10 moves) and the axes.
func (r *renderer) chartAxes(fr chartFrame, step time.Duration) {
	f := r.f
	left, top, w, h := fr.left, fr.top, fr.w, fr.h
	f.SetDrawColor(225, 225, 225)
	f.SetLineWidth(0.15)
	r.font(6.5, false)
	for v := time.Duration(0); v <= fr.ymax; v += step {
		f.Line(left, fr.Y(v), left+w, fr.Y(v))
		f.SetXY(r.margin, fr.Y(v)-1.6)
		f.CellFormat(12.5, 3.2, clock.FormatHoursMinutes(v), "", 0, "R", false, 0, "")
	}
	xstep := 5
	if fr.xmax-fr.first > 80 {
		xstep = 10
	}
	for m := (fr.first/xstep + 1) * xstep; m <= fr.xmax; m += xstep {
		f.Line(fr.X(float64(m)), top, fr.X(float64(m)), top+h)
		f.SetXY(fr.X(float64(m))-5, top+h+0.5)
		f.CellFormat(10, 3, fmt.Sprint(m), "", 0, "C", false, 0, "")
	}
	f.SetDrawColor(80, 80, 80)
	f.SetLineWidth(0.3)
	f.Line(left, top, left, top+h)
	f.Line(left, top+h, left+w, top+h)
}

// chartControls draws a dashed line at each time control, labelled; a label
// that would overlap the one before goes one line lower.
func (r *renderer) chartControls(fr chartFrame, controls []clock.Control) {
	f, t := r.f, r.t
	left, top, w, h := fr.left, fr.top, fr.w, fr.h
	f.SetDrawColor(40, 60, 110)
	f.SetLineWidth(0.3)
	f.SetDashPattern([]float64{1.2, 0.9}, 0)
	drawn := map[int]bool{}
	labelStart, labelEnd, labelY := 0.0, 0.0, 0.0
	for _, c := range controls {
		for i := 0; i < 100; i++ {
			n := c.MovesThrough(i)
			if n == 0 || n > fr.xmax {
				break
			}
			if drawn[n] || n <= fr.first {
				continue
			}
			drawn[n] = true
			f.Line(fr.X(float64(n)), top, fr.X(float64(n)), top+h)
			r.font(6, true)
			f.SetTextColor(40, 60, 110)
			label := t.f("control at move %d", n)
			lw := f.GetStringWidth(label) + 2
			x0, align := fr.X(float64(n))+0.5, "L"
			if fr.X(float64(n))+lw > left+w {
				x0, align = fr.X(float64(n))-lw-0.5, "R"
			}
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
}

// chartColours are White's line (solid, dark) and Black's (dashed, red).
var chartColours = [2][3]int{{20, 20, 20}, {200, 60, 40}}

// chartLines draws the two players' readings.
func (r *renderer) chartLines(fr chartFrame, series [2][]chartPoint) {
	f := r.f
	for s, pts := range series {
		f.SetDrawColor(chartColours[s][0], chartColours[s][1], chartColours[s][2])
		f.SetLineWidth(0.55)
		if s == 1 {
			f.SetDashPattern([]float64{2, 0.8}, 0)
		}
		for i := 1; i < len(pts); i++ {
			f.Line(fr.X(pts[i-1].x), fr.Y(pts[i-1].y), fr.X(pts[i].x), fr.Y(pts[i].y))
		}
		f.SetDashPattern([]float64{}, 0)
	}
}

// chartLegend writes the axis label, and under the chart, where it hides no
// line, the legend and the caption.
func (r *renderer) chartLegend(fr chartFrame, g *match.Game, flags [2]bool) {
	f, t := r.f, r.t
	left, top, w, h := fr.left, fr.top, fr.w, fr.h
	r.font(6.5, false)
	f.SetXY(left+w-20, top+h+3.5)
	f.CellFormat(20, 3, t.s("move")+" →", "", 0, "R", false, 0, "")
	lx, ly := left, top+h+4
	for s := 0; s < 2; s++ {
		f.SetDrawColor(chartColours[s][0], chartColours[s][1], chartColours[s][2])
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
	caption := t.s("Time chart: remaining time after each move; dashed lines mark the time controls.")
	if flags[0] || flags[1] {
		caption += " " + t.s("A ring at zero marks a fallen flag, at the move not made in time.")
	}
	f.CellFormat(r.cw, 3.5, caption, "", 1, "L", false, 0, "")
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
