package broadcast_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/broadcast"
	"arbiter/match"
	"arbiter/store"
)

// benchMatch is a record with a game in progress and a writer on it that
// plays the knights out and back, one move per call.
type benchMatch struct {
	path string
	app  *match.App
	now  time.Time
	ply  int
}

func newBenchMatch(b testing.TB) *benchMatch {
	b.Helper()
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "bench.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	app, err := match.New(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	m := &benchMatch{path: path, app: app, now: t0}
	if _, err := app.Do(ctx, m.cmd(0), match.MatchNew{Title: "Bench", Players: [2]string{"A B", "C D"}, White: "A B", Control: "5400+30"}); err != nil {
		b.Fatal(err)
	}
	if _, err := app.Do(ctx, m.cmd(time.Second), match.GameStart{}); err != nil {
		b.Fatal(err)
	}
	return m
}

func (m *benchMatch) cmd(d time.Duration) match.Cmd {
	m.now = m.now.Add(d)
	return match.Cmd{At: m.now, Actor: match.Actor{Role: match.RoleArbiter}}
}

var shuffle = []string{"Nf3", "Nf6", "Ng1", "Ng8"}

// move commits the next move and returns the record's seq after it.
func (m *benchMatch) move(b testing.TB) int64 {
	if _, err := m.app.Do(context.Background(), m.cmd(2*time.Second), match.Move{Input: shuffle[m.ply%4]}); err != nil {
		b.Fatal(err)
	}
	m.ply++
	return m.app.State().Seq
}

func percentiles(b *testing.B, samples []time.Duration) {
	slices.Sort(samples)
	at := func(p float64) float64 { return float64(samples[int(p*float64(len(samples)-1))].Nanoseconds()) }
	b.ReportMetric(at(0.50), "p50-ns")
	b.ReportMetric(at(0.99), "p99-ns")
	b.ReportMetric(float64(len(samples)), "samples")
}

// BenchmarkBroadcastCommitToVisible: from the return of a committed move
// to the first GET /games.pgn that holds it, with the server's default
// poll interval (100 ms) on its own read-only handle.
func BenchmarkBroadcastCommitToVisible(b *testing.B) {
	m := newBenchMatch(b)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ro, err := store.OpenReadOnly(ctx, m.path)
	if err != nil {
		b.Fatal(err)
	}
	defer ro.Close()
	srv, err := broadcast.New(ctx, ro, broadcast.Options{})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	go srv.Run(ctx)
	updated := srv.Updated()
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Commit at a random phase of the poller, as a real move would.
		time.Sleep(time.Duration(rand.Int64N(int64(broadcast.DefaultInterval))))
		seq := m.move(b)
		start := time.Now()
		for srv.Seq() < seq {
			<-updated
		}
		res, err := http.Get(hs.URL + "/games.pgn")
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		samples = append(samples, time.Since(start))
		if !strings.Contains(string(body), `[PlyCount "`) {
			b.Fatalf("no PGN: %s", body)
		}
	}
	b.StopTimer()
	percentiles(b, samples)
}

// serveBench GETs url from parallel clients while a writer commits a move
// every 100 ms; metric req/s.
func serveBench(b *testing.B, url string, m *benchMatch) {
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	if m != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(100 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					m.move(b)
				}
			}
		}()
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	client := &http.Client{Transport: tr}
	b.SetParallelism(4)
	start := time.Now()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			res, err := client.Get(url)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				b.Errorf("status %d", res.StatusCode)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
	stop()
	wg.Wait()
	tr.CloseIdleConnections()
}

// BenchmarkBroadcastServe: GET /games.pgn (a 100-move game in progress)
// while the match is played.
func BenchmarkBroadcastServe(b *testing.B) {
	m := newBenchMatch(b)
	for i := 0; i < 100; i++ {
		m.move(b)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ro, err := store.OpenReadOnly(ctx, m.path)
	if err != nil {
		b.Fatal(err)
	}
	defer ro.Close()
	srv, err := broadcast.New(ctx, ro, broadcast.Options{})
	if err != nil {
		b.Fatal(err)
	}
	go srv.Run(ctx)
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	serveBench(b, hs.URL+"/games.pgn", m)
}

// BenchmarkStaticFileServe is the baseline: net/http's file server serving
// the same PGN bytes from a file, in the same process and run.
func BenchmarkStaticFileServe(b *testing.B) {
	m := newBenchMatch(b)
	for i := 0; i < 100; i++ {
		m.move(b)
	}
	ro, err := store.OpenReadOnly(context.Background(), m.path)
	if err != nil {
		b.Fatal(err)
	}
	defer ro.Close()
	srv, err := broadcast.New(context.Background(), ro, broadcast.Options{})
	if err != nil {
		b.Fatal(err)
	}
	hs0 := httptest.NewServer(srv.Handler())
	res, err := http.Get(hs0.URL + "/games.pgn")
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	hs0.Close()
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "games.pgn"), body, 0o644); err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer hs.Close()
	serveBench(b, hs.URL+"/games.pgn", nil)
}

// TestMain makes this test binary the broadcast server of
// BenchmarkBroadcastSpectators when ARBITER_BROADCAST_SERVE names a record:
// a process of its own, so that its memory is the server's alone.
func TestMain(m *testing.M) {
	if path := os.Getenv("ARBITER_BROADCAST_SERVE"); path != "" {
		os.Exit(serveForBench(path))
	}
	os.Exit(m.Run())
}

// serveForBench serves the record at path as `arbiter broadcast` does (its
// own read-only handle, the default options) on 127.0.0.1, prints the
// address, and serves until its standard input closes.
func serveForBench(path string) int {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ro, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer ro.Close()
	srv, err := broadcast.New(ctx, ro, broadcast.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(ln.Addr())
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		stop()
	}()
	if err := srv.Serve(ctx, ln); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// procMemory reads a process's resident memory now (VmRSS) and at its
// peak (VmHWM), in bytes, from /proc (0 where there is none).
func procMemory(pid int) (rss, peak float64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb * 1024
		case "VmHWM:":
			peak = kb * 1024
		}
	}
	return rss, peak
}

// BenchmarkBroadcastSpectators: 2,000 spectators' pages (event streams,
// each on its own connection) on one server process on loopback, beside
// one spectator in the same run. Per commit (b.N of them, each at a
// random phase of the poller): the time from the return of the committed
// move to its arrival at each spectator (p50-ns, p99-ns over every
// arrival) and to its arrival at the last spectator (all-p50-ns,
// all-p99-ns); the server's resident memory at the end (rss-bytes) and at
// its peak (peak-bytes).
func BenchmarkBroadcastSpectators(b *testing.B) {
	for _, n := range []int{1, 2000} {
		b.Run(fmt.Sprintf("spectators=%d", n), func(b *testing.B) { spectators(b, n) })
	}
}

type arrival struct {
	seq int64
	at  time.Time
}

func spectators(b *testing.B, n int) {
	if have, ok := broadcast.RaiseFileLimit(uint64(n + 256)); ok && have < uint64(n+256) {
		b.Fatalf("this process may open %d files; %d spectators need %d: raise the hard limit (ulimit -Hn)", have, n, n+256)
	}
	m := newBenchMatch(b)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ARBITER_BROADCAST_SERVE="+m.path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("the server process said no address: %v", err)
	}
	addr = strings.TrimSpace(addr)

	_, readers := openStreams(b, addr, n)
	arrivals := make(chan arrival, 4*n)
	for _, br := range readers {
		go func() {
			var seq int64
			for {
				line, err := br.ReadString('\n')
				if err != nil {
					return
				}
				if v, ok := strings.CutPrefix(line, "id: "); ok {
					seq, _ = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				} else if line == "\n" && seq > 0 {
					arrivals <- arrival{seq, time.Now()}
					seq = 0
				}
			}
		}()
	}

	var each, all []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		time.Sleep(time.Duration(rand.Int64N(int64(broadcast.DefaultInterval))))
		seq := m.move(b)
		committed := time.Now()
		got, last := 0, time.Duration(0)
		timeout := time.After(60 * time.Second)
		for got < n {
			select {
			case a := <-arrivals:
				if a.seq < seq {
					continue
				}
				d := a.at.Sub(committed)
				each = append(each, d)
				last = max(last, d)
				got++
			case <-timeout:
				b.Fatalf("commit %d (seq %d) reached %d of %d spectators within 60 s", i+1, seq, got, n)
			}
		}
		all = append(all, last)
	}
	b.StopTimer()
	rss, peak := procMemory(cmd.Process.Pid)
	at := func(s []time.Duration, p float64) float64 {
		slices.Sort(s)
		return float64(s[int(p*float64(len(s)-1))].Nanoseconds())
	}
	b.ReportMetric(at(each, 0.50), "p50-ns")
	b.ReportMetric(at(each, 0.99), "p99-ns")
	b.ReportMetric(at(all, 0.50), "all-p50-ns")
	b.ReportMetric(at(all, 0.99), "all-p99-ns")
	b.ReportMetric(rss, "rss-bytes")
	b.ReportMetric(peak, "peak-bytes")
	b.ReportMetric(float64(n), "spectators")
}
