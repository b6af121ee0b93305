package broadcast_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"arbiter/broadcast"
	"arbiter/cli"
	"arbiter/match"
	"arbiter/store"
)

var t0 = time.Date(1996, 2, 10, 20, 0, 0, 0, time.UTC)

// game6 is 1996 game 6 up to 9.Bxe4, with a pause, as "arbiter play" lines.
const game6 = `0:00:00 match new --title "ACM Chess Challenge 1996" --site "Philadelphia, PA, USA" --player "Garry Kasparov" --player "Deep Blue" --computer "Deep Blue" --operator "Feng-hsiung Hsu" --arbiter "Mike Valvo" --white "Garry Kasparov" --tz America/New_York --games 6 --pin "arbiter passphrase"
0:00:01 game start
0:01:10 move Nf3
0:03:00 --as operator move d5
0:05:30 move d4
0:07:40 --as operator move c6
0:09:10 move c4
0:12:30 --as operator move e6
0:14:00 move Nbd2
0:16:20 --as operator move Nf6
0:19:00 move e3
0:21:10 --as operator move Nbd7
0:24:30 move Bd3
0:26:00 --as operator move Bd6
0:27:30 pause --reason "photographers' flashes in the hall"
0:29:45 --pin "arbiter passphrase" resume
0:31:40 move e4
0:33:20 --as operator move dxe4
0:35:00 move Nxe4
0:37:10 --as operator move Nxe4
0:38:40 move Bxe4
`

func runCLI(t testing.TB, args ...string) {
	t.Helper()
	var o, e bytes.Buffer
	env := cli.Env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }, Now: func() time.Time { return t0.Add(time.Hour) }}
	if code := cli.Run(context.Background(), args, env); code != 0 {
		t.Fatalf("arbiter %v: exit %d: %s", args, code, e.String())
	}
}

// played is a record with game6 played, and a read-only server on it whose
// clocks are read 20 s after the last move.
func played(t *testing.T) (string, *broadcast.Server, *httptest.Server) {
	t.Helper()
	dir := t.TempDir()
	sp := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(sp, []byte(game6), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "m.db")
	runCLI(t, "--db", db, "--at", t0.Format(time.RFC3339), "--pin", "arbiter passphrase", "play", sp)
	srv, hs := serve(t, db, t0.Add(38*time.Minute+40*time.Second+20*time.Second))
	return db, srv, hs
}

func serve(t *testing.T, path string, now time.Time) (*broadcast.Server, *httptest.Server) {
	t.Helper()
	return serveAt(t, path, broadcast.Options{Interval: 5 * time.Millisecond, Now: func() time.Time { return now }})
}

// newServer is a server of the record at path, on its own read-only
// handle, closed when the test ends.
func newServer(t testing.TB, path string, opts broadcast.Options) *broadcast.Server {
	t.Helper()
	ro, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ro.Close() })
	srv, err := broadcast.New(context.Background(), ro, opts)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// serveAt serves the record at path with opts through its own read-only
// handle until the test ends.
func serveAt(t *testing.T, path string, opts broadcast.Options) (*broadcast.Server, *httptest.Server) {
	t.Helper()
	srv := newServer(t, path, opts)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return srv, hs
}

func get(t *testing.T, url string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestBroadcastRoutes(t *testing.T) {
	db, _, hs := played(t)
	before, _ := os.ReadFile(db)
	res, pgn := get(t, hs.URL+"/games.pgn")
	tests := []struct {
		name string
		ok   bool
	}{
		{"/games.pgn is PGN", res.StatusCode == 200 && strings.HasPrefix(res.Header.Get("Content-Type"), "application/x-chess-pgn")},
		{"the game in progress has Result \"*\"", strings.Contains(pgn, `[Result "*"]`)},
		{"every move has a [%clk]", strings.Count(pgn, "[%clk") == 17},
		{"it has an ETag and a Last-Modified", res.Header.Get("ETag") != "" && res.Header.Get("Last-Modified") != ""},
		{"nothing of the PIN is served", !strings.Contains(strings.ToLower(pgn), "pin")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.ok {
				t.Errorf("GET /games.pgn: %d %v\n%s", res.StatusCode, res.Header, pgn)
			}
		})
	}
	t.Run("a poller with the ETag gets 304 and no body", func(t *testing.T) {
		r2, body := get(t, hs.URL+"/games.pgn", "If-None-Match", res.Header.Get("ETag"))
		if r2.StatusCode != http.StatusNotModified || body != "" {
			t.Errorf("status %d, %d bytes", r2.StatusCode, len(body))
		}
	})
	t.Run("/game/1.pgn is game 1 alone; a game not started is 404", func(t *testing.T) {
		r1, g1 := get(t, hs.URL+"/game/1.pgn")
		r2, _ := get(t, hs.URL+"/game/2.pgn")
		r3, _ := get(t, hs.URL+"/game/x.pgn")
		if r1.StatusCode != 200 || g1 != pgn || r2.StatusCode != 404 || r3.StatusCode != 404 {
			t.Errorf("game 1: %d, game 2: %d, game x: %d", r1.StatusCode, r2.StatusCode, r3.StatusCode)
		}
	})
	t.Run("every method but GET and HEAD is refused with 405", func(t *testing.T) {
		for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS"} {
			req, _ := http.NewRequest(m, hs.URL+"/games.pgn", strings.NewReader("x"))
			r, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			r.Body.Close()
			if r.StatusCode != http.StatusMethodNotAllowed || r.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s: %d, Allow %q", m, r.StatusCode, r.Header.Get("Allow"))
			}
		}
		if r, _ := http.Head(hs.URL + "/games.pgn"); r.StatusCode != 200 {
			t.Errorf("HEAD: %d", r.StatusCode)
		}
	})
	t.Run("nothing but the routes is served: no database, no template source", func(t *testing.T) {
		for _, p := range []string{"/m.db", "/assets/page.html", "/assets/", "/../m.db", "/state.json/x"} {
			if r, _ := get(t, hs.URL+p); r.StatusCode != 404 {
				t.Errorf("GET %s: %d", p, r.StatusCode)
			}
		}
	})
	t.Run("the spectator page shows board, clocks, moves and the last incident, in English", func(t *testing.T) {
		r, body := get(t, hs.URL+"/")
		for _, w := range []string{"Garry Kasparov", "Deep Blue", "1:40:", `class="clock running" id="black-clock"`, "Bxe4", "♔", "Arbiter: resume (6.12c) White&#39;s clock runs again", "Last incident", "15:29 EST"} {
			if !strings.Contains(body, w) {
				t.Errorf("the page lacks %q", w)
			}
		}
		if r.Header.Get("Content-Type") != "text/html; charset=utf-8" || strings.Contains(body, "http://") || strings.Contains(body, "https://") {
			t.Errorf("the page is not self-contained HTML")
		}
	})
	t.Run("the spectator page is German with ?lang=de or Accept-Language: de", func(t *testing.T) {
		_, a := get(t, hs.URL+"/?lang=de")
		_, b := get(t, hs.URL+"/", "Accept-Language", "de-DE,de;q=0.9,en;q=0.5")
		for _, body := range []string{a, b} {
			for _, w := range []string{"Schwarz", "Weiß", "Züge", "Letztes Vorkommnis", "Lxe4", "Sf3", "Schiedsrichter: Fortsetzung (6.12c) die Uhr von Weiß läuft wieder"} {
				if !strings.Contains(body, w) {
					t.Errorf("the German page lacks %q", w)
				}
			}
		}
	})
	t.Run("state.json reads the clocks at the instant asked, derived from the record", func(t *testing.T) {
		_, body := get(t, hs.URL+"/state.json")
		if !strings.Contains(body, `"running":"black"`) || !strings.Contains(body, `"seq":`) || strings.Contains(strings.ToLower(body), "pin") {
			t.Errorf("state.json: %s", body)
		}
	})
	after, _ := os.ReadFile(db)
	if !bytes.Equal(before, after) {
		t.Errorf("serving changed the database")
	}
}

// TestBroadcastGrowsWhileAScriptPlays polls /games.pgn while another
// connection plays a game move by move: every poll parses (notnil/chess),
// no poll has fewer moves than the one before, and the last has them all.
func TestBroadcastGrowsWhileAScriptPlays(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.db")
	ctx := context.Background()
	wdb, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer wdb.Close()
	app, err := match.New(ctx, wdb)
	if err != nil {
		t.Fatal(err)
	}
	now := t0
	cmd := func(role match.Role, d time.Duration) match.Cmd {
		now = now.Add(d)
		return match.Cmd{At: now, Actor: match.Actor{Role: role}}
	}
	if _, err := app.Do(ctx, cmd(match.RoleArbiter, 0), match.MatchNew{Title: "T", Players: [2]string{"Garry Kasparov", "Deep Blue"},
		Computer: "Deep Blue", Operators: []string{"Op"}, White: "Garry Kasparov"}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Do(ctx, cmd(match.RoleArbiter, time.Second), match.GameStart{}); err != nil {
		t.Fatal(err)
	}
	srv, hs := serve(t, path, t0)
	pollCtx, stop := context.WithCancel(ctx)
	defer stop()
	go srv.Run(pollCtx)
	updated := srv.Updated()

	moves := strings.Fields("Nf3 d5 d4 c6 c4 e6 Nbd2 Nf6 e3 Nbd7 Bd3 Bd6 e4 dxe4 Nxe4 Nxe4 Bxe4")
	last := -1
	poll := func() int {
		_, body := get(t, hs.URL+"/games.pgn")
		if body == "" {
			return 0
		}
		games, err := chess.GamesFromPGN(strings.NewReader(body))
		if err != nil || len(games) != 1 {
			t.Fatalf("a poll does not parse (%v, %d games):\n%s", err, len(games), body)
		}
		n := len(games[0].Moves())
		if n < last {
			t.Fatalf("the feed shrank from %d to %d moves", last, n)
		}
		last = n
		return n
	}
	for i, m := range moves {
		role := match.RoleArbiter
		if i%2 == 1 {
			role = match.RoleOperator
		}
		if _, err := app.Do(ctx, cmd(role, 30*time.Second), match.Move{Input: m}); err != nil {
			t.Fatal(err)
		}
		seq := app.State().Seq
		poll() // may or may not see the move yet
		deadline := time.After(5 * time.Second)
		for srv.Seq() < seq {
			select {
			case <-updated:
			case <-deadline:
				t.Fatalf("move %d (seq %d) not visible within 5 s (served seq %d)", i+1, seq, srv.Seq())
			}
		}
		if n := poll(); n != i+1 {
			t.Fatalf("after move %d the feed has %d moves", i+1, n)
		}
	}
}

func FuzzCheckListen(f *testing.F) {
	for _, s := range []string{"127.0.0.1:8080", ":8080", "localhost", "[::1]:80", "host:99999", "a:b:c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		err := broadcast.CheckListen(addr)
		if err == nil && (strings.HasPrefix(addr, ":") || !strings.Contains(addr, ":")) {
			t.Errorf("CheckListen(%q) accepted an address without a host or port", addr)
		}
		if err != nil && strings.Count(err.Error(), ": ") < 1 {
			t.Errorf("CheckListen(%q): %q does not say what to do", addr, err)
		}
	})
}

func TestLastModifiedGrowsWithEverySnapshot(t *testing.T) {
	ctx := context.Background()
	path, app := openApp(t)
	at := func(ms int) match.Cmd {
		return match.Cmd{At: t0.Add(time.Duration(ms) * time.Millisecond), Actor: match.Actor{Role: match.RoleArbiter}}
	}
	if _, err := app.Do(ctx, at(0), match.MatchNew{Title: "T", Players: [2]string{"A", "B"}, White: "A"}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Do(ctx, at(100), match.GameStart{}); err != nil {
		t.Fatal(err)
	}
	srv, hs := serve(t, path, t0)
	r1, _ := get(t, hs.URL+"/games.pgn")
	// Two moves within the same second of the first snapshot.
	if _, err := app.Do(ctx, at(300), match.Move{Input: "e4"}); err != nil {
		t.Fatal(err)
	}
	if err := srv.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	r2, body := get(t, hs.URL+"/games.pgn", "If-Modified-Since", r1.Header.Get("Last-Modified"))
	if r2.StatusCode != 200 || !strings.Contains(body, "1. e4") {
		t.Errorf("a poller with only If-Modified-Since got %d after a commit in the same second", r2.StatusCode)
	}
	if r2.Header.Get("Last-Modified") == r1.Header.Get("Last-Modified") {
		t.Errorf("Last-Modified stayed %s", r1.Header.Get("Last-Modified"))
	}
	r3, _ := get(t, hs.URL+"/games.pgn", "If-Modified-Since", r2.Header.Get("Last-Modified"))
	if r3.StatusCode != http.StatusNotModified {
		t.Errorf("an unchanged feed gave %d to If-Modified-Since", r3.StatusCode)
	}
}

// TestEveryRouteSaysHowACacheMayKeepIt: behind any HTTP cache, the PGN
// routes are kept a second and revalidated, the per-instant answers
// (state.json, the event stream) never kept, the page revalidated each
// time, the embedded files (named by the binary's version) kept a year;
// whatever depends on the language varies by Accept-Language.
func TestEveryRouteSaysHowACacheMayKeepIt(t *testing.T) {
	_, _, hs := played(t)
	_, page := get(t, hs.URL+"/")
	asset := regexp.MustCompile(`/assets/app\.js\?v=[0-9a-f]+`).FindString(page)
	if asset == "" {
		t.Fatalf("the page does not name its script by version:\n%s", page)
	}
	for _, tc := range []struct {
		path, cache, vary string
	}{
		{"/games.pgn", "public, max-age=1, must-revalidate", ""},
		{"/game/1.pgn", "public, max-age=1, must-revalidate", ""},
		{"/game/2.pgn", "public, max-age=5", ""},
		{"/state.json", "no-store", "Accept-Language"},
		{"/", "no-cache", "Accept-Language"},
		{asset, "public, max-age=31536000, immutable", ""},
		{"/assets/dejavu.ttf", "public, max-age=31536000, immutable", ""},
	} {
		t.Run(tc.path, func(t *testing.T) {
			res, _ := get(t, hs.URL+tc.path)
			if got := res.Header.Get("Cache-Control"); got != tc.cache {
				t.Errorf("Cache-Control %q, want %q", got, tc.cache)
			}
			if got := res.Header.Get("Vary"); got != tc.vary {
				t.Errorf("Vary %q, want %q", got, tc.vary)
			}
		})
	}
	t.Run("/events", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, hs.URL+"/events", nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		h := res.Header
		if h.Get("Cache-Control") != "no-cache, no-transform" || h.Get("X-Accel-Buffering") != "no" || h.Get("Vary") != "Accept-Language" {
			t.Errorf("the event stream's headers: %v", h)
		}
	})
}

// TestThePageMarksTheLastMoveAndGivesEachMoveItsClock: the board marks
// the last move's squares (9. Bxe4: d3 and e4, nothing else), the move
// list gives each move its mover's clock after it, the score is shown,
// and state.json says the same.
func TestThePageMarksTheLastMoveAndGivesEachMoveItsClock(t *testing.T) {
	_, _, hs := played(t)
	_, page := get(t, hs.URL+"/")
	marked := regexp.MustCompile(`class="sq[^"]* last" data-sq="([a-h][1-8])"`).FindAllStringSubmatch(page, -1)
	if len(marked) != 2 || marked[0][1] != "e4" || marked[1][1] != "d3" {
		t.Errorf("the squares marked as the last move: %v", marked)
	}
	for _, want := range []string{
		`<span class="mv">Nf3</span><span class="ck">1:58:51</span><span class="mv">d5</span><span class="ck">1:58:10</span>`,
		`<span class="mv cur">Bxe4</span><span class="ck">1:40:46</span>`,
		`Garry Kasparov 0 – Deep Blue 0`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	var v broadcast.View
	_, body := get(t, hs.URL+"/state.json")
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	if strings.Join(v.Last, "-") != "d3-e4" || v.Moves[0].WhiteClock != "1:58:51" || v.Moves[8].WhiteClock != "1:40:46" || v.Score == "" {
		t.Errorf("state.json: last %v, first row %+v, score %q", v.Last, v.Moves[0], v.Score)
	}
}

func TestAnEmptySiteOrGameLeavesNoSeparatorOnThePage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	runCLI(t, "--db", db, "--at", t0.Format(time.RFC3339), "match", "new", "--title", "T", "--player", "A", "--player", "B")
	_, hs := serve(t, db, t0.Add(time.Minute))
	_, page := get(t, hs.URL+"/")
	_, css := get(t, hs.URL+regexp.MustCompile(`/assets/style\.css\?v=[^"]+`).FindString(page))
	for _, tc := range []struct{ rule, span, hides string }{
		{"a match without a site shows no separator before the game", `<span id="site"></span><span class="sep">`, "#site:empty + .sep"},
		{"before the first game no separator stands between the site and the status", `<span id="game"></span><span class="sep">`, "#game:empty + .sep"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			if !strings.Contains(page, tc.span) {
				t.Fatalf("the page lacks %s:\n%s", tc.span, page)
			}
			if !regexp.MustCompile(`(?m)^[^{]*` + regexp.QuoteMeta(tc.hides) + `[^{]*\{\s*display:\s*none;?\s*\}`).MatchString(css) {
				t.Errorf("style.css does not hide the separator after an empty element (%s):\n%s", tc.hides, css)
			}
		})
	}
}
