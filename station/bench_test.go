package station

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"arbiter/internal/testnet"
	"arbiter/match"
	"arbiter/store"
)

// Benchmarks for make bench (docs/stations.md): a command from the
// operator's laptop to committed (through a lone record holder, mutual
// TLS, sync always), beside the raw publish to the same engine with the
// sequence check and a raw fsync, all in one run.

func percentiles(b *testing.B, name string, d []time.Duration) {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	if len(d) == 0 {
		return
	}
	b.ReportMetric(float64(d[len(d)/2].Nanoseconds()), name+"p50-ns")
	b.ReportMetric(float64(d[len(d)*99/100].Nanoseconds()), name+"p99-ns")
}

func BenchmarkStationCommandFromLaptop(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "a.db")
	newRecord(b, path)
	caCert, caKey, _ := NewCA("bench")
	org, _ := Issue(caCert, caKey, "arbiter", "organiser")
	op, _ := Issue(caCert, caKey, "laptop", "operator")
	orgTLS, _ := org.TLSConfig()
	opTLS, _ := op.TLSConfig()
	db := openBenchDB(b, path)
	s, err := Start(context.Background(), Config{Name: "arbiter", Role: "organiser", DB: db, First: true,
		Engine: &EngineConfig{Name: "arbiter", Dir: filepath.Join(dir, "js"), TLS: orgTLS}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Stop()
	laptop, err := Start(context.Background(), Config{Name: "laptop", Role: "operator", DB: openBenchDB(b, filepath.Join(dir, "l.db")),
		Dial: []string{s.Engine().ClientURL()}, TLS: opTLS})
	if err != nil {
		b.Fatal(err)
	}
	defer laptop.Stop()
	ctx := context.Background()
	if r, err := s.Submit(ctx, req("arbiter", match.GameStart{Game: 1})); err != nil || r.Error != "" {
		b.Fatal(err, r.Error)
	}
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	roles := []string{"white", "operator"}
	var cmd, raw []time.Duration
	f, err := os.Create(filepath.Join(dir, "raw"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		st := laptop
		if roles[i%2] == "white" {
			st = s
		}
		r, err := st.Submit(ctx, req(roles[i%2], match.Move{Input: moves[i%4]}))
		if err != nil || r.Error != "" {
			b.Fatal(err, r.Error)
		}
		if roles[i%2] == "operator" {
			cmd = append(cmd, time.Since(t0))
		}
		t0 = time.Now()
		f.Write(make([]byte, 200))
		f.Sync()
		raw = append(raw, time.Since(t0))
	}
	b.StopTimer()
	percentiles(b, "laptop-", cmd)
	percentiles(b, "fsync-", raw)
}

func BenchmarkRawReplicatedPublishR1(b *testing.B) {
	dir := b.TempDir()
	e, err := StartEngine(EngineConfig{Name: "raw", Dir: filepath.Join(dir, "js")})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Stop()
	ctx := context.Background()
	if err := e.EnsureStream(ctx); err != nil {
		b.Fatal(err)
	}
	msg := make([]byte, 300)
	var d []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := e.Append(ctx, "raw-"+time.Now().String(), [][]byte{msg}, uint64(i)); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	percentiles(b, "publish-", d)
}

// BenchmarkRawReplicatedPublishR3 is the raw replicated publish: three
// clustered engines in one process (routes on 127.0.0.1), a stream of
// three replicas, sync always, the sequence check.
func BenchmarkRawReplicatedPublishR3(b *testing.B) {
	dir := b.TempDir()
	var routes []string
	for i := 0; i < 3; i++ {
		routes = append(routes, fmt.Sprintf("127.0.0.1:%d", freePortB(b)))
	}
	engines := make([]*Engine, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range engines {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			engines[i], errs[i] = StartEngine(EngineConfig{Name: fmt.Sprintf("raw%d", i), Dir: filepath.Join(dir, fmt.Sprint(i)),
				Cluster: &ClusterConfig{Name: "raw", Listen: routes[i], Routes: routes, Replicas: 3}})
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
		defer engines[i].Stop()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	e := engines[0]
	if err := e.EnsureStream(ctx); err != nil {
		b.Fatal(err)
	}
	msg := make([]byte, 300)
	// The first append waits for the stream's leader.
	for {
		tctx, c := context.WithTimeout(ctx, 2*time.Second)
		_, err := e.Append(tctx, "raw-first", [][]byte{msg}, 0)
		c()
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			b.Fatal(err)
		}
	}
	var d []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := e.Append(ctx, fmt.Sprintf("raw-%d", i), [][]byte{msg}, uint64(i+1)); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	percentiles(b, "publish-r3-", d)
}

func freePortB(b *testing.B) int { return testnet.Port(b) }

func openBenchDB(b *testing.B, path string) *storeDB {
	db, err := openStore(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

type storeDB = store.DB

func openStore(path string) (*store.DB, error) { return store.Open(context.Background(), path) }

// BenchmarkStationHolders is the cost of holding the record on one, two and
// three machines: a command from the operator's laptop to committed and
// applied on the laptop, through a lone record holder, two (the authority
// answers once the other holder's record holds the command) and three (the
// stream's majority), the three setups in one process and their commands
// interleaved so that they share the same noise; each command is given once
// every record (the laptop's included) holds the one before. No TLS (the
// cluster tests' setup); BenchmarkStationCommandFromLaptop measures the lone
// holder with it.
func BenchmarkStationHolders(b *testing.B) {
	type setup struct {
		hs     []*holder
		laptop *Station
		d      []time.Duration
	}
	dir := b.TempDir()
	var setups []*setup
	defer func() {
		for _, su := range setups {
			if su.laptop != nil {
				su.laptop.Stop()
			}
			for _, h := range su.hs {
				if h.s != nil {
					h.s.Stop()
				}
			}
		}
	}()
	for n := 1; n <= 3; n++ {
		su := &setup{}
		setups = append(setups, su)
		var routes []string
		for _, name := range []string{"arbiter", "appeals", "display"}[:n] {
			d := filepath.Join(dir, fmt.Sprint(n), name)
			h := &holder{name: name, path: d + ".db", dir: d + "-js", port: freePortB(b)}
			su.hs = append(su.hs, h)
			routes = append(routes, fmt.Sprintf("127.0.0.1:%d", h.port))
		}
		if err := os.MkdirAll(filepath.Join(dir, fmt.Sprint(n)), 0o755); err != nil {
			b.Fatal(err)
		}
		newRecord(b, su.hs[0].path)
		if n == 1 {
			s, err := Start(context.Background(), Config{Name: "arbiter", Role: "organiser", DB: openDB(b, su.hs[0].path), First: true,
				Engine: &EngineConfig{Name: "arbiter", Dir: su.hs[0].dir}})
			if err != nil {
				b.Fatal(err)
			}
			su.hs[0].s = s
		} else {
			startHoldersN(b, su.hs, routes, n)
		}
		var urls []string
		for _, h := range su.hs {
			urls = append(urls, h.s.Engine().ClientURL())
		}
		laptop, err := Start(context.Background(), Config{Name: "laptop", Role: "operator", DB: openDB(b, filepath.Join(dir, fmt.Sprint(n), "laptop.db")), Dial: urls})
		if err != nil {
			b.Fatal(err)
		}
		su.laptop = laptop
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		r, err := su.hs[0].s.Submit(ctx, req("arbiter", match.GameStart{Game: 1}))
		cancel()
		if err != nil || r.Error != "" {
			b.Fatal(n, err, r.Error)
		}
	}
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, su := range setups {
			for ply, role := range []string{"white", "operator"} {
				st := su.laptop
				if role == "white" {
					st = su.hs[0].s
				}
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				t0 := time.Now()
				r, err := st.Submit(ctx, req(role, match.Move{Input: moves[(2*i+ply)%4]}))
				d := time.Since(t0)
				cancel()
				if err != nil || r.Error != "" {
					b.Fatal(len(su.hs), err, r.Error)
				}
				if role == "operator" {
					su.d = append(su.d, d)
				}
				// The next command is given once every record holds this
				// one, untimed: on one machine the other records' fsyncs
				// of the command before would otherwise share the disk
				// with the command timed, which separate machines never
				// do (docs/performance.md, issue 29).
				ctx, cancel = context.WithTimeout(context.Background(), 60*time.Second)
				for _, st := range append([]*Station{su.laptop}, hsStations(su.hs)...) {
					if err := st.rep.WaitSeq(ctx, r.Seq); err != nil {
						b.Fatal(len(su.hs), st.cfg.Name, err)
					}
				}
				cancel()
			}
		}
	}
	b.StopTimer()
	for n, su := range setups {
		percentiles(b, fmt.Sprintf("holders%d-", n+1), su.d)
	}
}

func hsStations(hs []*holder) []*Station {
	var out []*Station
	for _, h := range hs {
		out = append(out, h.s)
	}
	return out
}
