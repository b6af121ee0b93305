//go:build !nostation

package cli

import (
	"bytes"
	"context"
	"crypto/ed25519"
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
	"arbiter/service/stations"
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
	stationFile = stations.StationFile
	invitation  = stations.Invitation
)

func stationDir(db string) string { return db + ".station" }

func credsPath(db string) string { return filepath.Join(stationDir(db), "credentials.json") }

func caKeyPath(db string) string { return filepath.Join(stationDir(db), "ca-key.pem") }

func readCreds(db string) (station.Credentials, error) { return stations.ReadStationCreds(db) }

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

func matchTitle(ctx context.Context, path string) string { return stations.MatchTitle(ctx, path) }

func checkRecord(ctx context.Context, db string) error { return stations.CheckRecord(ctx, db) }

func stationPath(db string) string { return stations.StationPath(db) }

func readStation(db string) (*stationFile, bool, error) { return stations.ReadStation(db) }

func writeJSONFile(path string, v any) error { return stations.WriteJSONFile(path, v) }

// IsStation reports whether the record at db belongs to a station.
func IsStation(db string) bool { return stations.IsStation(db) }

func stationCtx(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

func clientAddr(listen string) (string, int, error) { return stations.StationClientAddr(listen) }

func runStationServe(r *runner, a *args) error {
	listen, _ := a.take("listen")
	name, _ := a.take("name")
	epoch := a.bool("epoch")
	if err := a.done("station serve", 0); err != nil {
		return err
	}
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
		return serveStationEpoch(r, sf)
	}
	if !ok {
		if _, err := os.Stat(r.g.DB); err != nil {
			return fmt.Errorf("there is no record at %s: create the match first with 'arbiter match new', or join with 'station join'", r.g.DB)
		}
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
	}
	if listen != "" {
		sf.Listen = listen
	}
	return serveStation(r, sf)
}

// checkArbiterPIN checks the arbiter's passphrase against the record.
func checkArbiterPIN(ctx context.Context, path, pin string) error {
	db, err := service.OpenRecordReadOnly(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	app, err := match.Open(ctx, db)
	if err != nil {
		return err
	}
	if m := app.State().Match; m != nil && !m.CheckPIN(pin) {
		if pin == "" {
			return fmt.Errorf("a new epoch needs the arbiter's PIN: give --pin")
		}
		return fmt.Errorf("wrong arbiter PIN for a new epoch")
	}
	return nil
}

// serveStationEpoch serves sf starting a new epoch (station serve --epoch).
func serveStationEpoch(r *runner, sf *stationFile) error {
	db, err := service.OpenRecordReadOnly(r.ctx, r.g.DB)
	if err != nil {
		return err
	}
	rep, err := station.OpenReplica(r.ctx, db)
	db.Close()
	if err != nil {
		return err
	}
	next := rep.Epoch() + 1
	sf.Store, sf.Cluster, sf.Routes = fmt.Sprintf("epoch-%d", next), fmt.Sprintf("arbiter-e%d", next), nil
	if err := writeJSONFile(stationPath(r.g.DB), sf); err != nil {
		return err
	}
	return serveStationFrom(r, sf, true)
}

func serveStation(r *runner, sf *stationFile) error { return serveStationFrom(r, sf, false) }

func serveStationFrom(r *runner, sf *stationFile, epoch bool) error {
	ctx, cancel := stationCtx(r.ctx)
	defer cancel()
	db, err := service.OpenRecord(ctx, r.g.DB)
	if err != nil {
		return err
	}
	defer db.Close()
	creds, err := readCreds(r.g.DB)
	if err != nil {
		return err
	}
	tlsc, err := creds.TLSConfig()
	if err != nil {
		return err
	}
	logf := func(f string, a ...any) { fmt.Fprintf(r.env.Stderr, "arbiter: "+f+"\n", a...) }
	var offset *time.Duration // the match timeline, carried into a restart in this process
	for {
		cfg := station.Config{Name: sf.Name, Role: sf.Role, DB: db, Exec: stationExec, First: sf.First, Logf: logf, Epoch: epoch, Offset: offset}
		cfg.CheckClaim = func(pin string) error {
			app, err := match.Open(ctx, db)
			if err != nil {
				return err
			}
			if m := app.State().Match; m != nil && !m.CheckPIN(pin) {
				if pin == "" {
					return fmt.Errorf("taking authority needs the arbiter's PIN: give --pin")
				}
				return fmt.Errorf("wrong arbiter PIN for station claim")
			}
			return nil
		}
		routes := []string(nil)
		if station.Holder(sf.Role) {
			host, port, err := clientAddr(sf.Listen)
			if err != nil {
				return err
			}
			routes, err = holderRoutes(ctx, db, sf)
			if err != nil {
				return err
			}
			lone, cluster, cname := "lone", "cluster", "arbiter"
			if sf.Store != "" {
				lone, cluster = sf.Store, sf.Store+"-cluster"
			}
			if sf.Cluster != "" {
				cname = sf.Cluster
			}
			ec := &station.EngineConfig{Name: sf.Name, Dir: filepath.Join(stationDir(r.g.DB), lone), ClientHost: host, ClientPort: port, TLS: tlsc}
			if len(routes) >= 2 && !epoch {
				// Two or more record holders: a cluster, in a store of its own
				// (a lone engine's stream cannot become a clustered one; the
				// record seeds the new stream).
				ec.Dir = filepath.Join(stationDir(r.g.DB), cluster)
				ec.Cluster = &station.ClusterConfig{Name: cname, Listen: sf.Listen, Routes: routes, Replicas: min(len(routes), 3)}
			}
			cfg.Engine = ec
		} else {
			cfg.Dial, cfg.TLS = contactsOf(ctx, r.g.DB, sf), tlsc
		}
		s, err := station.Start(ctx, cfg)
		if err != nil {
			return err
		}
		if s.Engine() != nil {
			sf.ClientURL = s.Engine().ClientURL()
		}
		if err := writeJSONFile(stationPath(r.g.DB), sf); err != nil {
			s.Stop()
			return err
		}
		if sf.First && station.Holder(sf.Role) {
			if _, ok := s.Replica().Members()[sf.Name]; !ok {
				if err := submitMember(ctx, s, sf); err != nil {
					s.Stop()
					return err
				}
			}
		}
		if !r.inPlay {
			fmt.Fprintf(r.env.Stderr, "arbiter: station %s (%s) serves the record %s with %d record holder(s); stop it with Ctrl+C\n", sf.Name, sf.Role, r.g.DB, max(len(routes), 1))
		}
		engines := len(routes)
		if epoch {
			engines = 1 // alone from the epoch's claim on: a holder joining makes it a cluster again
		}
		restart, err := watchStation(ctx, r.g.DB, s, engines)
		if epoch {
			epoch = false
			routes = nil
		}
		next := s.Replica().Epoch() + 1
		if off, u := s.Offset(); u >= 0 {
			offset = &off
		}
		s.Stop()
		switch {
		case restart == restartEpoch:
			// The arbiter's new epoch: a lone engine in a new store; the
			// other holders rejoin only by a new invitation.
			epoch = true
			sf.Store, sf.Cluster, sf.Routes = fmt.Sprintf("epoch-%d", next), fmt.Sprintf("arbiter-e%d", next), nil
			if err := writeJSONFile(stationPath(r.g.DB), sf); err != nil {
				return err
			}
			logf("station %s: the arbiter starts epoch %d here", sf.Name, next)
		case restart == restartCluster:
			logf("station %s: a record holder joined; the engine restarts as a cluster", sf.Name)
		default:
			return err
		}
	}
}

func holderRoutes(ctx context.Context, db *service.DB, sf *stationFile) ([]string, error) {
	return stations.HolderRoutes(ctx, db, sf)
}

func contactsOf(ctx context.Context, db string, sf *stationFile) []string {
	return stations.StationContacts(ctx, db, sf)
}

// Why watchStation returns.
const (
	restartNone    = iota
	restartCluster // a lone record holder restarts as a cluster
	restartEpoch   // the arbiter asked for a new epoch (station claim --epoch)
)

// watchStation writes the status file until ctx ends or the engine must
// restart (see the restart constants).
func watchStation(ctx context.Context, db string, s *station.Station, routes int) (int, error) {
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		st := s.Status()
		writeJSONFile(db+".station.status.json", struct {
			station.Status
			WrittenNS int64 `json:"written_ns"`
		}{st, time.Now().UnixNano()})
		if s.Engine() != nil && routes < 2 && len(s.Replica().Holders()) >= 2 {
			return restartCluster, nil
		}
		select {
		case <-ctx.Done():
			return restartNone, nil
		case <-s.EpochWanted():
			return restartEpoch, nil
		case <-t.C:
		}
	}
}

// submitMember records a station joining (station.member) through the authority.
func submitMember(ctx context.Context, s *station.Station, sf *stationFile) error {
	var idb [8]byte
	rand.Read(idb[:])
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	rep, err := s.Submit(ctx, station.Request{ID: "member/" + sf.Name + "/" + hex.EncodeToString(idb[:]), Role: "arbiter",
		Args: []string{"station", "member", sf.Name, sf.Role, sf.Listen}})
	if err == nil && rep.Error != "" {
		err = errors.New(rep.Error)
	}
	return err
}

// stationExec runs a forwarded command on the authority's record through
// the same commands as the command line.
func stationExec(ctx context.Context, app *match.App, req station.Request) (string, error) {
	var out bytes.Buffer
	if len(req.Args) == 5 && req.Args[0] == "station" && req.Args[1] == "member" {
		return "", appendMember(ctx, app, req)
	}
	role, err := parseRole(req.Role)
	if err != nil {
		return "", err
	}
	c, cargs, err := lookup(req.Args)
	if err != nil {
		return "", err
	}
	if !c.writes || c.name == "play" || strings.HasPrefix(c.name, "station ") {
		return "", fmt.Errorf("%s is not a command the authority runs for another station", c.name)
	}
	r := &runner{ctx: ctx, env: Env{Stdout: &out, Stderr: &out, Getenv: os.Getenv, Now: time.Now},
		g: Global{DB: app.DB().Path(), At: time.Unix(0, req.At).UTC(), AtSet: true, Role: role, PIN: req.PIN, Secret: req.Secret,
			Stamp: req.Stamp},
		app: app, db: app.DB(), inPlay: true}
	if req.Key != "" {
		if r.key, err = keyOf(req.Key); err != nil {
			return "", err
		}
	}
	if req.NewKey != "" {
		// credential add --key-file -: the key came with the request.
		cargs = append([]string(nil), cargs...) // req.Args stays as sent (a retry runs it again)
		k, err := keyOf(req.NewKey)
		if err != nil {
			return "", err
		}
		dir, err := os.MkdirTemp("", "arbiter-key-")
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "key")
		if err := os.WriteFile(path, []byte(match.KeyFileHeader+" "+hex.EncodeToString(k.Seed())+"\n"), 0o600); err != nil {
			return "", err
		}
		for i, w := range cargs {
			if w == "-" && i > 0 && cargs[i-1] == "--key-file" {
				cargs[i] = path
			} else if w == "--key-file=-" {
				cargs[i] = "--key-file=" + path
			}
		}
	}
	err = r.exec(c, cargs)
	return out.String(), inWords(err)
}

// appendMember records that a station joined. Only record holders'
// connections may send it (arb.cmd.arbiter).
func appendMember(ctx context.Context, app *match.App, req station.Request) error {
	if req.Role != "arbiter" {
		return fmt.Errorf("only a record holder records a station joining")
	}
	at := time.Unix(0, req.At).UTC()
	if last := app.State().LastAt; at.Before(last) {
		at = last
	}
	payload, _ := json.Marshal(station.MemberInfo{Name: req.Args[2], Role: req.Args[3], Listen: req.Args[4]})
	_, err := app.DB().Update(ctx, func(tx *service.Tx) error {
		e, err := tx.Append(service.Event{Match: 1, At: at, Role: "system", Actor: "Arbiter", Kind: station.KindMember, Payload: payload})
		if err != nil {
			return err
		}
		return app.SignSystemEvent(tx, e)
	})
	if err == nil {
		err = app.Refresh(ctx)
	}
	return err
}

// forward sends a write command given with --db of a station to the
// authority and waits until this station's record holds it.
func forward(ctx context.Context, env Env, g Global, words, argv []string) error {
	sf, _, err := readStation(g.DB)
	if err != nil {
		return err
	}
	asGiven := false
	for _, a := range argv {
		asGiven = asGiven || a == "--as" || strings.HasPrefix(a, "--as=")
	}
	if !asGiven && sf.Role == "operator" {
		g.Role = match.RoleOperator // the operator's laptop speaks for the operator
	}
	pressed := time.Now() // the command happens now; stamped on the match timeline below
	urls := contactsOf(ctx, g.DB, sf)
	if !hasRole(station.CommandRoles(sf.Role), string(g.Role)) {
		if sf.Role == "mirror" {
			return fmt.Errorf("the mirror terminal only reads the record: give commands at another station")
		}
		return fmt.Errorf("the %s's station gives only the operator's commands: use --as operator", sf.Role)
	}
	creds, err := readCreds(g.DB)
	if err != nil {
		return err
	}
	tlsc, err := creds.TLSConfig()
	if err != nil {
		return err
	}
	nc, err := nats.Connect(strings.Join(urls, ","), nats.Name(sf.Name+"-cli"), nats.Timeout(2*time.Second), nats.Secure(tlsc))
	if err != nil {
		return fmt.Errorf("station %s is not running: start it with 'arbiter --db %s station serve' and give the command again", sf.Name, g.DB)
	}
	defer nc.Close()
	at, rtt := g.At, time.Duration(0)
	if !g.AtSet {
		off, r, ok := estimateOffset(nc)
		if !ok {
			fmt.Fprintln(env.Stderr, "arbiter: no authority answers yet; the command waits for one")
		}
		at, rtt = pressed.Add(off).UTC(), r
	}
	var idb [12]byte
	rand.Read(idb[:])
	req := station.Request{ID: sf.Name + "/" + hex.EncodeToString(idb[:]), From: sf.Name, Role: string(g.Role), PIN: g.PIN,
		Secret: g.Secret, At: at.UnixNano(), RTT: int64(rtt)}
	if err := credentialOf(g, sf, &req); err != nil {
		return err
	}
	if req.Args, req.NewKey, err = inlineKeyFile(words); err != nil {
		return err
	}
	rep, err := station.Submit(ctx, nc, req, nil, 2*time.Second)
	if err != nil {
		return err
	}
	if rep.Output != "" {
		fmt.Fprint(env.Stdout, rep.Output)
	}
	if rep.Error != "" {
		return errors.New(rep.Error)
	}
	// Wait until this station's record holds the command.
	db, err := service.OpenRecordReadOnly(ctx, g.DB)
	if err != nil && !errors.Is(err, service.ErrEmpty) {
		return err
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if db == nil {
			db, _ = service.OpenRecordReadOnly(ctx, g.DB)
		}
		if db != nil {
			if seq, _, err := db.Head(ctx); err == nil && uint64(seq) >= rep.Seq {
				db.Close()
				return nil
			}
		}
		if time.Now().After(deadline) {
			if db != nil {
				db.Close()
			}
			return fmt.Errorf("the command is committed as event %d but this station's record has not caught up within 30 s: check 'station status'", rep.Seq)
		}
		time.Sleep(20 * time.Millisecond) // waiting for another process's commit
	}
}

func operatorKeyPath(db string) string { return filepath.Join(stationDir(db), "operator.key") }

// credentialOf puts the role's credential into the request: the key file
// given with --key-file, or on the operator's laptop, when the operator's
// command is given with no credential, the operator's key the invitation
// brought (FILE.station/operator.key).
func credentialOf(g Global, sf *stationFile, req *station.Request) error {
	path := g.KeyFile
	if path == "" && sf.Role == "operator" && g.Role == match.RoleOperator && g.PIN == "" && g.Secret == "" {
		if _, err := os.Stat(operatorKeyPath(g.DB)); err == nil {
			path = operatorKeyPath(g.DB)
		}
	}
	if path == "" {
		return nil
	}
	k, err := readKeyFile(path)
	if err != nil {
		return err
	}
	req.Key = hex.EncodeToString(k.Seed())
	return nil
}

// inlineKeyFile reads the key file a forwarded 'credential add --key-file
// FILE' names, here where the command is given; FILE becomes "-".
func inlineKeyFile(words []string) ([]string, string, error) {
	if len(words) < 2 || words[0] != "credential" || words[1] != "add" {
		return words, "", nil
	}
	out := append([]string(nil), words...)
	for i, w := range out {
		path := ""
		switch {
		case w == "--key-file" && i+1 < len(out):
			path, out[i+1] = out[i+1], "-"
		case strings.HasPrefix(w, "--key-file="):
			path, out[i] = strings.TrimPrefix(w, "--key-file="), "--key-file=-"
		default:
			continue
		}
		k, err := readKeyFile(path)
		if err != nil {
			return nil, "", err
		}
		return out, hex.EncodeToString(k.Seed()), nil
	}
	return out, "", nil
}

// keyOf is the key of a request's hex seed.
func keyOf(seedHex string) (ed25519.PrivateKey, error) {
	b, err := hex.DecodeString(seedHex)
	if err != nil || len(b) != ed25519.SeedSize {
		return nil, fmt.Errorf("the command came with an unreadable key: give it again")
	}
	return ed25519.NewKeyFromSeed(b), nil
}

func hasRole(roles []string, r string) bool {
	for _, x := range roles {
		if x == r {
			return true
		}
	}
	return false
}

// estimateOffset asks the authority for its timeline a few times and keeps
// the answer with the shortest round trip.
func estimateOffset(nc *nats.Conn) (time.Duration, time.Duration, bool) {
	best, bestRTT, ok := time.Duration(0), time.Duration(0), false
	for i := 0; i < 4; i++ {
		t0 := time.Now()
		m, err := nc.Request(station.SubjectTime, nil, time.Second)
		t3 := time.Now()
		if err != nil {
			continue
		}
		var b struct {
			NowNS int64 `json:"now_ns"`
		}
		if json.Unmarshal(m.Data, &b) != nil {
			continue
		}
		rtt := t3.Sub(t0)
		if !ok || rtt < bestRTT {
			best, bestRTT, ok = time.Unix(0, b.NowNS).Sub(t0.Add(rtt/2)), rtt, true
		}
	}
	return best, bestRTT, ok
}

func runStationInvite(r *runner, a *args) error {
	role, _ := a.take("role")
	name, _ := a.take("name")
	out, _ := a.take("o")
	opKey, _ := a.take("operator-key")
	if err := a.done("station invite", 0); err != nil {
		return err
	}
	inv, err := stations.PrepareInvitation(r.ctx, r.g.DB, role, name, out)
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
	return writeJSONFile(out, *inv)
}

// operatorCredential is the operator's credential an operator's invitation
// carries: on a protected match with no operator credential, a new key,
// registered through the authority ('credential add --role operator', the
// arbiter's command, so it needs his --pin); with one, the key file given
// with --operator-key (it must be that credential). An unprotected match
// needs none.
func operatorCredential(r *runner, keyFile string) (string, error) {
	db, err := service.OpenRecordReadOnly(r.ctx, r.g.DB)
	if err != nil {
		return "", err
	}
	app, err := match.Open(r.ctx, db)
	if err != nil {
		db.Close()
		return "", err
	}
	st := app.State()
	db.Close()
	if st.ArbiterCredential() == nil {
		if keyFile != "" {
			return "", fmt.Errorf("the match is unprotected, so the operator needs no credential: leave out --operator-key")
		}
		return "", nil
	}
	if have := st.Credential("operator"); have != nil {
		if keyFile == "" {
			return "", fmt.Errorf("the match has an operator's credential already: give its key file with --operator-key FILE so that the invitation carries it")
		}
		k, err := readKeyFile(keyFile)
		if err != nil {
			return "", err
		}
		if hex.EncodeToString(k.Public().(ed25519.PublicKey)) != have.PublicKey {
			return "", fmt.Errorf("%s is not the operator's credential of this match: give the key file the operator's credential was made from", keyFile)
		}
		return match.KeyFileHeader + " " + hex.EncodeToString(k.Seed()), nil
	}
	if keyFile != "" {
		return "", fmt.Errorf("the match has no operator's credential yet; leave out --operator-key and the invitation makes one")
	}
	b, err := match.NewKeyFile()
	if err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(stationDir(r.g.DB), "operator-*.key")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return "", err
	}
	tmp.Close()
	g := r.g
	g.Role = match.RoleArbiter
	if err := forward(r.ctx, r.env, g, []string{"credential", "add", "--role", "operator", "--key-file", tmp.Name()}, nil); err != nil {
		return "", fmt.Errorf("the operator's credential could not be made: %v", err)
	}
	return strings.TrimSpace(string(b)), nil
}

func runStationJoin(r *runner, a *args) error {
	listen, _ := a.take("listen")
	if err := a.done("station join", 1); err != nil {
		return err
	}
	if len(a.pos) != 1 {
		return fmt.Errorf("station join needs the invitation file: station join INVITE")
	}
	b, err := os.ReadFile(a.pos[0])
	if err != nil {
		return fmt.Errorf("cannot read the invitation %s: %v", a.pos[0], err)
	}
	var inv invitation
	if err := json.Unmarshal(b, &inv); err != nil || inv.Name == "" || len(inv.Contacts) == 0 {
		return fmt.Errorf("%s is not an invitation written by 'station invite'", a.pos[0])
	}
	if station.Holder(inv.Role) && listen == "" {
		return fmt.Errorf("a record holder needs --listen HOST:PORT, the address the other record holders reach")
	}
	if err := checkRecord(r.ctx, r.g.DB); err != nil {
		return err
	}
	if _, ok, _ := readStation(r.g.DB); !ok {
		if _, err := os.Stat(r.g.DB); err == nil {
			return fmt.Errorf("%s exists already: give a new file with --db for the copy of the record", r.g.DB)
		}
	}
	if err := os.MkdirAll(filepath.Dir(r.g.DB), 0o755); err != nil {
		return err
	}
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
		if err := joinAsHolder(r.ctx, sf, inv); err != nil {
			return err
		}
		if err := writeJSONFile(stationPath(r.g.DB), sf); err != nil {
			return err
		}
	}
	return serveStation(r, sf)
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
		Role: "arbiter", At: time.Now().UnixNano(), Args: []string{"station", "member", sf.Name, sf.Role, sf.Listen}}, nil, 2*time.Second)
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
	st, running, err := stations.ReadStationStatus(r.g.DB, time.Now())
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
	return nil
}
