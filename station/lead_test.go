package station

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"arbiter/match"
)

// streamLeader is the server that leads stream name, as the stream's
// leader reports it ("" while it answers nothing).
func streamLeader(s *Station, name string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	st, err := s.eng.js.Stream(ctx, name)
	if err != nil || st.CachedInfo().Cluster == nil {
		return ""
	}
	return st.CachedInfo().Cluster.Leader
}

func TestTheAuthorityOfThreeHoldersLeadsTheMatchsStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("forms a cluster of three engines (about 5 s)")
	}
	dir := t.TempDir()
	var hs []*holder
	var routes []string
	for _, n := range []string{"arbiter", "appeals", "display"} {
		h := &holder{name: n, path: filepath.Join(dir, n+".db"), dir: filepath.Join(dir, n+"-js"), port: freePort(t)}
		hs = append(hs, h)
		routes = append(routes, fmt.Sprintf("127.0.0.1:%d", h.port))
	}
	newRecord(t, hs[0].path)
	startHolders(t, hs, routes)
	defer func() {
		for _, h := range hs {
			h.s.Stop()
		}
	}()
	auth := hs[0].s
	submit(t, auth, req("arbiter", match.GameStart{Game: 1}))
	for _, name := range []string{StreamName, HeadsStreamName} {
		t.Run(name+" is led by the authority's engine once it has claimed", func(t *testing.T) {
			waitFor(t, 20*time.Second, name+" is not led by the authority", func() bool { return streamLeader(auth, name) == "arbiter" })
		})
		t.Run(name+" led elsewhere is taken back by the authority", func(t *testing.T) {
			// Another server made the leader behind the authority's back
			// (an election after a restart does the same).
			b, _ := json.Marshal(map[string]any{"placement": map[string]string{"preferred": "appeals"}})
			if _, err := auth.eng.nc.Request("$JS.API.STREAM.LEADER.STEPDOWN."+name, b, 2*time.Second); err != nil {
				t.Fatal(err)
			}
			waitFor(t, 10*time.Second, name+" never left the authority", func() bool { return streamLeader(auth, name) != "arbiter" })
			waitFor(t, 20*time.Second, name+" was not taken back by the authority", func() bool { return streamLeader(auth, name) == "arbiter" })
		})
	}
	t.Run("commands commit after the authority took the lead", func(t *testing.T) {
		r := submit(t, hs[1].s, req("white", match.Move{Input: "e4"}))
		for _, h := range hs {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err := h.s.Replica().WaitSeq(ctx, r.Seq)
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", h.name, err)
			}
		}
	})
}
