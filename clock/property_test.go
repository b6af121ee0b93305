package clock

import (
	"math/rand"
	"reflect"
	"testing"
	"time"
)

type opKind uint8

const (
	opPress opKind = iota
	opPressWrong
	opPause
	opResume
	opAddTime
	opSetRemaining
	opSetMoves
	opSetPeriod
	opStop
	opBothFlags
	opKinds
)

type op struct {
	kind opKind
	side Side
	at   time.Time
	d    time.Duration
	n    int
}

func (o op) apply(c Clock) (Clock, error) {
	switch o.kind {
	case opPress:
		s, _ := c.Running()
		return c.Press(s, o.at)
	case opPressWrong:
		s, _ := c.Running()
		return c.Press(s.Other(), o.at)
	case opPause:
		return c.Pause(o.at)
	case opResume:
		return c.Resume(o.side, o.at)
	case opAddTime:
		return c.AddTime(o.side, o.d, o.at)
	case opSetRemaining:
		return c.SetRemaining(o.side, o.d, o.at)
	case opSetMoves:
		return c.SetMoves(o.side, o.n, o.at)
	case opSetPeriod:
		return c.SetPeriod(o.side, o.n, o.at)
	case opStop:
		return c.Stop(o.at)
	default:
		return c.BothFlagsOrderUnknown(o.at)
	}
}

var propertySpecs = []string{"acm1996", "fide-classical", "rapid", "blitz", "60+1", "7200d5", "2/60b5:30b2", "3/30:2/20", "-"}

// opWeights are per mille; Stop and Article 6.11 are rare so that most
// sequences stay live.
var opWeights = [opKinds]int{opPress: 760, opPressWrong: 30, opPause: 40, opResume: 50, opAddTime: 40,
	opSetRemaining: 30, opSetMoves: 20, opSetPeriod: 20, opStop: 5, opBothFlags: 5}

func pickKind(x int) opKind {
	for k, w := range opWeights {
		if x < w {
			return opKind(k)
		}
		x -= w
	}
	return opPress
}

// randomOps returns a random operation sequence with non-decreasing instants.
func randomOps(r *rand.Rand, n int) []op {
	ops := make([]op, n)
	now := t0
	for i := range ops {
		switch r.Intn(4) {
		case 0: // same instant
		case 1:
			now = now.Add(time.Duration(r.Intn(3)))
		case 2:
			now = now.Add(time.Duration(r.Int63n(int64(10 * sec))))
		default:
			now = now.Add(time.Duration(r.Int63n(int64(90 * sec))))
		}
		k := pickKind(r.Intn(1000))
		ops[i] = op{kind: k, side: Side(r.Intn(2)), at: now,
			d: time.Duration(r.Int63n(int64(3*min_))) - min_, n: r.Intn(90)}
		if k == opSetRemaining && ops[i].d < 0 {
			ops[i].d = -ops[i].d
		}
		if k == opSetPeriod {
			ops[i].n %= 4
		}
	}
	return ops
}

// TestProperties checks invariants over random operation sequences.
func TestProperties(t *testing.T) {
	r := rand.New(rand.NewSource(1996))
	for round := 0; round < 400; round++ {
		ws, bs := propertySpecs[r.Intn(len(propertySpecs))], propertySpecs[r.Intn(len(propertySpecs))]
		start := New(mustParse(t, ws), mustParse(t, bs))
		start, _ = start.Start(t0)
		ops := randomOps(r, 150)

		c := start
		var intervals [2]time.Duration // model: sum of each side's running intervals
		var everFlagged [2]bool
		corrected := false // SetMoves, SetPeriod or Article 6.11 break the allotment identity
		since := t0
		for i, o := range ops {
			// Between operations: the waiting side's time does not move, and
			// the running side's display changes exactly at `next`.
			if s, ok := c.Running(); ok {
				mid := since.Add(o.at.Sub(since) / 2)
				if a, b := c.Remaining(s.Other(), since), c.Remaining(s.Other(), o.at); a != b {
					t.Fatalf("round %d op %d: %v's time moved from %v to %v while %v's clock ran", round, i, s.Other(), a, b, s)
				}
				checkNext(t, c, s, mid)
				intervals[s] += o.at.Sub(since)
			}
			for s := range everFlagged {
				everFlagged[s] = everFlagged[s] || c.Flag(Side(s), o.at).Fallen
			}
			before := c
			next, err := o.apply(c)
			if !reflect.DeepEqual(before, c) {
				t.Fatalf("round %d op %d: the operation changed its receiver", round, i)
			}
			if err != nil {
				if !reflect.DeepEqual(next, c) {
					t.Fatalf("round %d op %d (%v): a refused operation returned a changed clock: %v", round, i, o.kind, err)
				}
			} else {
				c = next
				if o.kind == opSetMoves || o.kind == opSetPeriod || o.kind == opBothFlags {
					corrected = true
				}
			}
			since = o.at
			for s := range [2]Side{} {
				side := Side(s)
				everFlagged[s] = everFlagged[s] || c.Flag(side, o.at).Fallen
				if c.Control(side).PeriodAt(0).Method.isDelay() == false && c.Used(side, o.at) != intervals[s] {
					t.Fatalf("round %d op %d: %v used %v, but its clock ran for %v", round, i, side, c.Used(side, o.at), intervals[s])
				}
				if !corrected && !everFlagged[s] && c.Control(side).timed() {
					want := c.Control(side).Allotment(c.Moves(side)) + c.Credit(side) - c.Remaining(side, o.at)
					if got := c.Used(side, o.at); got != want {
						t.Fatalf("round %d op %d: %v used %v, want Allotment+Credit-Remaining = %v", round, i, side, got, want)
					}
				}
				if c.Remaining(side, o.at) < 0 {
					t.Fatalf("negative remaining")
				}
			}
		}

		t.Run("replaying_the_same_operations_yields_an_identical_value", func(t *testing.T) {
			again := start
			for _, o := range ops {
				if n, err := o.apply(again); err == nil {
					again = n
				}
			}
			if !reflect.DeepEqual(again, c) {
				t.Fatalf("round %d: replay differs:\n%+v\n%+v", round, again, c)
			}
		})
	}
}

// checkNext verifies that the text of side's display holds until next and
// changes exactly then.
func checkNext(t *testing.T, c Clock, side Side, x time.Time) {
	t.Helper()
	for _, o := range []DisplayOptions{{}, {TenthsBelow: -1}, {TenthsBelow: 90 * sec}} {
		txt, next := c.Display(side, x, o)
		if next.IsZero() {
			if later, _ := c.Display(side, x.Add(10*hour), o); later != txt {
				t.Fatalf("display %q said it never changes, but shows %q later", txt, later)
			}
			continue
		}
		if !next.After(x) {
			t.Fatalf("next %v is not after %v", next, x)
		}
		if before, _ := c.Display(side, next.Add(-1), o); before != txt {
			t.Fatalf("display changed from %q to %q before next", txt, before)
		}
		if after, _ := c.Display(side, next, o); after == txt {
			t.Fatalf("display still %q at next (%v after %v)", txt, next.Sub(x), x)
		}
	}
}
