package match

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"arbiter/internal/outside"
)

// The heartbeat is no evidence (branch htrust; docs/reliability.md, "The
// heartbeat and meta rows"): the sqlite3 shell writes any instant into it,
// and the next open (the console's CheckRecovery, a command's ArmRecovery)
// records a recovery note from it, in the signed record. The absence a
// note says is now never longer than the running clock's run without a
// stop, which the record's events hold. Before, a heartbeat set two hours
// back recorded "the console was gone for 2h10m0s while White's clock was
// running" of a clock started ten minutes before.
func TestARecoveryNoteSaysNoLongerAnAbsenceThanTheRecordsClockRan(t *testing.T) {
	for _, tc := range []struct {
		name string
		// beat is when the console beat last, after the clock started
		// (negative: before); forge, if set, the instant written over
		// its wall with sqlite3, from the clock's start
		beat, forge time.Duration
		forged      bool
		pause       bool // the clocks stopped and resumed 4 minutes after the start
		want        time.Duration
	}{
		{name: "a console gone within the clock's run is said gone for as long as it was", beat: time.Minute, want: 9 * time.Minute},
		{name: "a heartbeat set two hours back says no more than the clock ran", beat: time.Minute, forge: -2 * time.Hour, forged: true, want: 10 * time.Minute},
		{name: "a heartbeat set before the resume says no more than the clock ran since it", beat: time.Minute, forge: -time.Hour, forged: true, pause: true, want: 5 * time.Minute},
		{name: "a console gone before its game started is said gone while the clock ran", beat: -time.Hour, want: 10 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.newMatch(MatchNew{})
			if tc.beat < 0 {
				f.ok(f.app.Beat(f.ctx, f.now.Add(tc.beat)))
			}
			f.ok(f.app.StartGame(f.ctx, f.at(time.Hour+time.Second), 0))
			start := f.now
			if tc.beat > 0 {
				f.ok(f.app.Beat(f.ctx, start.Add(tc.beat)))
			}
			if tc.pause {
				f.ok(f.app.Pause(f.ctx, f.at(4*time.Minute), "a fault", false))
				f.ok(f.app.Resume(f.ctx, f.at(time.Minute)))
			}
			if tc.forged {
				outside.SQL(t, f.db.Path(), fmt.Sprintf("UPDATE heartbeat SET wall_ns = %d", start.Add(tc.forge).UnixNano()))
			}
			if _, err := f.app.CheckRecovery(f.ctx, start.Add(10*time.Minute), true); err != nil {
				t.Fatal(err)
			}
			evs, err := f.db.EventsAfter(f.ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			last := evs[len(evs)-1]
			var p RecoveryPayload
			if last.Kind != KindRecovery || json.Unmarshal(last.Payload, &p) != nil {
				t.Fatalf("the last event is %s %s, want a recovery", last.Kind, last.Payload)
			}
			if got := time.Duration(p.AwayMS) * time.Millisecond; got != tc.want {
				t.Fatalf("the note says the console was away %v (%q), want %v", got, p.Text, tc.want)
			}
		})
	}
}
