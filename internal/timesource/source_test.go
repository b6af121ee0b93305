package timesource

import (
	"testing"
	"time"
)

// fakeClocks is a machine whose two monotonic clocks the test moves by hand.
type fakeClocks struct{ boot, awake time.Duration }

func (f *fakeClocks) clocks() platformClocks {
	return platformClocks{
		sinceBoot: func() time.Duration { return f.boot },
		awake:     func() time.Duration { return f.awake },
	}
}

// run is the machine being awake for d: both clocks advance.
func (f *fakeClocks) run(d time.Duration) { f.boot += d; f.awake += d }

// sleep is the machine suspended for d: only the boot clock advances.
func (f *fakeClocks) sleep(d time.Duration) { f.boot += d }

func TestTimeSourceFollowsTheClockThatCountsSleep(t *testing.T) {
	wall := time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name        string
		steps       func(f *fakeClocks)
		wantElapsed time.Duration
		wantSlept   time.Duration
	}{
		{"nothing happened: no time passes and no suspension is reported",
			func(f *fakeClocks) {}, 0, 0},
		{"an awake minute is a minute and no suspension",
			func(f *fakeClocks) { f.run(time.Minute) }, time.Minute, 0},
		{"twenty minutes asleep count on the clock and are reported as a suspension",
			func(f *fakeClocks) { f.run(time.Minute); f.sleep(20 * time.Minute); f.run(time.Second) },
			21*time.Minute + time.Second, 20 * time.Minute},
		{"a gap under one second is not a suspension",
			func(f *fakeClocks) { f.sleep(999 * time.Millisecond) }, 999 * time.Millisecond, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeClocks{boot: 5 * time.Hour, awake: 4 * time.Hour}
			s := newSource(wall, f.clocks())
			tc.steps(f)
			if got := s.Now().Sub(wall); got != tc.wantElapsed {
				t.Errorf("Now is %v after the anchor, want %v", got, tc.wantElapsed)
			}
			if got := s.Suspended(); got != tc.wantSlept {
				t.Errorf("Suspended = %v, want %v", got, tc.wantSlept)
			}
			if got := s.Suspended(); got != 0 {
				t.Errorf("a second Suspended call = %v, want 0 (each suspension is reported once)", got)
			}
		})
	}
}

func TestTimeSourceReportsEachSuspensionOnce(t *testing.T) {
	f := &fakeClocks{}
	s := newSource(time.Unix(0, 0), f.clocks())
	f.sleep(10 * time.Minute)
	if got := s.Suspended(); got != 10*time.Minute {
		t.Fatalf("first suspension = %v, want 10m", got)
	}
	f.run(time.Hour)
	f.sleep(3 * time.Minute)
	if got := s.Suspended(); got != 3*time.Minute {
		t.Fatalf("second suspension = %v, want 3m (only the new sleep)", got)
	}
}

func TestTimeSourceWithoutPlatformClocksFallsBackToGoMonotonic(t *testing.T) {
	none := platformClocks{
		sinceBoot: func() time.Duration { return -1 },
		awake:     func() time.Duration { return -1 },
	}
	anchor := time.Now()
	s := newSource(anchor, none)
	if got := s.Now(); got.Before(anchor.Round(0).UTC()) {
		t.Errorf("Now = %v runs back before the anchor %v", got, anchor)
	}
	if got := s.Suspended(); got != 0 {
		t.Errorf("Suspended without platform clocks = %v, want 0", got)
	}
}

// The platform's own clocks answer on the machine the tests run on (under
// Wine this checks the Windows functions are found), the sleep-counting one
// never runs behind the other's progress, and neither runs back.
func TestTimeSourcePlatformClocksAnswer(t *testing.T) {
	b0, a0 := osClocks.sinceBoot(), osClocks.awake()
	if b0 < 0 || a0 < 0 {
		t.Fatalf("platform clocks gave sinceBoot=%v awake=%v; want both readable", b0, a0)
	}
	b1, a1 := osClocks.sinceBoot(), osClocks.awake()
	if b1 < b0 || a1 < a0 {
		t.Errorf("a platform clock ran back: sinceBoot %v→%v, awake %v→%v", b0, b1, a0, a1)
	}
	s := New()
	if s.since0 < 0 || s.awake0 < 0 {
		t.Errorf("New did not anchor to the platform clocks")
	}
}

// TestTimeSourceAnchorsTheWallClockToTheNarrowestBracketOfTheBootClock: a
// thread paused right after reading the wall clock (a loaded machine) must
// not leave the session's clock behind the wall clock by the pause. The
// first bracket here holds a 6 ms pause; the second is tight, and Now a
// second later must be the wall clock's reading then to within the
// bracket. Anchoring to the boot clock read after the wall clock, as before,
// left the session 6 ms behind.
func TestTimeSourceAnchorsTheWallClockToTheNarrowestBracketOfTheBootClock(t *testing.T) {
	wall := time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)
	const boot0 = 10 * time.Second
	// the boot clock's readings, in order, and the wall clock's between them
	boots := []time.Duration{boot0, boot0 + 6*time.Millisecond, boot0 + 7*time.Millisecond, boot0 + 7*time.Millisecond + 2*time.Microsecond}
	walls := []time.Time{wall, wall.Add(7*time.Millisecond + time.Microsecond)}
	var later time.Duration
	bi, wi := 0, 0
	c := platformClocks{
		sinceBoot: func() time.Duration {
			if bi < len(boots) {
				bi++
				return boots[bi-1]
			}
			return later
		},
		awake: func() time.Duration { return time.Hour },
	}
	now := func() time.Time { wi++; return walls[wi-1] }
	s := anchor(now, c)
	if wi != 2 {
		t.Fatalf("the wall clock was read %d times, want 2 (the second bracket is tight)", wi)
	}
	later = boot0 + time.Second // the wall clock's reading then: wall + 1 s
	got := s.Now().Sub(wall)
	if d := got - time.Second; d < -anchorTight || d > anchorTight {
		t.Errorf("Now is %v after the first wall reading a second later, want 1s within %v", got, anchorTight)
	}
}

func TestTimeSourceWithoutABootClockAnchorsAtTheWallClock(t *testing.T) {
	wall := time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)
	c := platformClocks{sinceBoot: func() time.Duration { return -1 }, awake: func() time.Duration { return -1 }}
	s := anchor(func() time.Time { return wall }, c)
	if s.since0 != -1 || !s.wall.Equal(wall) {
		t.Errorf("anchor without a boot clock: since0 %v wall %v, want -1 and %v", s.since0, s.wall, wall)
	}
}
