//go:build !windows

package station

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/store"
)

// The chaos run: three record holders and the operator's laptop as child
// processes play a scripted game while stations, the authority included,
// are SIGKILLed and frozen with SIGSTOP. make test runs a short version
// (3 kills, the authority among them, and 1 freeze); make station-test
// (ARBITER_STATION_CHAOS=1) the full one of 20 kills and 5 freezes.

type childSpec struct {
	Name, DB, Dir, Listen string
	Routes                []string
	First                 bool
	ClientPort            int
	Dial                  []string // a client (the operator's laptop)
}

func TestMain(m *testing.M) {
	if spec := os.Getenv("ARBITER_STATION_CHILD"); spec != "" {
		os.Exit(runChild(spec))
	}
	os.Exit(m.Run())
}

func runChild(spec string) int {
	var c childSpec
	if err := json.Unmarshal([]byte(spec), &c); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer cancel()
	db, err := store.Open(ctx, c.DB)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer db.Close()
	cfg := Config{Name: c.Name, Role: "organiser", DB: db, First: c.First, Exec: testExec,
		Logf:   func(f string, a ...any) { fmt.Fprintf(os.Stderr, c.Name+": "+f+"\n", a...) },
		Engine: &EngineConfig{Name: c.Name, Dir: c.Dir, ClientPort: c.ClientPort, Cluster: &ClusterConfig{Name: "match", Listen: c.Listen, Routes: c.Routes, Replicas: 3}}}
	if c.Dial != nil {
		cfg.Role, cfg.Engine, cfg.Dial = "operator", nil, c.Dial
	}
	s, err := Start(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	<-ctx.Done()
	s.Stop()
	return 0
}

func TestChaosEveryAcknowledgedCommandOnceAndInOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts stations for about a minute")
	}
	kills, stops := envInt("ARBITER_STATION_KILLS", 3), envInt("ARBITER_STATION_STOPS", 1)
	if os.Getenv("ARBITER_STATION_CHAOS") != "" {
		kills, stops = envInt("ARBITER_STATION_KILLS", 20), envInt("ARBITER_STATION_STOPS", 5)
	}
	short := kills < 10 // the short version kills the authority first, so a failover is always in it
	// The failover stall (make bench): only the authority is killed, N
	// times, each time after the station killed before has caught up.
	stallOnly := os.Getenv("ARBITER_STATION_STALL") != ""
	if stallOnly {
		kills, stops = envInt("ARBITER_STATION_STALL", 10), 0
	}
	dir := t.TempDir()
	var specs []childSpec
	var routes, urls []string
	for _, n := range []string{"arbiter", "appeals", "display"} {
		cp := freePort(t)
		specs = append(specs, childSpec{Name: n, DB: filepath.Join(dir, n+".db"), Dir: filepath.Join(dir, n+"-js"),
			Listen: fmt.Sprintf("127.0.0.1:%d", freePort(t)), ClientPort: cp, First: n == "arbiter"})
		routes = append(routes, specs[len(specs)-1].Listen)
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", cp))
	}
	newRecord(t, specs[0].DB)
	specs = append(specs, childSpec{Name: "laptop", DB: filepath.Join(dir, "laptop.db"), Dial: urls})
	procs := make([]*exec.Cmd, len(specs))
	start := func(i int) {
		if specs[i].Dial == nil {
			specs[i].Routes = routes
		}
		b, _ := json.Marshal(specs[i])
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "ARBITER_STATION_CHILD="+string(b))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[i] = cmd
	}
	for i := range specs {
		start(i)
	}
	defer func() {
		for _, p := range procs {
			if p != nil && p.Process != nil {
				p.Process.Signal(syscall.SIGCONT)
				p.Process.Kill()
				p.Wait()
			}
		}
	}()
	// The operator's commands come from a connection of their own (as the
	// laptop's command line does); the laptop's station is a child that is
	// killed and frozen like the holders.
	nc, err := nats.Connect(strings.Join(urls, ","), nats.RetryOnFailedConnect(true), nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var authMu sync.Mutex
	authority := ""
	nc.Subscribe(SubjectBeat, func(m *nats.Msg) {
		var b beat
		if json.Unmarshal(m.Data, &b) == nil && b.Beat {
			authMu.Lock()
			authority = b.Name
			authMu.Unlock()
		}
	})
	var stalls []time.Duration
	Trace = t.Logf
	defer func() { Trace = nil }()

	type acked struct {
		id  string
		seq uint64
		san string
	}
	var done []acked
	send := func(role string, args ...string) {
		r := req(role, args...)
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		t0 := time.Now()
		r.At = time.Now().UnixNano()
		rep, err := Submit(ctx, nc, r, nil, time.Second)
		if err != nil || rep.Error != "" {
			t.Fatalf("%v: %v %s (connected to %s)", args, err, rep.Error, nc.ConnectedUrl())
		}
		if d := time.Since(t0); d > time.Second {
			t.Logf("%v committed as %d after %v", args, rep.Seq, d)
		}
		if len(args) == 2 {
			done = append(done, acked{r.ID, rep.Seq, args[1]})
		}
	}
	send("arbiter", "start")
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	rng := rand.New(rand.NewSource(1))
	ply := 0
	move := func() {
		role := "white"
		if ply%2 == 1 {
			role = "operator"
		}
		send(role, "move", moves[ply%4])
		ply++
	}
	for k, s := 0, 0; k < kills || s < stops; {
		move()
		i := rng.Intn(len(procs))
		if short && k == 0 || stallOnly {
			authMu.Lock()
			for j, sp := range specs {
				if sp.Name == authority {
					i = j
				}
			}
			authMu.Unlock()
		}
		if s < stops && k > 0 && (k >= kills || rng.Intn(4) == 0) {
			procs[i].Process.Signal(syscall.SIGSTOP)
			move()
			move()
			procs[i].Process.Signal(syscall.SIGCONT)
			s++
			t.Logf("froze and thawed %s (%d/%d)", specs[i].Name, s, stops)
			continue
		}
		authMu.Lock()
		wasAuthority := authority == specs[i].Name
		authMu.Unlock()
		procs[i].Process.Signal(syscall.SIGKILL)
		procs[i].Wait()
		t0 := time.Now()
		move()
		if wasAuthority {
			stalls = append(stalls, time.Since(t0))
		}
		start(i)
		if stallOnly {
			seq := done[len(done)-1].seq
			waitFor(t, 60*time.Second, specs[i].Name+" did not catch up after its restart", func() bool {
				db, err := store.OpenReadOnly(context.Background(), specs[i].DB)
				if err != nil {
					return false
				}
				defer db.Close()
				n, _, _ := db.Head(context.Background())
				return uint64(n) >= seq
			})
		}
		k++
		t.Logf("killed and restarted %s (%d/%d)%s", specs[i].Name, k, kills, map[bool]string{true: ", the authority", false: ""}[wasAuthority])
	}
	move()
	last := done[len(done)-1].seq
	// Every replica reaches the same head; every acknowledged command is there once, in order.
	for _, p := range procs {
		p.Process.Signal(syscall.SIGCONT)
	}
	// Compared while the stations run: stopping them one after another
	// would let a holder claim authority from the one stopped first, an
	// event only the later ones hold.
	waitFor(t, 60*time.Second, "the holders did not catch up", func() bool {
		heads := map[string]bool{}
		for _, sp := range specs {
			db, err := store.OpenReadOnly(context.Background(), sp.DB)
			if err != nil {
				return false
			}
			seq, head, _ := db.Head(context.Background())
			db.Close()
			if uint64(seq) < last {
				return false
			}
			heads[head] = true
		}
		return len(heads) == 1
	})
	laptopDB := openDB(t, specs[3].DB)
	evs, err := laptopDB.EventsAfter(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var sans []string
	for _, e := range evs {
		if e.Kind == "move" {
			var p struct {
				SAN string `json:"san"`
			}
			json.Unmarshal(e.Payload, &p)
			sans = append(sans, p.SAN)
		}
	}
	if len(sans) != len(done) {
		t.Fatalf("%d moves in the record, %d acknowledged", len(sans), len(done))
	}
	for i, a := range done {
		if sans[i] != a.san || evs[a.seq-1].Kind != "move" {
			t.Fatalf("move %d: record %s at %d, acknowledged %s", i+1, sans[i], a.seq, a.san)
		}
	}
	want := verifyHead(t, laptopDB)
	for _, sp := range specs {
		db, err := store.OpenReadOnly(context.Background(), sp.DB)
		if err != nil {
			t.Fatal(err)
		}
		r, err := db.Verify(context.Background(), "")
		db.Close()
		if err != nil || !r.OK || r.Head != want {
			t.Fatalf("%s: %v %+v, want head %s", sp.Name, err, r, want)
		}
	}
	for _, p := range procs {
		p.Process.Signal(syscall.SIGTERM)
		p.Wait()
	}
	sort.Slice(stalls, func(i, j int) bool { return stalls[i] < stalls[j] })
	if len(stalls) > 0 {
		t.Logf("killing the authority to the next commit: median %v of %d (min %v, max %v)", stalls[len(stalls)/2], len(stalls), stalls[0], stalls[len(stalls)-1])
	}
	t.Logf("%d moves acknowledged, %d kills, %d freezes; every replica verifies to %s", len(done), kills, stops, want)
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}
