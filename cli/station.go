//go:build !nostation

package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/match"
	"arbiter/service"
	"arbiter/station"
)

// The station commands (docs/stations.md). A station's record FILE has a
// description beside it, FILE.station.json, and the engine's store in
// FILE.station/; the running station writes FILE.station.status.json
// several times a second for 'station status'.
func init() {
	register(&command{name: "station serve", roles: rolesRead, usage: "station serve --listen HOST:PORT [--name NAME] [--epoch]",
		summary: "Run this station headless until killed; on a record with no stations, make it the match's first record holder and its authority.", run: runStationServe})
	register(&command{name: "station invite", roles: rolesArbiter, usage: "station invite --role organiser|display|operator|mirror --name NAME -o INVITE [--operator-key FILE]",
		summary: "Write an invitation for another station.", run: runStationInvite})
	register(&command{name: "station join", roles: rolesRead, usage: "station join INVITE [--listen HOST:PORT]",
		summary: "Copy the match's record into --db NEWFILE and serve as the invited station until killed.", run: runStationJoin})
	register(&command{name: "station claim", roles: rolesArbiter, usage: "station claim [--epoch]",
		summary: "Make this record holder the match's authority (the arbiter hands authority back after a failover).", run: runStationClaim})
	register(&command{name: "station status", roles: rolesRead, usage: "station status [--json]",
		summary: "Show this station: the authority, the members, the record's head and the clock offset.", run: runStationStatus})
}

// stationFile and invitation are the service's (shared with the console).
type (
	stationFile = service.StationFile
	invitation  = service.Invitation
)

func stationDir(db string) string { return db + ".station" }

func credsPath(db string) string { return filepath.Join(stationDir(db), "credentials.json") }

func caKeyPath(db string) string { return filepath.Join(stationDir(db), "ca-key.pem") }

func readCreds(db string) (station.Credentials, error) { return service.ReadStationCreds(db) }

// newMatchCA makes the match's CA and the first station's credentials.
func newMatchCA(ctx context.Context, db, name string) error {
	title := matchTitle(ctx, db)
	caCert, caKey, err := station.NewCA(title)
	if err != nil {
		return err
	}
	creds, err := station.Issue(caCert, caKey, name, "organiser")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(stationDir(db), 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(caKeyPath(db), caKey, 0o600); err != nil {
		return err
	}
	return writeJSONFile(credsPath(db), creds)
}

func matchTitle(ctx context.Context, path string) string { return service.MatchTitle(ctx, path) }

func checkRecord(ctx context.Context, db string) error { return service.CheckRecord(ctx, db) }

func stationPath(db string) string { return service.StationPath(db) }

func readStation(db string) (*stationFile, bool, error) { return service.ReadStation(db) }

func writeJSONFile(path string, v any) error { return service.WriteJSONFile(path, v) }

// IsStation reports whether the record at db belongs to a station.
func IsStation(db string) bool { return service.IsStation(db) }

func stationCtx(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

func runStationServe(r *runner, a *args) error {
	listen, _ := a.take("listen")
	name, _ := a.take("name")
	epoch := a.bool("epoch")
	if err := a.done("station serve", 0); err != nil {
		return err
	}
	if _, err := os.Stat(r.g.DB); err != nil {
		return fmt.Errorf("there is no record at %s: create the match first with 'arbiter match new', or join with 'station join'", r.g.DB)
	}
	// One station per record: the lock is taken before anything is
	// written, and the station's description read under it.
	lock, err := service.LockStation(r.g.DB)
	if err != nil {
		return err
	}
	defer lock.Release()
	sf, ok, err := readStation(r.g.DB)
	if err != nil {
		return err
	}
	if epoch {
		// The survivor of two record holders whose engine cannot start
		// without the other: the arbiter starts the new epoch as it starts.
		if !ok || !station.Holder(sf.Role) {
			return fmt.Errorf("%s is not a record holder's record: only a record holder starts a new epoch", r.g.DB)
		}
		if err := checkArbiterPIN(r.ctx, r.g.DB, r.g.PIN); err != nil {
			return err
		}
		return serveStationFrom(r, sf, true, lock)
	}
	if !ok {
		if listen == "" {
			return fmt.Errorf("station serve needs --listen HOST:PORT, the address other stations reach")
		}
		if name == "" {
			name = "arbiter"
		}
		sf = &stationFile{Name: name, Role: "organiser", Listen: listen, First: true}
		if err := newMatchCA(r.ctx, r.g.DB, name); err != nil {
			return err
		}
		if creds, err := readCreds(r.g.DB); err == nil {
			// the CA's anchor outside the record (branch hanchor): the
			// record takes its CA from itself, so a record re-made under a
			// CA of a forger's own verifies unless checked against this;
			// said once the station serves (a record it refuses says
			// only why)
			r.caNote = fmt.Sprintf("arbiter: the match's CA: %s\n(write it down beside the match id and the arbiter's key: 'arbiter verify --ca CA' checks that the record's stations were certified by this CA; FILE.station/credentials.json and every invitation hold its certificate too)\n", match.HexBlocks(caInFile(creds.CA)))
		}
	}
	if listen != "" {
		sf.Listen = listen
	}
	return serveStationFrom(r, sf, false, lock)
}

// checkArbiterPIN checks the arbiter's passphrase against the record.
func checkArbiterPIN(ctx context.Context, path, pin string) error {
	app, err := service.OpenReadOnly(ctx, path)
	if err != nil {
		return err
	}
	defer app.DB().Close()
	return service.CheckArbiterPIN(app, pin, "a new epoch needs the arbiter's PIN: give --pin", "wrong arbiter PIN for a new epoch")
}

// serveStationFrom runs the station sf until killed (service.Serve),
// holding the record's station lock.
func serveStationFrom(r *runner, sf *stationFile, epoch bool, lock *service.StationLock) error {
	ctx, cancel := stationCtx(r.ctx)
	defer cancel()
	logf := func(f string, a ...any) { fmt.Fprintf(r.env.Stderr, "arbiter: "+f+"\n", a...) }
	started := func(sf *stationFile, holders int) {
		if !r.inPlay {
			fmt.Fprintf(r.env.Stderr, "arbiter: station %s (%s) serves the record %s with %d record holder(s); stop it with Ctrl+C\n", sf.Name, sf.Role, r.g.DB, holders)
			fmt.Fprint(r.env.Stderr, r.caNote)
		}
	}
	return service.Serve(ctx, r.g.DB, sf, service.ServeOptions{Epoch: epoch, Logf: logf, Started: started, Lock: lock, Now: stationClock})
}

// stationClock is the time source of the stations this process serves and
// of the commands it forwards; nil: the defaults (the station's
// timesource.New, the command's time.Now). A test sets it to one
// clock it moves itself.
var stationClock func() time.Time

// forward sends a write command given with --db of a station to the
// authority and waits until this station's record holds it
// (service.Forward, which the console calls too).
func forward(ctx context.Context, env Env, g Global, words, argv []string) error {
	r := &runner{ctx: ctx, env: env, g: g}
	defer r.close()
	return r.sendWords(words, g, asGiven(argv), func(c service.StationCommand) (service.StationResult, error) {
		c.Now = stationClock
		c.Notice = func(s string) { fmt.Fprintln(env.Stderr, "arbiter: "+s) }
		return service.Forward(ctx, g.DB, c)
	})
}

// sendWords turns a writing command's words into its value, as on one
// machine (the command's parse), has send give it to the authority, and
// tells what it did once this station's record holds it, as the command
// tells it in a script (told): the station's record is the authority's.
// A refusal of the match comes with its code and is said in the command
// line's words.
func (r *runner) sendWords(words []string, g Global, roleGiven bool, send func(service.StationCommand) (service.StationResult, error)) error {
	c, cargs, err := lookup(words)
	if err != nil {
		return err
	}
	a, err := parseArgs(cargs, boolFlags...)
	if err != nil {
		return fmt.Errorf("%s: %v", c.name, err)
	}
	if a.bool("help") || a.bool("h") {
		r.out("usage: arbiter %s\n%s\nGiven by: %s\n", c.usage, c.summary, c.roles)
		return nil
	}
	cmd, err := c.parse(r, a)
	if err != nil || cmd == nil {
		return err
	}
	res, err := send(service.StationCommand{Cmd: cmd, G: g, RoleGiven: roleGiven})
	var refused *service.Refused
	if errors.As(err, &refused) && refused.Refusal != nil {
		return refused.Refusal // the match's refusal, in the command line's words
	}
	if err != nil {
		return err
	}
	if err := r.openReplica(); err != nil {
		return err
	}
	if st := r.app.State(); res.Role == match.RoleArbiter && st.Match != nil && !st.Protected() && !(r.inPlay && r.warned) {
		// the authority's warning, on standard error as on one machine
		// (a script says it once)
		r.warned = true
		fmt.Fprintf(r.env.Stderr, "arbiter: warning: %s\n", Sentence(match.UnprotectedWarning()))
	}
	if c.told != nil {
		// what the command did, in the words it has on one machine, from
		// the events this station's record holds (a script's lines say
		// what a script says on one machine)
		c.told(r, res.Result)
	}
	return nil
}

// openReplica opens this station's record read-only for what a command
// sent tells, or brings it up to date.
func (r *runner) openReplica() error {
	if r.app != nil {
		return r.app.Refresh(r.ctx)
	}
	app, err := service.OpenReadOnly(r.ctx, r.g.DB)
	if err != nil {
		return err
	}
	r.db, r.app = app.DB(), app
	return nil
}

// stationScript connects a script run on a station's record to the
// authority: each writing line is sent as a command given at start +
// OFFSET on the match timeline (start: --at, or now on the authority's
// timeline), the next line only once this station's record holds it.
func stationScript(r *runner) (send func([]string, Global, bool) error, start time.Time, done func(), err error) {
	now := stationClock
	if now == nil {
		now = time.Now
	}
	l, err := service.Dial(r.ctx, r.g.DB, now)
	if err != nil {
		return nil, time.Time{}, nil, err
	}
	start = r.g.At
	if !r.g.AtSet {
		off, _, ok := l.Offset()
		if !ok {
			fmt.Fprintln(r.env.Stderr, "arbiter: no authority answers yet; the script waits for one")
		}
		start = now().Add(off).UTC()
	}
	send = func(words []string, g Global, roleGiven bool) error {
		r.close() // the script's lines read the station's record as it is now
		return r.sendWords(words, g, roleGiven, func(c service.StationCommand) (service.StationResult, error) { return l.Send(r.ctx, c) })
	}
	return send, start, l.Close, nil
}

func operatorKeyPath(db string) string { return service.OperatorKeyPath(db) }

func runStationInvite(r *runner, a *args) error {
	role, _ := a.take("role")
	name, _ := a.take("name")
	out, _ := a.take("o")
	opKey, _ := a.take("operator-key")
	if err := a.done("station invite", 0); err != nil {
		return err
	}
	inv, err := service.PrepareInvitation(r.ctx, r.g.DB, role, name, out)
	if err != nil {
		return err
	}
	if role == "operator" {
		if inv.OperatorKey, err = operatorCredential(r, opKey); err != nil {
			return err
		}
	} else if opKey != "" {
		return fmt.Errorf("--operator-key belongs to an invitation with --role operator")
	}
	if err := service.WriteInvitation(r.g.DB, out, *inv); err != nil {
		return err
	}
	r.tell("invitation of the %s station %s written to %s: on that machine give 'arbiter --db NEWFILE station join %s'", role, name, out, filepath.Base(out))
	return nil
}

// operatorCredential is the operator's credential an operator's invitation
// carries (service.OperatorCredential).
func operatorCredential(r *runner, keyFile string) (string, error) {
	g := r.g
	g.Role = match.RoleArbiter
	return service.OperatorCredential(r.ctx, r.g.DB, g, keyFile, func(s string) { fmt.Fprintln(r.env.Stderr, "arbiter: "+s) })
}

func runStationJoin(r *runner, a *args) error {
	listen, _ := a.take("listen")
	if err := a.done("station join", 1); err != nil {
		return err
	}
	if len(a.pos) != 1 {
		return fmt.Errorf("station join needs the invitation file: station join INVITE")
	}
	if err := checkRecord(r.ctx, r.g.DB); err != nil { // a damaged or foreign NEWFILE is said first
		return err
	}
	inv, err := service.ReadInvitation(a.pos[0])
	if err != nil {
		return err
	}
	if station.Holder(inv.Role) && listen == "" {
		return fmt.Errorf("a record holder needs --listen HOST:PORT, the address the other record holders reach")
	}
	if _, ok, _ := readStation(r.g.DB); !ok {
		if _, err := os.Stat(r.g.DB); err == nil {
			return fmt.Errorf("%s exists already: give a new file with --db for the copy of the record", r.g.DB)
		}
	}
	// An invitation of another match, or no record holder at its
	// contacts, is said within service.JoinDeadline, before anything is
	// written.
	if err := service.CheckInvitationReaches(r.ctx, a.pos[0], inv); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(r.g.DB), 0o755); err != nil {
		return err
	}
	// One station per record: a second join (or a serve) on NEWFILE is
	// refused before it writes anything.
	lock, err := service.LockStation(r.g.DB)
	if err != nil {
		return err
	}
	defer lock.Release()
	sf := &stationFile{Name: inv.Name, Role: inv.Role, Listen: listen, Contacts: inv.Contacts, Cluster: inv.Cluster}
	if _, err := inv.Credentials.TLSConfig(); err != nil {
		return fmt.Errorf("%s carries no usable certificate: ask the arbiter for a new invitation", a.pos[0])
	}
	if err := os.MkdirAll(stationDir(r.g.DB), 0o700); err != nil {
		return err
	}
	if err := writeJSONFile(credsPath(r.g.DB), inv.Credentials); err != nil {
		return err
	}
	if inv.OperatorKey != "" {
		if _, err := match.ParseKeyFile([]byte(inv.OperatorKey)); err != nil {
			return fmt.Errorf("%s carries an unreadable operator's credential: ask the arbiter for a new invitation", a.pos[0])
		}
		if err := os.WriteFile(operatorKeyPath(r.g.DB), []byte(inv.OperatorKey+"\n"), 0o600); err != nil {
			return err
		}
	}
	if err := writeJSONFile(stationPath(r.g.DB), sf); err != nil {
		return err
	}
	if station.Holder(inv.Role) {
		sf.Routes = inv.Routes
		if err := joinAsHolder(r.ctx, sf, *inv); err != nil {
			return err
		}
		if err := writeJSONFile(stationPath(r.g.DB), sf); err != nil {
			return err
		}
	}
	return serveStationFrom(r, sf, false, lock)
}

// joinAsHolder records the new record holder in the match (through the
// authority, over the invitation's contacts), so that the holders form a
// cluster with it.
func joinAsHolder(ctx context.Context, sf *stationFile, inv invitation) error {
	tlsc, err := inv.Credentials.TLSConfig()
	if err != nil {
		return err
	}
	nc, err := nats.Connect(strings.Join(inv.Contacts, ","), nats.Name(sf.Name+"-join"), nats.Timeout(2*time.Second), nats.Secure(tlsc))
	if err != nil {
		return fmt.Errorf("no record holder answers at %s: start the inviting station and join again", strings.Join(inv.Contacts, ", "))
	}
	defer nc.Close()
	var idb [8]byte
	rand.Read(idb[:])
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	rep, err := station.Submit(ctx, nc, station.Request{ID: "member/" + sf.Name + "/" + hex.EncodeToString(idb[:]), From: sf.Name,
		Role: "arbiter", At: time.Now(), Member: &station.MemberInfo{Name: sf.Name, Role: sf.Role, Listen: sf.Listen}}, nil, 2*time.Second)
	if err == nil && rep.Error != "" {
		err = errors.New(rep.Error)
	}
	return err
}

func runStationClaim(r *runner, a *args) error {
	epoch := a.bool("epoch")
	if err := a.done("station claim", 0); err != nil {
		return err
	}
	if err := checkRecord(r.ctx, r.g.DB); err != nil {
		return err
	}
	sf, ok, err := readStation(r.g.DB)
	if err != nil {
		return err
	}
	if !ok || !station.Holder(sf.Role) || sf.ClientURL == "" {
		return fmt.Errorf("%s is not a record holder's record: only a record holder can be the authority", r.g.DB)
	}
	if r.g.Role != match.RoleArbiter {
		return fmt.Errorf("station claim must be given by the arbiter")
	}
	creds, err := readCreds(r.g.DB)
	if err != nil {
		return err
	}
	tlsc, err := creds.TLSConfig()
	if err != nil {
		return err
	}
	nc, err := nats.Connect(sf.ClientURL, nats.Name(sf.Name+"-claim"), nats.Timeout(2*time.Second), nats.Secure(tlsc))
	if err != nil {
		return fmt.Errorf("station %s is not running: start it with 'arbiter --db %s station serve' first", sf.Name, r.g.DB)
	}
	defer nc.Close()
	old := readEpoch(r.g.DB)
	body, _ := json.Marshal(map[string]any{"pin": r.g.PIN, "epoch": epoch})
	m, err := nc.Request(station.SubjectClaim+"."+sf.Name, body, 15*time.Second)
	if err != nil {
		return fmt.Errorf("station %s did not take authority within 15 s (%v): the stream may have no majority; look at 'station status'", sf.Name, err)
	}
	var rep station.Reply
	if err := json.Unmarshal(m.Data, &rep); err != nil {
		return fmt.Errorf("station %s gave an unreadable answer", sf.Name)
	}
	if rep.Error != "" {
		return errors.New(rep.Error)
	}
	if epoch {
		// The station restarts its engine alone in a new store and claims
		// the next epoch; its status file shows when it has.
		deadline := time.Now().Add(90 * time.Second)
		for {
			var st station.Status
			if b, err := os.ReadFile(r.g.DB + ".station.status.json"); err == nil && json.Unmarshal(b, &st) == nil &&
				st.Epoch > old && st.Authority == sf.Name && st.CanAppend {
				r.out("station %s is the match's only record holder and its authority in epoch %d, from event %d on\n", sf.Name, st.Epoch, st.Seq)
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("station %s did not start the new epoch within 90 s: look at its output and 'station status'", sf.Name)
			}
			time.Sleep(100 * time.Millisecond) // the station rewrites its status file every 250 ms
		}
	}
	r.out("station %s is the authority from event %d on\n", sf.Name, rep.Seq)
	return nil
}

// readEpoch is the epoch the station's status file shows (0: none).
func readEpoch(db string) int {
	var st struct {
		Epoch int `json:"epoch"`
	}
	if b, err := os.ReadFile(db + ".station.status.json"); err == nil {
		json.Unmarshal(b, &st)
	}
	return st.Epoch
}

func runStationStatus(r *runner, a *args) error {
	asJSON := a.bool("json")
	if err := a.done("station status", 0); err != nil {
		return err
	}
	if err := checkRecord(r.ctx, r.g.DB); err != nil {
		return err
	}
	st, running, err := service.ReadStationStatus(r.g.DB, time.Now())
	if err != nil {
		return err
	}
	if asJSON {
		out, _ := json.Marshal(st)
		r.out("%s\n", out)
		return nil
	}
	state := "running"
	if !running {
		state = "not running"
	}
	r.out("station %s (%s), %s; authority %s; event %d, head %s; offset %.1f ms ± %.1f ms\n",
		st.Station, st.Role, state, st.Authority, st.Seq, st.Head, st.OffsetMS, st.UncertaintyMS)
	for _, m := range st.Members {
		r.out("  %s (%s) up=%v lag=%d\n", m.Name, m.Role, m.Up, m.Lag)
	}
	if len(st.Stations) > 0 {
		r.out("stations heard (clients included):\n")
	}
	for _, s := range st.Stations {
		seen := "connected"
		switch {
		case s.Connected:
		case s.LastSeenNS == 0:
			seen = "not heard since this station started"
		default:
			seen = "last seen " + time.Unix(0, s.LastSeenNS).UTC().Format("2006-01-02T15:04:05Z")
		}
		line := fmt.Sprintf("  %s (%s) %s lag=%d", s.Name, s.Role, seen, s.Lag)
		if s.UncertaintyMS >= 0 {
			line += fmt.Sprintf(" clock±%.1fms", s.UncertaintyMS)
		}
		if s.Authority {
			line += " authority"
		}
		if s.Alarm != "" {
			line += " ALARM: " + s.Alarm
		}
		r.out("%s\n", line)
	}
	return nil
}
