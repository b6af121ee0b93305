package station

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"arbiter/match"
)

// Every station reports every station of the match it has heard, clients
// included (issue 27: the Stations dialog listed only the record holders):
// the authority lists the operator's laptop and the mirror with their
// roles, connected, their lag and their clocks' uncertainty; the laptop
// lists the authority; a station that stops is shown as last seen.
func TestEveryStationReportsEveryStationItHearsClientsIncluded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.db")
	newRecord(t, path)
	s, err := Start(context.Background(), Config{Name: "arbiter", Role: "organiser", DB: openDB(t, path), First: true,
		Engine: &EngineConfig{Name: "arbiter", Dir: filepath.Join(dir, "js")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	urls := []string{s.Engine().ClientURL()}
	laptop, err := Start(context.Background(), Config{Name: "laptop", Role: "operator", DB: openDB(t, filepath.Join(dir, "l.db")), Dial: urls})
	if err != nil {
		t.Fatal(err)
	}
	defer laptop.Stop()
	mirror, err := Start(context.Background(), Config{Name: "mirror", Role: "mirror", DB: openDB(t, filepath.Join(dir, "m.db")), Dial: urls})
	if err != nil {
		t.Fatal(err)
	}
	seen := func(of *Station, name string) (Seen, bool) {
		for _, x := range of.Status().Stations {
			if x.Name == name {
				return x, true
			}
		}
		return Seen{}, false
	}
	for _, tc := range []struct{ name, role string }{{"laptop", "operator"}, {"mirror", "mirror"}} {
		waitFor(t, 20*time.Second, "the authority does not list "+tc.name+" connected with its clock", func() bool {
			x, ok := seen(s, tc.name)
			return ok && x.Role == tc.role && x.Connected && x.UncertaintyMS >= 0 && x.LastSeenNS > 0 && !x.Self
		})
	}
	waitFor(t, 20*time.Second, "the laptop does not list the authority", func() bool {
		x, ok := seen(laptop, "arbiter")
		return ok && x.Role == "organiser" && x.Connected && x.Authority && x.UncertaintyMS == 0
	})
	if x, ok := seen(s, "arbiter"); !ok || !x.Self || !x.Authority || !x.Connected {
		t.Errorf("the authority lists itself as %+v", x)
	}
	submit(t, s, req("arbiter", match.GameStart{Game: 1}))
	waitFor(t, 20*time.Second, "the laptop's lag does not come back to 0", func() bool {
		x, _ := seen(s, "laptop")
		return x.Lag == 0
	})

	mirror.Stop()
	stopped := time.Now()
	waitFor(t, 20*time.Second, "the stopped mirror is still connected", func() bool {
		x, ok := seen(s, "mirror")
		return ok && !x.Connected
	})
	// last seen before the authority told it gone, and not long before
	// the stop: a beat the mirror sent as it stopped may be heard just
	// after Stop returned (0.8 ms after, in one make test)
	told := time.Now()
	if x, _ := seen(s, "mirror"); x.LastSeenNS > told.UnixNano() || x.LastSeenNS < stopped.Add(-10*time.Second).UnixNano() {
		t.Errorf("the mirror was last seen at %v, stopped at %v, told gone by %v", time.Unix(0, x.LastSeenNS), stopped, told)
	}
}

// A beat carries the station's role, its clock's uncertainty and its alarm,
// and a station that hears it reports them.
func TestABeatCarriesTheRoleTheClocksUncertaintyAndTheAlarm(t *testing.T) {
	b, err := json.Marshal(beat{Name: "mirror", Seq: 5, beatInfo: beatInfo{Role: "mirror", UncNS: int64(1500 * time.Microsecond), Alarm: "this station's record file was changed behind it"}})
	if err != nil {
		t.Fatal(err)
	}
	var got beat
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	s := &Station{cfg: Config{Name: "arbiter", Role: "organiser", Silence: 2 * time.Second}}
	list := s.seen(7, "arbiter", Status{UncertaintyMS: 0}, nil, map[string]beatSeen{"mirror": {at: time.Now(), seq: got.Seq, info: got.beatInfo}})
	var m Seen
	for _, x := range list {
		if x.Name == "mirror" {
			m = x
		}
	}
	if m.Role != "mirror" || !m.Connected || m.Lag != 2 || m.UncertaintyMS != 1.5 || m.Alarm == "" {
		t.Errorf("the mirror is reported as %+v (beat %s)", m, b)
	}
}
