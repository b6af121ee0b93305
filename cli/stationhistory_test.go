//go:build !nostation && !windows

package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/internal/demo"
)

// game1996 is the score of game 1 of the 1996 match (a fact; the reference
// file is not in a fresh clone), and the openings of games 2 and 3, so
// that the match plans more games.
const game1996 = `[Event "ACM Chess Challenge: Kasparov vs Deep Blue"]
[Site "Philadelphia, PA USA"]
[Date "1996.02.10"]
[Round "1"]
[White "Deep Blue"]
[Black "Kasparov, Garry"]
[Result "1-0"]
[TimeControl "40/7200:20/3600:1800"]

1. e4 c5 2. c3 d5 3. exd5 Qxd5 4. d4 Nf6 5. Nf3 Bg4 6. Be2 e6 7. h3 Bh5 8. O-O
Nc6 9. Be3 cxd4 10. cxd4 Bb4 11. a3 Ba5 12. Nc3 Qd6 13. Nb5 Qe7 14. Ne5 Bxe2
15. Qxe2 O-O 16. Rac1 Rac8 17. Bg5 Bb6 18. Bxf6 gxf6 19. Nc4 Rfd8 20. Nxb6 axb6
21. Rfd1 f5 22. Qe3 Qf6 23. d5 Rxd5 24. Rxd5 exd5 25. b3 Kh8 26. Qxb6 Rg8
27. Qc5 d4 28. Nd6 f4 29. Nxb7 Ne5 30. Qd5 f3 31. g3 Nd3 32. Rc7 Re8 33. Nd6
Re1+ 34. Kh2 Nxf2 35. Nxf7+ Kg7 36. Ng5+ Kh6 37. Rxh7+ 1-0

[Event "ACM Chess Challenge: Kasparov vs Deep Blue"]
[Site "Philadelphia, PA USA"]
[Date "1996.02.11"]
[Round "2"]
[White "Kasparov, Garry"]
[Black "Deep Blue"]
[Result "*"]
[TimeControl "40/7200:20/3600:1800"]

1. Nf3 d5 2. d4 e6 3. g3 c5 *

[Event "ACM Chess Challenge: Kasparov vs Deep Blue"]
[Site "Philadelphia, PA USA"]
[Date "1996.02.13"]
[Round "3"]
[White "Deep Blue"]
[Black "Kasparov, Garry"]
[Result "*"]
[TimeControl "40/7200:20/3600:1800"]

1. e4 c5 2. c3 d5 3. exd5 Qxd5 4. d4 Nf6 *
`

// A station joins a protected record whatever it already holds (issue 24:
// the operator's laptop could not join a match with a rule 10 correction
// made before the stations started, "ALARM: event 64 (correct) has a
// command signature that covers events not in the record"): the 1996 demo
// match, then — protected — a game with a rule 10 correction, a move that
// ends it, and a rotation of the arbiter's credential; then an organiser,
// the operator's laptop and a mirror join, as processes of their own, and
// every record verifies to the same head, none with an alarm.
func TestAStationJoinsAProtectedRecordWhateverItHolds(t *testing.T) {
	const pin1, pin2 = "the arbiter's first passphrase", "the arbiter's second passphrase"
	dir := t.TempDir()
	pgn, script, first := filepath.Join(dir, "1996.pgn"), filepath.Join(dir, "demo.txt"), filepath.Join(dir, "arbiter.db")
	if err := os.WriteFile(pgn, []byte(game1996), 0o644); err != nil {
		t.Fatal(err)
	}
	mustArb(t, first, "demo", "1996", "--pgn", pgn, "--games", "1", "-o", script)
	mustArb(t, first, "--at", demo.Start.Format(time.RFC3339), "play", script)

	// From here on as it happens, on this machine's clock.
	mustLive(t, first, "credential", "add", "--role", "arbiter", "--secret", pin1)
	mustLive(t, first, "--pin", pin1, "game", "start")
	for _, m := range []string{"Nf3", "d5", "d4", "e6", "g3"} {
		mustLive(t, first, "--pin", pin1, "move", m)
	}
	mustLive(t, first, "--pin", pin1, "pause", "--cause", "correction")
	mustLive(t, first, "--pin", pin1, "correct", "--ply", "4", "--method", "keep", "--reason", "the operator entered e6 for c6")
	mustLive(t, first, "--pin", pin1, "resume")
	mustLive(t, first, "--pin", pin1, "move", "c6")
	mustLive(t, first, "--pin", pin1, "credential", "add", "--role", "arbiter", "--secret", pin2)
	mustLive(t, first, "--pin", pin2, "resign", "black")
	kinds := map[string]int{}
	for _, e := range recordEvents(t, first) {
		kinds[e.Kind]++
	}
	multi := 0
	for _, sg := range recordSignatures(t, first) {
		if sg.Kind == "command" && sg.Count > 1 {
			multi++
		}
	}
	if kinds["correct"] == 0 || kinds["credential.add"] < 2 || multi == 0 {
		t.Fatalf("the record before the stations lacks a correction, a rotation or a signed command of several events: %v, %d", kinds, multi)
	}

	stationChild(t, first, "station", "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
	invite := func(role, name string) string {
		inv := filepath.Join(dir, name+".invite")
		mustLive(t, first, "--pin", pin2, "station", "invite", "--role", role, "--name", name, "-o", inv)
		return inv
	}
	org, laptop, mirror := filepath.Join(dir, "org.db"), filepath.Join(dir, "laptop.db"), filepath.Join(dir, "mirror.db")
	orgInv, laptopInv, mirrorInv := invite("organiser", "org"), invite("operator", "laptop"), invite("mirror", "mirror")
	joined := time.Now()
	stationChild(t, org, "station", "join", orgInv, "--listen", fmt.Sprintf("127.0.0.1:%d", freePortPair(t)))
	stationChild(t, laptop, "station", "join", laptopInv)
	stationChild(t, mirror, "station", "join", mirrorInv)
	// A station serves before its replica holds the record: the next
	// game's commands are given at once, and each waits for its station's
	// replica while it catches up (service.catchUp; before, after 5 s it
	// was prepared on what the replica held: here without the arbiter's
	// credential, so sent without it and refused as needing the PIN, 1 run
	// of 6 under load), to the authority's last match event as its link's
	// first time answer says it while the station names no authority yet
	// (before, with no answer yet, on what the replica held at once: the
	// laptop's move at event 0, refused, about 1 run in 10).
	t.Logf("the three stations joined and serve within %v", time.Since(joined).Round(time.Millisecond))

	// The next game goes on, given at the laptop and at the organiser's.
	mustLive(t, org, "--pin", pin2, "game", "start")
	mustLive(t, laptop, "move", "e4")
	mustLive(t, org, "--pin", pin2, "move", "c5")
	records := []string{first, org, laptop, mirror}
	head := ""
	// Each round runs four verify processes: on a loaded 2-core machine a
	// round takes seconds, so the records have 60 s to agree (as a
	// station has to serve, stationChild).
	agreed := time.Now()
	for deadline := agreed.Add(60 * time.Second); ; {
		heads := map[string]bool{}
		for _, db := range records {
			heads[strings.TrimSpace(mustLive(t, db, "verify"))] = true
		}
		if len(heads) == 1 {
			for h := range heads {
				head = h
			}
			t.Logf("the four records verify to one head after %v", time.Since(agreed).Round(time.Millisecond))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the records verify to different heads after %v: %v", time.Since(agreed).Round(time.Millisecond), heads)
		}
		time.Sleep(100 * time.Millisecond) // the stations apply the stream in their own processes
	}
	for _, db := range records {
		var st struct{ Alarm string }
		if err := json.Unmarshal([]byte(mustLive(t, db, "station", "status", "--json")), &st); err != nil || st.Alarm != "" {
			t.Errorf("%s: alarm %q (%v)", filepath.Base(db), st.Alarm, err)
		}
	}
	t.Logf("four records, one head %s", head)
}
