package broadcast_test

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
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
	app, err := match.Open(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	m := &benchMatch{path: path, app: app, now: t0}
	if err := app.NewMatch(ctx, m.cmd(0), match.MatchSpec{Title: "Bench", Players: [2]string{"A B", "C D"}, White: "A B", Control: "5400+30"}); err != nil {
		b.Fatal(err)
	}
	if err := app.StartGame(ctx, m.cmd(time.Second), 0); err != nil {
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
	if _, err := m.app.Move(context.Background(), m.cmd(2*time.Second), shuffle[m.ply%4], false); err != nil {
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
