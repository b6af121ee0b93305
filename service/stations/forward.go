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
func (l *Link) Close() { l.nc.Close() }

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
		}
		if json.Unmarshal(m.Data, &b) != nil {
			continue
		}
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
	if !g.AtSet {
		off, r, ok := l.Offset()
		if !ok && c.Notice != nil {
			c.Notice("no authority answers yet; the command waits for one")
		}
		at, rtt = c.Pressed.Add(off).UTC(), r
	}
	var idb [12]byte
	rand.Read(idb[:])
	req := station.Request{ID: l.sf.Name + "/" + hex.EncodeToString(idb[:]), From: l.sf.Name, Role: string(g.Role), PIN: g.PIN,
		Secret: g.Secret, At: at.UnixNano(), RTT: int64(rtt)}
	if err := credentialOf(l.db, g, l.sf, c.Key, &req); err != nil {
		return Result{}, err
	}
	var err error
	if req.Args, req.NewKey, err = inlineKeyFile(c.Words); err != nil {
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

// credentialOf puts the role's credential into the request: the key given
// (or read from g.KeyFile), or on the operator's laptop, when the
// operator's command is given with no credential, the operator's key the
// invitation brought (FILE.station/operator.key).
func credentialOf(db string, g service.Global, sf *StationFile, key ed25519.PrivateKey, req *station.Request) error {
	if key == nil {
		path := g.KeyFile
		if path == "" && sf.Role == "operator" && g.Role == match.RoleOperator && g.PIN == "" && g.Secret == "" {
			if _, err := os.Stat(OperatorKeyPath(db)); err == nil {
				path = OperatorKeyPath(db)
			}
		}
		if path == "" {
			return nil
		}
		k, err := service.ReadKeyFile(path)
		if err != nil {
			return err
		}
		key = k
	}
	req.Key = hex.EncodeToString(key.Seed())
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
		k, err := service.ReadKeyFile(path)
		if err != nil {
			return nil, "", err
		}
		return out, hex.EncodeToString(k.Seed()), nil
	}
	return out, "", nil
}

// KeyOf is the key of a request's hex seed.
func KeyOf(seedHex string) (ed25519.PrivateKey, error) {
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
