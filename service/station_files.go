//go:build !nostation

package service

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/station"
)

// What both faces need of a station's record (docs/stations.md): its
// description beside the record, its status file, and the invitation the
// first station writes. The command line (cli/station.go) and the console's
// Match → Stations… (gui/stations.go) call the same functions.

// StationFile describes a station's record (FILE.station.json).
type StationFile struct {
	Name      string   `json:"name"`
	Role      string   `json:"role"`
	Listen    string   `json:"listen,omitempty"`
	ClientURL string   `json:"client_url,omitempty"` // this record holder's client port
	Contacts  []string `json:"contacts,omitempty"`   // client ports of record holders
	Routes    []string `json:"routes,omitempty"`     // route addresses of record holders known when invited
	First     bool     `json:"first,omitempty"`
	// Store is the engine's store in FILE.station/ from a new epoch on
	// ("epoch-N"; a later cluster in "epoch-N-cluster"); Cluster the
	// cluster's name ("arbiter", "arbiter-eN" from epoch N on, so that a
	// holder of an earlier epoch cannot route in).
	Store   string `json:"store,omitempty"`
	Cluster string `json:"cluster,omitempty"`
}

// Invitation is the file 'station invite' writes.
type Invitation struct {
	Match       string              `json:"match"`
	Name        string              `json:"name"`
	Role        string              `json:"role"`
	Contacts    []string            `json:"contacts"`
	Routes      []string            `json:"routes,omitempty"`  // the record holders' route addresses
	Cluster     string              `json:"cluster,omitempty"` // the cluster's name (after a new epoch)
	Credentials station.Credentials `json:"credentials"`       // the match's CA and this station's certificate
	// OperatorKey: on an operator's invitation to a protected match, the
	// operator's credential as a key file's contents (made and registered
	// by the invitation if the match had none), so that on the laptop the
	// operator's commands need no credential flag.
	OperatorKey string `json:"operator_key,omitempty"`
	// Signature: the match's CA's (ECDSA) over all of the above
	// (WriteInvitation, ReadInvitation).
	Signature []byte `json:"signature,omitempty"`
}

// StationStatus is what 'station status --json' prints; StationMember one
// of its members.
type (
	StationStatus = station.Status
	StationMember = station.Member
	StationSeen   = station.Seen
)

// StationDir is the folder beside a station's record FILE (FILE.station/).
func StationDir(db string) string { return db + ".station" }

// StationCredsPath is the station's certificate and key.
func StationCredsPath(db string) string { return filepath.Join(StationDir(db), "credentials.json") }

// StationCAKeyPath is the match's CA key (on the first station only).
func StationCAKeyPath(db string) string { return filepath.Join(StationDir(db), "ca-key.pem") }

// TimelinePath is where a record holder keeps its offset to the match
// timeline (station.Config.TimelineFile).
func TimelinePath(db string) string { return filepath.Join(StationDir(db), "timeline.json") }

// StationPath is the station's description beside the record.
func StationPath(db string) string { return db + ".station.json" }

// StationStatusPath is the status file the running station rewrites every 250 ms.
func StationStatusPath(db string) string { return db + ".station.status.json" }

// ReadStationCreds reads the station's certificate and key.
func ReadStationCreds(db string) (station.Credentials, error) {
	var c station.Credentials
	b, err := os.ReadFile(StationCredsPath(db))
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil {
		return c, refuse(CodeStationCertificate, StationCredsPath(db), err)
	}
	return c, nil
}

// ReadStation reads the station's description; ok is false when the record
// belongs to no station.
func ReadStation(db string) (*StationFile, bool, error) {
	b, err := os.ReadFile(StationPath(db))
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var sf StationFile
	if err := json.Unmarshal(b, &sf); err != nil {
		return nil, false, refuse(CodeStationFileDamaged, StationPath(db), err)
	}
	return &sf, true, nil
}

// WriteJSONFile writes v indented to path (mode 0600), atomically.
func WriteJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// IsStation reports whether the record at db belongs to a station.
func IsStation(db string) bool {
	_, ok, _ := ReadStation(db)
	return ok
}

// ErrNoStation: the record belongs to no station (the console's Match →
// Stations… says so in one line).
var ErrNoStation = refuse(CodeNoStation)

// ReadStationStatus is what 'station status' shows: the status file the
// running station writes, with this station up only while that file is
// younger than 2 s (running). now is the instant of the reading.
func ReadStationStatus(db string, now time.Time) (st StationStatus, running bool, err error) {
	if _, ok, err := ReadStation(db); err != nil || !ok {
		if err == nil {
			err = phrase.Coded(string(CodeNotAStationRecord), db)
		}
		return st, false, err
	}
	b, err := os.ReadFile(StationStatusPath(db))
	if err != nil {
		return st, false, phrase.Coded(string(CodeStationNotRun), db)
	}
	var f struct {
		station.Status
		WrittenNS int64 `json:"written_ns"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return st, false, refuse(CodeStatusDamaged)
	}
	running = now.Sub(time.Unix(0, f.WrittenNS)) < 2*time.Second
	for i := range f.Members {
		if f.Members[i].Name == f.Station {
			f.Members[i].Up = running
		}
	}
	for i := range f.Stations {
		// a station that does not run hears nobody: what it knew stands
		// as last seen
		f.Stations[i].Connected = f.Stations[i].Connected && running
	}
	return f.Status, running, nil
}

// StationClientAddr is the client port's host and port of a --listen address.
func StationClientAddr(listen string) (string, int, error) {
	h, ps, err := net.SplitHostPort(listen)
	if err != nil {
		return "", 0, phrase.Coded(string(CodeListenNotHostPort), listen)
	}
	p, err := strconv.Atoi(ps)
	if err != nil || p < 1 || p > 65534 {
		return "", 0, phrase.Coded(string(CodeListenPort), listen)
	}
	return h, p + 1, nil
}

// MatchTitle is the title of the match in the record at path ("" if none).
func MatchTitle(ctx context.Context, path string) string {
	title := ""
	if app, err := OpenReadOnly(ctx, path); err == nil {
		if m := app.State().Match; m != nil {
			title = m.Title
		}
		app.DB().Close()
	}
	return title
}

// HolderRoutes are the route addresses of the record holders: those the
// record names, those the invitation named, and this station's own. known
// is the match after db's record as an App read it (nil: none), which the
// replica takes rather than replay the record again (station.NewReplica).
func HolderRoutes(ctx context.Context, db *DB, known *match.State, sf *StationFile) ([]string, error) {
	rep, err := station.NewReplica(ctx, db, known)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var routes []string
	add := func(a string) {
		if a != "" && !seen[a] {
			seen[a] = true
			routes = append(routes, a)
		}
	}
	for _, h := range rep.Holders() {
		add(h.Listen)
	}
	for _, a := range sf.Routes {
		add(a)
	}
	add(sf.Listen)
	return routes, nil
}

// StationContacts are the client URLs of the record holders this station
// knows: its own, the invitation's, and those derived from the record's
// members (the client port is the route port + 1).
func StationContacts(ctx context.Context, db string, sf *StationFile) []string {
	seen := map[string]bool{}
	var urls []string
	add := func(u string) {
		if u != "" && !seen[u] {
			seen[u] = true
			urls = append(urls, u)
		}
	}
	add(sf.ClientURL)
	for _, c := range sf.Contacts {
		add(c)
	}
	if app, err := OpenReadOnly(ctx, db); err == nil {
		rdb := app.DB()
		if routes, err := HolderRoutes(ctx, rdb, app.State(), sf); err == nil {
			for _, r := range routes {
				if h, p, err := StationClientAddr(r); err == nil {
					add("nats://" + net.JoinHostPort(h, strconv.Itoa(p)))
				}
			}
		}
		rdb.Close()
	}
	return urls
}

// StationRoles are the roles an invitation can name.
var StationRoles = []string{"organiser", "display", "operator", "mirror"}

// PrepareInvitation checks an invitation for a station (role, name, the
// file out, not yet existing) and makes it on the record at db, which must
// be the first station's (it holds the CA's key): everything but the
// operator's credential, which the caller adds (an operator's invitation on
// a protected match carries it). It writes nothing.
func PrepareInvitation(ctx context.Context, db, role, name, out string) (*Invitation, error) {
	switch role {
	case "organiser", "display", "operator", "mirror":
	default:
		return nil, phrase.Coded(string(CodeNotAStationRole), role)
	}
	if strings.TrimSpace(name) == "" || out == "" {
		return nil, phrase.Coded(string(CodeInviteNeedsName))
	}
	if err := CheckRecord(ctx, db); err != nil {
		return nil, err
	}
	sf, ok, err := ReadStation(db)
	if err != nil {
		return nil, err
	}
	if !ok || sf.ClientURL == "" {
		return nil, phrase.Coded(string(CodeNotARunningHolder), db)
	}
	if _, err := os.Stat(out); err == nil {
		return nil, refuse(CodeInvitationExists, out)
	}
	own, err := ReadStationCreds(db)
	if err != nil {
		return nil, err
	}
	caKey, err := os.ReadFile(StationCAKeyPath(db))
	if err != nil {
		return nil, refuse(CodeNotFirstStation)
	}
	creds, err := station.Issue(own.CA, caKey, name, role)
	if err != nil {
		return nil, err
	}
	app, err := OpenReadOnly(ctx, db)
	if err != nil {
		return nil, err
	}
	routes, err := HolderRoutes(ctx, app.DB(), app.State(), sf)
	app.DB().Close()
	if err != nil {
		return nil, err
	}
	return &Invitation{Match: MatchTitle(ctx, db), Name: name, Role: role,
		Contacts: StationContacts(ctx, db, sf), Routes: routes, Credentials: creds, Cluster: sf.Cluster}, nil
}

// CheckRecord refuses a file at db that is not an Arbiter record (damaged,
// foreign, newer), with the store's sentence; no file is no refusal.
func CheckRecord(ctx context.Context, db string) error {
	if _, err := os.Stat(db); err != nil {
		return nil
	}
	rdb, err := openReplica(ctx, db) // refuses before any write, as every command's open does
	if err != nil {
		return err
	}
	return rdb.Close()
}

// OperatorCredential is the operator's credential an operator's
// invitation carries (a key file's contents): on a protected match with no
// operator's credential, a new key, registered through the authority
// ('credential add --role operator', the arbiter's command, given as g:
// his --pin); with one, the key file keyFile, which must be that
// credential. An unprotected match needs none (""). notice is told what a
// forwarded command waits for.
func OperatorCredential(ctx context.Context, db string, g Global, keyFile string, notice func(string)) (string, error) {
	app, err := OpenReadOnly(ctx, db)
	if err != nil {
		return "", err
	}
	st := app.State()
	app.DB().Close()
	if st.ArbiterCredential() == nil {
		if keyFile != "" {
			return "", &OperatorKeyError{Kind: OperatorKeyNotNeeded}
		}
		return "", nil
	}
	if have := st.Credential("operator"); have != nil {
		if have.Kind == "passphrase" {
			// no key file holds it: before, the refusal asked for its key
			// file, which does not exist, and any key file given was "not
			// the operator's credential"
			return "", &OperatorKeyError{Kind: OperatorKeyPassphrase}
		}
		if keyFile == "" {
			return "", &OperatorKeyError{Kind: OperatorKeyNeeded}
		}
		k, err := ReadKeyFile(keyFile)
		if err != nil {
			return "", err
		}
		if hex.EncodeToString(k.Public().(ed25519.PublicKey)) != have.PublicKey {
			return "", &OperatorKeyError{Kind: OperatorKeyWrong, File: keyFile}
		}
		return match.KeyFileHeader + " " + hex.EncodeToString(k.Seed()), nil
	}
	if keyFile != "" {
		return "", &OperatorKeyError{Kind: OperatorKeyNone}
	}
	b, err := match.NewKeyFile()
	if err != nil {
		return "", err
	}
	k, err := match.ParseKeyFile(b)
	if err != nil {
		return "", err
	}
	g.Role = match.RoleArbiter
	if _, err := Forward(ctx, db, StationCommand{Cmd: match.CredentialAdd{Role: match.RoleOperator, Key: k}, G: g,
		RoleGiven: true, Notice: notice}); err != nil {
		return "", &OperatorKeyError{Kind: OperatorKeyNotMade, Err: err}
	}
	return strings.TrimSpace(string(b)), nil
}

// InviteStation writes an invitation for a station as the console makes
// it, with the arbiter's credential g (the caller has checked it); an
// operator's invitation to a protected match carries the operator's
// credential (OperatorCredential; keyFile: the operator's key file when
// the match has one).
func InviteStation(ctx context.Context, db, role, name, out string, g Global, keyFile string) error {
	inv, err := PrepareInvitation(ctx, db, role, name, out)
	if err != nil {
		return err
	}
	if role == "operator" {
		if inv.OperatorKey, err = OperatorCredential(ctx, db, g, keyFile, nil); err != nil {
			return err
		}
	}
	return WriteInvitation(db, out, *inv)
}
