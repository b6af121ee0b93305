package broadcast_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/broadcast"
	"arbiter/clock"
	"arbiter/match"
	"arbiter/report"
	"arbiter/scoresheet"
	"arbiter/store"
)

// delayedGame is a game at known instants: moves, a pause, a rule 10
// correction (ply 6, a6, struck and replaced by Nf6), then White thinks
// until his flag falls (at 0:12:19 by his clock) and the arbiter records it
// 21 s later: 0-1.
const delayedGame = `0:00:00 match new --title "Delay check" --site "Hall" --player "Anna Bell" --player "Carl Dunn" --white "Anna Bell" --tc 600 --games 2
0:00:01 game start
0:00:31 move e4
0:01:01 move e5
0:01:40 move Nf3
0:02:10 move Nc6
0:02:20 pause --reason "a fault at board one"
0:02:50 resume
0:03:30 move Bb5
0:04:00 move a6
0:04:05 correct --ply 6 --method keep --reason "the operator entered the wrong move"
0:04:07 resume
0:04:10 move Nf6
0:12:40 flag white
`

// playScript plays script into a new record from instant t0 and returns
// the record's path.
func playScript(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir()
	sp := filepath.Join(dir, "script.txt")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "m.db")
	runCLI(t, "--db", db, "--at", t0.Format(time.RFC3339), "play", sp)
	return db
}

// records reads every event of the record at path.
func records(t *testing.T, path string) []store.Event {
	t.Helper()
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	evs, err := db.EventsAfter(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// asItStood is the record as it stood at instant at: its events up to the
// first one later than at, replayed.
func asItStood(t *testing.T, evs []store.Event, at time.Time) *match.State {
	t.Helper()
	st := match.NewState()
	for _, e := range evs {
		if e.At.After(at) {
			break
		}
		if err := st.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// delayedServer plays script into a record and serves it with the given
// delay on a clock the test sets (first at t0); it returns the record's
// events.
func delayedServer(t *testing.T, script string, delay time.Duration) ([]store.Event, *broadcast.Server, *httptest.Server, func(time.Time)) {
	t.Helper()
	path := playScript(t, script)
	var now atomic.Pointer[time.Time]
	setNow := func(at time.Time) { now.Store(&at) }
	setNow(t0)
	srv, hs := serveAt(t, path, broadcast.Options{Delay: delay, Now: func() time.Time { return *now.Load() }})
	return records(t, path), srv, hs, setNow
}

// openApp is a new record at a temporary path and the match over it.
func openApp(t *testing.T) (string, *match.App) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.db")
	wdb, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wdb.Close() })
	app, err := match.New(context.Background(), wdb)
	if err != nil {
		t.Fatal(err)
	}
	return path, app
}

// routes is what every route of a delayed server says at one instant.
type routes struct {
	pgn, game1, page, stateJSON, stream string
	pgnHeader                           http.Header
	state, streamState                  broadcast.View
}

func readRoutes(t *testing.T, base string) routes {
	t.Helper()
	var r routes
	var res *http.Response
	res, r.pgn = get(t, base+"/games.pgn")
	r.pgnHeader = res.Header
	_, r.game1 = get(t, base+"/game/1.pgn")
	_, r.page = get(t, base+"/")
	_, r.stateJSON = get(t, base+"/state.json")
	if err := json.Unmarshal([]byte(r.stateJSON), &r.state); err != nil {
		t.Fatalf("state.json: %v\n%s", err, r.stateJSON)
	}
	evs := firstEvents(t, base+"/events", 2)
	r.stream = strings.Join(evs, "")
	if !strings.Contains(evs[0], "event: state\n") || !strings.Contains(evs[1], "event: clock\n") {
		t.Fatalf("the stream does not begin with the state and the clocks:\n%s", r.stream)
	}
	// The state as published, then the clocks read at the request.
	if err := json.Unmarshal([]byte(eventData(evs[0])), &r.streamState); err != nil {
		t.Fatalf("the stream's state: %v\n%s", err, r.stream)
	}
	published, _ := time.Parse(time.RFC3339Nano, r.streamState.At)
	if err := json.Unmarshal([]byte(eventData(evs[1])), &r.streamState.Clocks); err != nil {
		t.Fatalf("the stream's clocks: %v\n%s", err, r.stream)
	}
	if at, _ := time.Parse(time.RFC3339Nano, r.streamState.At); published.After(at) {
		t.Fatalf("the stream's state was read at %s, after the served instant %s", published, at)
	}
	return r
}

// eventData is the data of a server-sent event.
func eventData(ev string) string {
	_, d, _ := strings.Cut(ev, "data: ")
	return strings.TrimSpace(d)
}

// firstEvents opens the event stream at url and returns its first n
// events.
func firstEvents(t *testing.T, url string, n int) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("GET %s: Content-Type %q", url, ct)
	}
	br := bufio.NewReader(res.Body)
	var out []string
	for len(out) < n {
		out = append(out, readEvent(t, br))
	}
	return out
}

// readEvent reads one server-sent event (up to its blank line).
func readEvent(t *testing.T, br *bufio.Reader) string {
	t.Helper()
	var b strings.Builder
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("the event stream ended: %v (read %q)", err, b.String())
		}
		if line == "\n" {
			if strings.Contains(b.String(), "data: ") {
				return b.String()
			}
			continue
		}
		b.WriteString(line)
	}
}

var pageMove = regexp.MustCompile(`<span class="mv[^"]*">([^<…]+)</span>`)

// TestADelayedFeedNeverShowsAMoveBeforeItsInstantPlusTheDelay plays a game
// at known instants and reads every route of a 15-minute delayed feed at
// each event's instant plus the delay, a nanosecond before it and a
// millisecond after: no route, header or clock reading ever holds an event
// before its instant plus the delay, each holds it from then on, and each
// is exactly the record as it stood at now − delay.
func TestADelayedFeedNeverShowsAMoveBeforeItsInstantPlusTheDelay(t *testing.T) {
	const delay = 15 * time.Minute
	evs, srv, hs, setNow := delayedServer(t, delayedGame, delay)

	var probes []time.Time
	for _, e := range evs {
		due := e.At.Add(delay)
		probes = append(probes, due.Add(-time.Nanosecond), due, due.Add(time.Millisecond))
	}
	// Around White's flag, which falls with no event: the clock reads what
	// the clock on the table read then, nothing earlier.
	flagAt, ok := asItStood(t, evs, t0.Add(4*time.Minute+10*time.Second)).CurrentGame().Clock.FlagAt(clock.White)
	if !ok {
		t.Fatal("White's flag never falls in the test's game")
	}
	probes = append(probes, flagAt.Add(delay-time.Second), flagAt.Add(delay), flagAt.Add(delay+10*time.Second))
	sort.Slice(probes, func(i, j int) bool { return probes[i].Before(probes[j]) })
	probes = slices.CompactFunc(probes, time.Time.Equal)

	sawFlagZero := false
	for _, p := range probes {
		setNow(p)
		if err := srv.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		cut := p.Add(-delay)
		want := asItStood(t, evs, cut)
		r := readRoutes(t, hs.URL)
		name := fmt.Sprintf("%s after the start, seen %s later", cut.Sub(t0), delay)

		var wantMoves []string
		wantResult, wantIncident := "*", ""
		wantClocks := broadcast.Clocks{}
		if g := want.CurrentGame(); g != nil {
			for _, e := range g.Sheet.Entries() {
				wantMoves = append(wantMoves, e.SAN)
			}
			if g.Over() {
				wantResult = g.Result
			}
			if n := len(g.Incidents); n > 0 {
				wantIncident = report.IncidentLine(want.Match, g.Incidents[n-1], "en")
			}
			w, _ := g.Clock.Shown(clock.White, cut)
			b, _ := g.Clock.Shown(clock.Black, cut)
			wantClocks.WhiteMS, wantClocks.BlackMS = w.Milliseconds(), b.Milliseconds()
		}
		t.Run(name, func(t *testing.T) {
			// The PGN routes: the moves, the result, nothing later.
			for _, body := range []string{r.pgn, r.game1} {
				if len(wantMoves) == 0 {
					if strings.Contains(body, "1. ") {
						t.Fatalf("a PGN route shows a move before any was public:\n%s", body)
					}
					continue
				}
				games, err := scoresheet.ReadPGN(strings.NewReader(body))
				if err != nil || len(games) != 1 {
					t.Fatalf("the PGN does not read (%v):\n%s", err, body)
				}
				if got := strings.Join(games[0].Moves, " "); got != strings.Join(wantMoves, " ") {
					t.Fatalf("the PGN has the moves %q, the record at %s had %q", got, cut.Format(time.TimeOnly), strings.Join(wantMoves, " "))
				}
				if res, _ := games[0].Tag("Result"); res != wantResult {
					t.Errorf("the PGN's Result is %q, the record had %q", res, wantResult)
				}
			}
			// The headers: the ETag of the last event then, no later instant.
			wantTag := fmt.Sprintf(`"%d-%s"`, want.Seq, want.Head[:min(16, len(want.Head))])
			if got := r.pgnHeader.Get("ETag"); got != wantTag {
				t.Errorf("ETag %s, the record's last event then is %s", got, wantTag)
			}
			if lm := r.pgnHeader.Get("Last-Modified"); lm != "" {
				at, err := http.ParseTime(lm)
				if err != nil || at.After(cut) {
					t.Errorf("Last-Modified %q is later than the served instant %s", lm, cut.Format(time.RFC3339Nano))
				}
			}
			// The page, state.json and the event stream: the same moves,
			// clocks read at the served instant, the incident then.
			var pageMoves []string
			for _, m := range pageMove.FindAllStringSubmatch(r.page, -1) {
				pageMoves = append(pageMoves, m[1])
			}
			for _, got := range [][]string{pageMoves, sans(r.state), sans(r.streamState)} {
				if strings.Join(got, " ") != strings.Join(wantMoves, " ") {
					t.Fatalf("a spectator sees the moves %q, the record at %s had %q", got, cut.Format(time.TimeOnly), wantMoves)
				}
			}
			for _, v := range []broadcast.View{r.state, r.streamState} {
				if v.Seq != want.Seq || v.WhiteMS != wantClocks.WhiteMS || v.BlackMS != wantClocks.BlackMS {
					t.Errorf("a spectator's view: seq %d, clocks %d/%d ms; the record then: seq %d, clocks %d/%d ms",
						v.Seq, v.WhiteMS, v.BlackMS, want.Seq, wantClocks.WhiteMS, wantClocks.BlackMS)
				}
				if at, _ := time.Parse(time.RFC3339Nano, v.At); !at.Equal(cut) {
					t.Errorf("the clocks are read at %s, not at the served instant %s", v.At, cut.Format(time.RFC3339Nano))
				}
				if v.Incident != wantIncident {
					t.Errorf("the incident shown is %q, the record's then is %q", v.Incident, wantIncident)
				}
				if v.DelayS != int64(delay/time.Second) || !strings.Contains(v.Delay, "15 min") {
					t.Errorf("the view does not say it is delayed: %q", v.Delay)
				}
			}
			// No text of a later event anywhere.
			for _, later := range []struct {
				at   time.Duration
				text string
			}{
				{2*time.Minute + 20*time.Second, "a fault at board one"},
				{4*time.Minute + 5*time.Second, "the operator entered the wrong move"},
				{12*time.Minute + 40*time.Second, "0-1"},
			} {
				if cut.Before(t0.Add(later.at)) {
					for _, body := range []string{r.pgn, r.game1, r.page, r.stateJSON, r.stream} {
						if strings.Contains(body, later.text) {
							t.Errorf("%q (at %s) is served at %s", later.text, later.at, cut.Sub(t0))
						}
					}
				}
			}
		})
		if wantClocks.WhiteMS == 0 && wantResult == "*" && len(wantMoves) > 0 {
			sawFlagZero = true
		}
	}
	if !sawFlagZero {
		t.Errorf("no probe fell between White's flag and its record: the flag's instant in the test is wrong")
	}
}

func sans(v broadcast.View) []string {
	var out []string
	for _, r := range v.Moves {
		for _, s := range []string{r.White, r.Black} {
			if s != "" && s != "…" {
				out = append(out, s)
			}
		}
	}
	return out
}

// TestTheDelayedStreamPublishesEachMoveAtItsInstantPlusTheDelay: moves
// committed on the real clock while a spectator's event stream is open on a
// server with a short delay: each move reaches the spectator at its instant
// plus the delay or later, never earlier, and in the end every move has.
func TestTheDelayedStreamPublishesEachMoveAtItsInstantPlusTheDelay(t *testing.T) {
	const delay = 700 * time.Millisecond
	ctx := context.Background()
	path, app := openApp(t)
	cmd := func() match.Cmd { return match.Cmd{At: time.Now().UTC(), Actor: match.Actor{Role: match.RoleArbiter}} }
	if _, err := app.Do(ctx, cmd(), match.MatchNew{Title: "T", Players: [2]string{"A B", "C D"}, White: "A B", Control: "600"}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Do(ctx, cmd(), match.GameStart{}); err != nil {
		t.Fatal(err)
	}
	srv, hs := serveAt(t, path, broadcast.Options{Delay: delay, Interval: 20 * time.Millisecond})
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go srv.Run(runCtx)

	req, _ := http.NewRequestWithContext(runCtx, http.MethodGet, hs.URL+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	type seen struct {
		at    time.Time
		moves int
	}
	got := make(chan seen, 100)
	go func() {
		br := bufio.NewReader(res.Body)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				close(got)
				return
			}
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				var v broadcast.View
				if json.Unmarshal([]byte(d), &v) == nil && v.Moves != nil {
					got <- seen{time.Now(), len(sans(v))}
				}
			}
		}
	}()

	moves := []string{"e4", "e5", "Nf3", "Nc6", "Bb5"}
	var committed []time.Time
	for _, m := range moves {
		c := cmd()
		if _, err := app.Do(ctx, c, match.Move{Input: m}); err != nil {
			t.Fatal(err)
		}
		committed = append(committed, c.At)
	}
	deadline := time.After(delay + 30*time.Second)
	shown := 0
	for shown < len(moves) {
		select {
		case s, ok := <-got:
			if !ok {
				t.Fatalf("the stream ended after %d moves", shown)
			}
			for i := shown; i < s.moves; i++ {
				if early := committed[i].Add(delay).Sub(s.at); early > 0 {
					t.Errorf("move %d (%s) reached the spectator %s before its instant plus the delay", i+1, moves[i], early)
				}
			}
			shown = max(shown, s.moves)
		case <-deadline:
			t.Fatalf("only %d of %d moves reached the spectator within the delay plus 30 s", shown, len(moves))
		}
	}
}

func TestDelayIsReadAsADurationFromZeroTo24Hours(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"", 0, ""},
		{"0", 0, ""},
		{"15m", 15 * time.Minute, ""},
		{"1h30m", 90 * time.Minute, ""},
		{" 90s ", 90 * time.Second, ""},
		{"24h", 24 * time.Hour, ""},
		{"-5m", 0, "out of range"},
		{"25h", 0, "out of range"},
		{"soon", 0, "is not a delay"},
		{"15", 0, "is not a delay"},
	} {
		t.Run(strconv.Quote(tc.in), func(t *testing.T) {
			d, err := broadcast.ParseDelay(tc.in)
			if tc.err == "" && (err != nil || d != tc.want) {
				t.Fatalf("ParseDelay(%q) = %v, %v; want %v", tc.in, d, err, tc.want)
			}
			if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("ParseDelay(%q) = %v, %v; want an error saying %q", tc.in, d, err, tc.err)
			}
		})
	}
}
