//go:build !nostation

package stations

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/match"
	"arbiter/service"
	"arbiter/station"
)

// The command path of a station's record (docs/stations.md): a writing
// command given with --db of a station's record, at the command line, in a
// script, or at the console, is sent to the authority with its credential
// and the instant stamped where it was given, retried with the same command
// id until answered, and returns when it is committed and applied to this
// station's record. Both faces call Forward, so both send the same request
// and the same checks decide.

// OperatorKeyPath is the operator's credential an invitation brought to
// the operator's laptop (FILE.station/operator.key).
func OperatorKeyPath(db string) string { return filepath.Join(StationDir(db), "operator.key") }

// Link is a face's connection to the record holders of a station's record,
// for one command or a script's lines.
type Link struct {
	db  string
	sf  *StationFile
	nc  *nats.Conn
	now func() time.Time
	// rdb and app are this station's replica, read to sign commands.
	rdb *service.DB
	app *match.App
	// authSeq is the authority's head as its time answers last showed it.
	authSeq int64
}

// Dial connects to the record holders of the station's record db (its own
// client port first) with the station's certificate. now is the face's
// time source, on which the offset to the authority is estimated.
func Dial(ctx context.Context, db string, now func() time.Time) (*Link, error) {
	if now == nil {
		now = time.Now
	}
	sf, ok, err := ReadStation(db)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s is not a station's record: start one with 'station serve' or 'station join'", db)
	}
	creds, err := ReadStationCreds(db)
	if err != nil {
		return nil, err
	}
	tlsc, err := creds.TLSConfig()
	if err != nil {
		return nil, err
	}
	urls := StationContacts(ctx, db, sf)
	nc, err := nats.Connect(strings.Join(urls, ","), nats.Name(sf.Name+"-cli"), nats.Timeout(2*time.Second), nats.Secure(tlsc))
	if err != nil {
		return nil, &NotRunningError{Station: sf.Name, DB: db}
	}
	return &Link{db: db, sf: sf, nc: nc, now: now}, nil
}

// Close closes the connection.
func (l *Link) Close() {
	l.nc.Close()
	if l.rdb != nil {
		l.rdb.Close()
	}
}

// Station is the station's description.
func (l *Link) Station() *StationFile { return l.sf }

// Offset asks the authority for its timeline a few times and keeps the
// answer with the shortest round trip: the offset of the authority's
// timeline to the link's time source, and that round trip; ok is false
// when no authority answered.
func (l *Link) Offset() (offset, rtt time.Duration, ok bool) {
	for i := 0; i < 4; i++ {
		t0 := l.now()
		m, err := l.nc.Request(station.SubjectTime, nil, time.Second)
		t3 := l.now()
		if err != nil {
			continue
		}
		var b struct {
			NowNS int64 `json:"now_ns"`
			Seq   int64 `json:"seq"`
		}
		if json.Unmarshal(m.Data, &b) != nil {
			continue
		}
		l.authSeq = max(l.authSeq, b.Seq)
		r := t3.Sub(t0)
		if !ok || r < rtt {
			offset, rtt, ok = time.Unix(0, b.NowNS).Sub(t0.Add(r/2)), r, true
		}
	}
	return offset, rtt, ok
}

// Forward sends one command given at the station's record db to the
// authority and waits until this station's record holds it (docs/stations.md).
func Forward(ctx context.Context, db string, c Command) (Result, error) {
	now := c.Now
	if now == nil {
		now = time.Now
	}
	if err := checkRole(db, &c); err != nil {
		return Result{}, err
	}
	l, err := Dial(ctx, db, now)
	if err != nil {
		return Result{}, err
	}
	defer l.Close()
	return l.Send(ctx, c)
}

// checkRole gives a command without a role on the operator's laptop to the
// operator, and refuses a role this station's connection may not send.
func checkRole(db string, c *Command) error {
	sf, ok, err := ReadStation(db)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s is not a station's record: start one with 'station serve' or 'station join'", db)
	}
	if !c.RoleGiven && sf.Role == "operator" {
		c.G.Role = match.RoleOperator // the operator's laptop speaks for the operator
	}
	if !hasRole(station.CommandRoles(sf.Role), string(c.G.Role)) {
		if sf.Role == "mirror" {
			return ErrMirror
		}
		return &RoleError{StationRole: sf.Role}
	}
	return nil
}

// Send sends one command over the link and waits until this station's
// record holds it. The command's role is checked as Forward checks it.
func (l *Link) Send(ctx context.Context, c Command) (Result, error) {
	if c.Pressed.IsZero() {
		// A command of the command line is given once its link is up: stamped
		// before the connection and the offset's estimate, its press would be
		// late by them and raised at the authority (docs/stations.md).
		c.Pressed = l.now()
	}
	if err := checkRole(l.db, &c); err != nil {
		return Result{}, err
	}
	g := c.G
	at, rtt := g.At, time.Duration(0)
	off, r, ok := l.Offset() // also the authority's head, which the replica signs on
	if !g.AtSet {
		if !ok && c.Notice != nil {
			c.Notice("no authority answers yet; the command waits for one")
		}
		at, rtt = c.Pressed.Add(off).UTC(), r
	}
	var idb [12]byte
	rand.Read(idb[:])
	req := station.Request{ID: l.sf.Name + "/" + hex.EncodeToString(idb[:]), From: l.sf.Name, Role: string(g.Role),
		At: at.UnixNano(), RTT: int64(rtt), Args: c.Words}
	if err := l.sign(ctx, g, c.Key, &req); err != nil {
		return Result{}, err
	}
	rep, err := station.Submit(ctx, l.nc, req, nil, 2*time.Second)
	if err != nil {
		return Result{}, err
	}
	res := Result{Seq: rep.Seq, Output: rep.Output, Stamp: at, RTT: rtt}
	if rep.Error != "" {
		ref := &Refused{Text: rep.Error}
		if rep.Refusal != nil {
			ref.Refusal = rep.Refusal
		}
		return res, ref
	}
	return res, WaitApplied(ctx, l.db, rep.Seq)
}

// WaitApplied waits until the station's record at db holds event seq (the
// station applies the stream in another process, or beside the face).
func WaitApplied(ctx context.Context, path string, seq uint64) error {
	db, err := service.OpenRecordReadOnly(ctx, path)
	if err != nil && !errors.Is(err, service.ErrEmpty) {
		return err
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if db == nil {
			db, _ = service.OpenRecordReadOnly(ctx, path)
		}
		if db != nil {
			if got, _, err := db.Head(ctx); err == nil && uint64(got) >= seq {
				db.Close()
				return nil
			}
		}
		if time.Now().After(deadline) {
			if db != nil {
				db.Close()
			}
			return fmt.Errorf("the command is committed as event %d but this station's record has not caught up within 30 s: check 'station status'", seq)
		}
		time.Sleep(20 * time.Millisecond) // waiting for another process's commit
	}
}

// sign signs the request with the role's credential, here where the
// command is given, so that no credential crosses the network
// (docs/stations.md, "One authority"): a passphrase opens the sealed key of
// that credential in this station's replica, a key file is read (given with
// --key-file, or on the operator's laptop the operator's key its invitation
// brought). A wrong one is not sent either: the request reports whose
// credential was tried, and the authority records the attempt (auth.fail)
// and refuses the command, as when it is given there. A 'credential add'
// sends the record's form of the new credential, made here.
func (l *Link) sign(ctx context.Context, g service.Global, key ed25519.PrivateKey, req *station.Request) error {
	app, err := l.replica(ctx)
	if err != nil {
		return err
	}
	// The replica catches up with the authority's head first (a credential
	// handed out a moment ago must be in it), for a few seconds at most:
	// signed on an older head, the authority still checks it.
	for deadline := time.Now().Add(5 * time.Second); app.State().Seq < l.authSeq && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond) // the station applies the stream in another process
		if err := app.Refresh(ctx); err != nil {
			return err
		}
	}
	st := app.State()
	words, newKey, err := madeHere(st, req.Args)
	if err != nil {
		return err
	}
	req.Args = words
	protected := st.Match != nil && st.ArbiterCredential() != nil
	if !protected {
		if newKey != nil {
			// credential add --role arbiter on an unprotected match: the
			// new key signs its own registration
			return signWith(st, "arbiter", newKey, req)
		}
		if st.Match != nil && st.Protected() && g.Role == match.RoleArbiter {
			return fmt.Errorf("this record keeps an older PIN without signing keys, which a station cannot check without sending it: give the arbiter's commands on a record made with this version")
		}
		return nil // unprotected: no credential is needed
	}
	if key == nil {
		path := g.KeyFile
		if path == "" && l.sf.Role == "operator" && g.Role == match.RoleOperator && g.PIN == "" && g.Secret == "" {
			if _, err := os.Stat(OperatorKeyPath(l.db)); err == nil {
				path = OperatorKeyPath(l.db)
			}
		}
		if path != "" {
			if key, err = service.ReadKeyFile(path); err != nil {
				return err
			}
		}
	}
	pin, secret := g.PIN, g.Secret
	if g.Role == match.RoleArbiter && pin == "" {
		pin, secret = secret, ""
	}
	id, pass := "", ""
	switch {
	case pin != "" || (g.Role == match.RoleArbiter && key != nil):
		id, pass = "arbiter", pin
	case secret != "" || key != nil:
		id, pass = st.CredentialFor(g.Role), secret
	default:
		return nil // no credential given: the authority refuses it in its words
	}
	cred := st.Credential(id)
	if cred == nil {
		return nil // the authority says whose credential is missing
	}
	if until := st.BackoffUntil(id); time.Unix(0, req.At).Before(until) {
		return match.TooManyWrong(id, until) // tried only once the wait is over
	}
	if pass != "" {
		key = nil
	}
	k, ok := cred.Unlock(pass, key)
	if !ok {
		req.Tried, req.TriedGiven = id, "key"
		if pass != "" {
			req.TriedGiven = "passphrase"
		}
		return nil
	}
	return signWith(st, id, k, req)
}

// signWith signs req as the credential id with key, on this replica's head.
func signWith(st *match.State, id string, key ed25519.PrivateKey, req *station.Request) error {
	req.Signer, req.HeadSeq, req.Head = id, st.Seq, st.Head
	r := match.SignedRequest{ID: req.ID, From: req.From, Role: req.Role, Signer: id, AtNS: req.At, Seq: req.HeadSeq, Head: req.Head, Words: req.Args}
	r.Sign(key)
	req.Sig = r.Sig
	return nil
}

// replica is this station's record, opened once per link and brought up
// to date with each command.
func (l *Link) replica(ctx context.Context) (*match.App, error) {
	if l.app == nil {
		db, err := service.OpenRecordReadOnly(ctx, l.db)
		if err != nil {
			return nil, err
		}
		app, err := match.Open(ctx, db)
		if err != nil {
			db.Close()
			return nil, err
		}
		l.rdb, l.app = db, app
		return app, nil
	}
	return l.app, l.app.Refresh(ctx)
}

// madeHere rewrites a 'credential add' to carry the new credential as the
// record will hold it (--credential JSON: a key file's public key, or a
// passphrase's salt, verifier and sealed key), made here: neither the
// passphrase nor the key file leaves this station. It returns the new
// credential's key with it (it signs its own registration when it is the
// arbiter's first).
func madeHere(st *match.State, words []string) ([]string, ed25519.PrivateKey, error) {
	if len(words) < 2 || words[0] != "credential" || words[1] != "add" {
		return words, nil, nil
	}
	out := []string{"credential", "add"}
	var role, player, secret, keyFile string
	for i := 2; i < len(words); i++ {
		w := words[i]
		name, val, eq := strings.Cut(strings.TrimPrefix(w, "--"), "=")
		if !strings.HasPrefix(w, "--") || (name != "role" && name != "player" && name != "secret" && name != "key-file") {
			out = append(out, w)
			continue
		}
		if !eq {
			if i+1 >= len(words) {
				return words, nil, nil // the authority says what is missing
			}
			i++
			val = words[i]
		}
		switch name {
		case "role":
			role = val
		case "player":
			player = val
		case "secret":
			secret = val
		case "key-file":
			keyFile = val
		}
	}
	if role != "" {
		out = append(out, "--role", role)
	}
	if player != "" {
		out = append(out, "--player", player)
	}
	if (secret == "") == (keyFile == "") {
		return out, nil, nil // neither or both: the authority refuses it
	}
	var key ed25519.PrivateKey
	if keyFile != "" {
		k, err := service.ReadKeyFile(keyFile)
		if err != nil {
			return nil, nil, err
		}
		key = k
	}
	r, name := strings.ToLower(role), ""
	switch match.Role(r) {
	case match.RoleArbiter, match.RoleOperator:
	default:
		r, name = "player", player
	}
	cred, k, err := match.NewCredential(r, name, secret, key)
	if err != nil {
		return nil, nil, err
	}
	b, err := json.Marshal(cred)
	if err != nil {
		return nil, nil, err
	}
	if r != "arbiter" {
		k = nil
	}
	return append(out, "--credential", string(b)), k, nil
}

func hasRole(roles []string, r string) bool {
	for _, x := range roles {
		if x == r {
			return true
		}
	}
	return false
}
