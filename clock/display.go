package clock

import (
	"strconv"
	"time"
)

// Display returns the text side's display shows at instant at, and the next
// instant at which that text changes if nothing else happens (the zero time
// if it never changes: the clock is not running, or it already shows zero).
//
// The text is "H:MM:SS" ("1:59:58", "0:59:58", "12:00:00"), and "H:MM:SS.t"
// with tenths when the time shown is below o.TenthsBelow. The time shown is
// rounded down, like most electronic clocks: 0.4 s shows "0:00:00.4", and
// 59.9 s in whole-second mode shows "0:00:59"; so "0:00:00" can appear a
// moment before the flag falls. Ask FlagAt or Flag for the flag itself.
//
// The time shown is the main time, except during a delay (the delay and its
// method are those of the period in force when the turn began): with a Bronstein
// delay the display counts down from R0+D at once (R0 + D − t); with a simple
// delay it holds R0 for the first D of the turn. An untimed or unknown
// control shows the time used, counting up, in whole seconds.
func (c Clock) Display(side Side, at time.Time, o DisplayOptions) (text string, next time.Time) {
	side &= 1
	var buf [24]byte
	runs := c.state == running && c.turn == side
	if !c.ctl[side].timed() {
		u := c.Used(side, at)
		text = string(appendClock(buf[:0], u, false))
		if runs {
			next = at.Add(u.Truncate(time.Second) + time.Second - u)
		}
		return text, next
	}
	tb := o.TenthsBelow
	if tb == 0 {
		tb = 10 * time.Second
	}
	shown, hold := c.shown(side, at)
	tenths := shown < tb
	text = string(appendClock(buf[:0], shown, tenths))
	if !runs || shown <= 0 {
		return text, time.Time{}
	}
	unit := time.Second
	if tenths {
		unit = 100 * time.Millisecond
	}
	// The text changes as soon as the time shown drops below boundary.
	boundary := shown.Truncate(unit)
	if tb > boundary && tb <= shown {
		boundary = tb
	}
	if boundary <= 0 {
		return text, time.Time{} // it shows zero until it is zero
	}
	return text, at.Add(hold + shown - boundary + 1)
}

// Shown is the time side's display shows at instant at, before rounding, and
// for how much longer it holds still before it counts down (the rest of a
// simple delay; 0 otherwise): what a face that ticks the display itself (the
// broadcast's page) needs to show it exactly as Display does. For an
// untimed or unknown control it is the time used, which counts up.
func (c Clock) Shown(side Side, at time.Time) (shown, hold time.Duration) {
	side &= 1
	if !c.ctl[side].timed() {
		return c.Used(side, at), 0
	}
	return c.shown(side, at)
}

// shown returns the time on side's display at at, and for how much longer
// it holds still before counting down (the rest of a simple delay).
func (c *Clock) shown(side Side, at time.Time) (shown, hold time.Duration) {
	if !c.turnOpen || c.turn != side {
		return max(c.side[side].remaining, 0), 0
	}
	t := c.elapsed(at)
	d := c.turnDelay
	switch c.turnMeth {
	case Bronstein:
		return max(c.turnR0+d-t, 0), 0
	case SimpleDelay:
		if t < d {
			return max(c.turnR0, 0), d - t
		}
	}
	return max(c.turnR0-c.charged(t), 0), 0
}

// appendClock appends d rounded down as H:MM:SS, or H:MM:SS.t with tenths.
func appendClock(b []byte, d time.Duration, tenths bool) []byte {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	b = strconv.AppendInt(b, s/3600, 10)
	b = append(b, ':', byte('0'+s/60%60/10), byte('0'+s/60%60%10), ':', byte('0'+s%60/10), byte('0'+s%60%10))
	if tenths {
		b = append(b, '.', byte('0'+int64(d%time.Second/(100*time.Millisecond))))
	}
	return b
}
