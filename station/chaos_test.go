//go:build !windows

package station

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/internal/timesource"
	"arbiter/match"
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
	// Skew: this machine's clock is off by this much (the match timeline
	// must not follow it across a failover); ClockFile: where the station
	// writes its match timeline against the machine's clock.
	Skew      time.Duration
	ClockFile string
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
	ts := timesource.New()
	cfg := Config{Name: c.Name, Role: "organiser", DB: db, First: c.First,
		Now:          func() time.Time { return ts.Now().Add(c.Skew) },
		Logf:         func(f string, a ...any) { fmt.Fprintf(os.Stderr, c.Name+": "+f+"\n", a...) },
		TimelineFile: c.DB + ".timeline.json",
		Engine:       &EngineConfig{Name: c.Name, Dir: c.Dir, ClientPort: c.ClientPort, Cluster: &ClusterConfig{Name: "match", Listen: c.Listen, Routes: c.Routes, Replicas: 3}}}
	if c.Dial != nil {
		cfg.Role, cfg.Engine, cfg.Dial = "operator", nil, c.Dial
	}
	s, err := Start(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if c.ClockFile != "" {
		go writeClock(ctx, s, c.ClockFile)
	}
	<-ctx.Done()
	s.Stop()
	return 0
}

// writeClock writes, every 50 ms, the station's match timeline against the
// machine's clock, which every process on the machine shares: "PID WALL_NS
// OFFSET_NS ERROR_NS TAKEOVER_NS KNOWN AUTHORITY", the offset read between
// two readings of the machine's clock less than 1 ms apart, with the error
// bound the station states for it (Station.Offset) and, on the authority,
// the bound of the estimate it continued the timeline with when it took
// over (-1 elsewhere). Between events the official clocks a station shows
// move with its timeline, so a jump of the offset is a jump of the clocks
// it shows.
func writeClock(ctx context.Context, s *Station, path string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	defer f.Close()
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w1 := time.Now()
		tl := s.Now()
		w2 := time.Now()
		if w2.Sub(w1) > time.Millisecond {
			continue
		}
		mid := w1.UnixNano() + w2.Sub(w1).Nanoseconds()/2
		known := 0
		if s.knowsTime() {
			known = 1
		}
		_, u := s.Offset()
		take, isAuth := s.takeoverError()
		if u < 0 {
			u = take // no authority answered yet: the timeline is the one learnt from peers
		}
		if !isAuth {
			take = -1
		}
		auth, _ := s.Replica().Authority()
		fmt.Fprintf(f, "%d %d %d %d %d %d %s\n", os.Getpid(), mid, tl.UnixNano()-mid, u, take, known, auth)
	}
}

// clockJumps reads the stations' clock files and measures, for every
// station process that saw the authority change (a failover it survived),
// how far its match timeline moved from its value just before the change
// over the 3 s after it, beyond what the stations stated their estimates
// could be off: the observer's error bound before the change and at the
// reading, and the new authority's bound on the estimate it continued the
// timeline with. It returns the largest such move, the number of changes,
// and where the largest was.
func clockJumps(t *testing.T, specs []childSpec) (worst time.Duration, changes int, where string) {
	type line struct {
		pid, wall, off, err, take int64
		known                     bool
		auth                      string
	}
	worst = time.Duration(math.MinInt64) // a negative result: every move stayed that far within its bounds
	lines := map[string][]line{}
	for _, sp := range specs {
		b, err := os.ReadFile(sp.ClockFile)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range strings.Split(string(b), "\n") {
			var l line
			var k int
			if n, _ := fmt.Sscanf(row, "%d %d %d %d %d %d %s", &l.pid, &l.wall, &l.off, &l.err, &l.take, &k, &l.auth); n == 7 {
				l.known = k == 1
				lines[sp.Name] = append(lines[sp.Name], l)
			}
		}
	}
	// takeover: the largest bound the station name stated, as the
	// authority, on the estimate it continued the timeline with, between
	// two instants.
	takeover := func(name string, from, to int64) (bound int64) {
		for _, l := range lines[name] {
			if l.wall >= from && l.wall <= to && l.take > bound {
				bound = l.take
			}
		}
		return bound
	}
	for _, sp := range specs {
		ls := lines[sp.Name]
		for i := range ls {
			if !ls[i].known || ls[i].auth == "" {
				continue
			}
			// the next line of the same process that knows the timeline
			j := i + 1
			for j < len(ls) && ls[j].pid == ls[i].pid && !ls[j].known {
				j++
			}
			if j >= len(ls) || ls[j].pid != ls[i].pid || ls[j].auth == "" || ls[j].auth == ls[i].auth {
				continue
			}
			changes++
			window := int64(3 * time.Second)
			take := takeover(ls[j].auth, ls[i].wall-window, ls[j].wall+window)
			for k := j; k < len(ls) && ls[k].pid == ls[i].pid && ls[k].wall <= ls[j].wall+window; k++ {
				if !ls[k].known {
					continue
				}
				d := time.Duration(ls[k].off - ls[i].off)
				if d < 0 {
					d = -d
				}
				stated := time.Duration(max(ls[i].err, 0) + max(ls[k].err, 0) + take)
				if d-stated > worst {
					worst = d - stated
					where = fmt.Sprintf("%s (authority %s -> %s, %v after the change: moved %v, the estimates' stated bounds %v before, %v at the reading, %v at the takeover)",
						sp.Name, ls[i].auth, ls[j].auth, time.Duration(ls[k].wall-ls[j].wall), d,
						time.Duration(ls[i].err), time.Duration(ls[k].err), time.Duration(take))
				}
			}
		}
	}
	return worst, changes, where
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
	// Each station's machine clock is off by its own amount (the first
	// station's is the match timeline): the timeline survives a failover
	// only if the new authority continues it.
	skews := map[string]time.Duration{"arbiter": 0, "appeals": 3 * time.Second, "display": -2 * time.Second, "laptop": 7 * time.Second}
	var specs []childSpec
	var routes, urls []string
	for _, n := range []string{"arbiter", "appeals", "display"} {
		cp := freePort(t)
		specs = append(specs, childSpec{Name: n, DB: filepath.Join(dir, n+".db"), Dir: filepath.Join(dir, n+"-js"),
			Listen: fmt.Sprintf("127.0.0.1:%d", freePort(t)), ClientPort: cp, First: n == "arbiter",
			Skew: skews[n], ClockFile: filepath.Join(dir, n+".clock")})
		routes = append(routes, specs[len(specs)-1].Listen)
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", cp))
	}
	newRecord(t, specs[0].DB)
	specs = append(specs, childSpec{Name: "laptop", DB: filepath.Join(dir, "laptop.db"), Dial: urls, Skew: skews["laptop"], ClockFile: filepath.Join(dir, "laptop.clock")})
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
	// The authority is the station that answered the last command (a
	// station that has just restarted may still beat as the authority its
	// stale record names).
	authority := ""
	var stalls []time.Duration
	Trace = t.Logf
	defer func() { Trace = nil }()

	type acked struct {
		id  string
		seq uint64
		san string
	}
	var done []acked
	// The operator's connection stamps a command as the laptop's command
	// line does: on its estimate of the match timeline from the
	// authority's time answers, stating that estimate's uncertainty, and
	// never waiting for an authority that may be gone (the machine's clock
	// is the timeline only until a new authority continues it within the
	// bound of its own estimate).
	var samples Samples
	stampNow := func() (time.Time, time.Duration) {
		if x, ok := AskTime(nc, SubjectTime, time.Now, 250*time.Millisecond); ok {
			samples.Add(x)
		}
		best, u, ok := samples.Best()
		if !ok {
			return time.Now(), 0
		}
		return time.Now().Add(best.Offset), u
	}
	send := func(role string, cmd match.Command) {
		r := req(role, cmd)
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		t0 := time.Now()
		var u time.Duration
		r.At, u = stampNow()
		r.RTT = int64(2 * u)
		rep, err := Submit(ctx, nc, r, nil, time.Second)
		if err != nil || rep.Error != "" {
			t.Fatalf("%s: %v %s (answered by %q, connected to %s)", r.Command, err, rep.Error, rep.By, nc.ConnectedUrl())
		}
		authority = rep.By
		if d := time.Since(t0); d > time.Second {
			t.Logf("%s committed as %d after %v", r.Command, rep.Seq, d)
		}
		if m, ok := cmd.(match.Move); ok {
			done = append(done, acked{r.ID, rep.Seq, m.Input})
		}
	}
	send("arbiter", match.GameStart{Game: 1})
	// Every station knows the match timeline before the first failover.
	waitFor(t, 60*time.Second, "a station does not know the match timeline", func() bool {
		for _, sp := range specs {
			b, _ := os.ReadFile(sp.ClockFile)
			if !strings.Contains(string(b), " 1 arbiter\n") {
				return false
			}
		}
		return true
	})
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	rng := rand.New(rand.NewSource(1))
	ply := 0
	move := func() {
		role := "white"
		if ply%2 == 1 {
			role = "operator"
		}
		send(role, match.Move{Input: moves[ply%4]})
		ply++
	}
	for k, s := 0, 0; k < kills || s < stops; {
		move()
		i := rng.Intn(len(procs))
		if short && k == 0 || stallOnly {
			for j, sp := range specs {
				if sp.Name == authority {
					i = j
				}
			}
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
		wasAuthority := authority == specs[i].Name
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
	// Every replica verifies, to one head. The stations still run, so a
	// holder may append a claim meanwhile (one thawed from its freeze that
	// found the authority silent): the replicas are compared again until
	// they hold the same events; a replica that does not verify fails at
	// once.
	var want, differ, logged string
	waitFor(t, 60*time.Second, "the replicas do not verify to one head", func() bool {
		want, differ = verifyHead(t, laptopDB), ""
		for _, sp := range specs {
			db, err := store.OpenReadOnly(context.Background(), sp.DB)
			if err != nil {
				t.Fatal(err)
			}
			r, err := db.Verify(context.Background(), "")
			db.Close()
			if err != nil || !r.OK {
				t.Fatalf("%s: %v %+v", sp.Name, err, r)
			}
			if r.Head != want && differ == "" {
				differ = fmt.Sprintf("%s: %+v, want head %s", sp.Name, r, want)
			}
		}
		if differ != "" && differ != logged {
			t.Logf("the replicas differ: %s", differ)
			logged = differ
		}
		return differ == ""
	})
	for _, p := range procs {
		p.Process.Signal(syscall.SIGTERM)
		p.Wait()
	}
	// The official clocks on the stations that survived a failover did not
	// jump by more than 50 ms beyond the error bounds the stations stated
	// for their estimates (milliseconds on a quiet machine).
	worst, changes, where := clockJumps(t, specs)
	t.Logf("clocks: %d changes of authority seen by surviving stations, largest move of a timeline within 3 s after one beyond the stated bounds %v at %s", changes, worst, where)
	if changes == 0 {
		t.Fatal("no surviving station saw the authority change: the clock check checked nothing")
	}
	if worst > 50*time.Millisecond {
		t.Fatalf("the match timeline moved %v beyond the stated error bounds across a failover at %s", worst, where)
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
