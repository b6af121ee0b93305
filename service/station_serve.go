//go:build !nostation

package service

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"arbiter/match"
	"arbiter/station"
	"arbiter/store"
)

// Running a station (docs/stations.md): 'station serve' and 'station join'
// on the command line, and the console on a station's record when no
// station runs for it, call Serve.

// Serve runs the station sf on its record db until ctx ends: as a lone
// record holder, a member of the cluster, or a client; it restarts its
// engine when a second record holder joins (a cluster) and when the
// arbiter starts a new epoch, and rewrites the status file every 250 ms.
func Serve(ctx context.Context, db string, sf *StationFile, o ServeOptions) error {
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	lock := o.Lock
	if lock == nil {
		var err error
		if lock, err = LockStation(db); err != nil {
			return err
		}
	}
	defer lock.Release()
	epoch := o.Epoch
	if epoch {
		if err := nextEpochStore(ctx, db, sf); err != nil {
			return err
		}
	}
	rdb, err := openReplica(ctx, db)
	if err != nil {
		return err
	}
	defer rdb.Close()
	creds, err := ReadStationCreds(db)
	if err != nil {
		return err
	}
	tlsc, err := creds.TLSConfig()
	if err != nil {
		return err
	}
	var offset *time.Duration // the match timeline, carried into a restart in this process
	for {
		cfg, routes, err := stationConfig(ctx, db, rdb, sf, o, epoch, offset, tlsc)
		if err != nil {
			return err
		}
		cfg.Creds = &creds // the key it signs the record with is its certificate's
		s, err := startStation(ctx, db, sf, cfg)
		if err != nil {
			return err
		}
		if o.Started != nil {
			o.Started(sf, startedWith(s, cfg, routes))
		}
		engines := len(routes)
		if epoch {
			engines = 1 // alone from the epoch's claim on: a holder joining makes it a cluster again
		}
		restart, err := watchStation(ctx, db, s, engines)
		epoch = false
		next := s.Replica().Epoch() + 1
		if off, u := s.Offset(); u >= 0 {
			offset = &off
		}
		inProcess.CompareAndDelete(db, s)
		s.Stop()
		switch {
		case restart == restartEpoch:
			// The arbiter's new epoch: a lone engine in a new store; the
			// other holders rejoin only by a new invitation.
			epoch = true
			sf.Store, sf.Cluster, sf.Routes = fmt.Sprintf("epoch-%d", next), fmt.Sprintf("arbiter-e%d", next), nil
			if err := WriteJSONFile(StationPath(db), sf); err != nil {
				return err
			}
			o.Logf("station %s: the arbiter starts epoch %d here", sf.Name, next)
		case restart == restartCluster:
			o.Logf("station %s: a record holder joined; the engine restarts as a cluster", sf.Name)
		default:
			return err
		}
	}
}

// startedWith is the number of record holders the station s of cfg
// started with: a holder's engine's routes (itself included); for a client
// (an operator's laptop, a mirror), which has none, the record holders it
// dials (its invitation's contacts and those its record names, one per
// address whatever the URL's scheme: a record just joined may not yet hold
// their member events), not 1.
func startedWith(s *station.Station, cfg station.Config, routes []string) int {
	if len(routes) > 0 {
		return len(routes)
	}
	return max(len(s.Replica().Holders()), dialledHolders(cfg.Dial), 1)
}

// dialledHolders is the number of record holders the URLs dial name: one
// per address, whatever the URL's scheme, and one per port of this machine
// however it is written (localhost, 127.0.0.1, [::1]).
func dialledHolders(dial []string) int {
	dialled := map[string]bool{}
	for _, c := range dial {
		u, err := url.Parse(c)
		if err != nil || u.Host == "" {
			continue
		}
		host := strings.ToLower(u.Hostname())
		if ip := net.ParseIP(host); host == "localhost" || ip.Equal(net.IPv4(127, 0, 0, 1)) || ip.Equal(net.IPv6loopback) {
			host = "loopback"
		}
		dialled[net.JoinHostPort(host, u.Port())] = true
	}
	return len(dialled)
}

// stationConfig is how the station sf runs on its record rdb: a record
// holder's engine (lone, or a cluster once two or more holders are named,
// in the store of its epoch) or a client's contacts; routes are the record
// holders' route addresses.
func stationConfig(ctx context.Context, db string, rdb *DB, sf *StationFile, o ServeOptions, epoch bool, offset *time.Duration, tlsc *tls.Config) (station.Config, []string, error) {
	cfg := station.Config{Name: sf.Name, Role: sf.Role, DB: rdb, First: sf.First, Logf: o.Logf, Epoch: epoch, Now: o.Now, Offset: offset}
	cfg.CheckClaim = func(pin string) error {
		app, err := match.New(ctx, rdb)
		if err != nil {
			return err
		}
		return CheckArbiterPIN(app, pin, "taking authority needs the arbiter's PIN: give --pin", "wrong arbiter PIN for station claim")
	}
	if !station.Holder(sf.Role) {
		cfg.Dial, cfg.TLS = StationContacts(ctx, db, sf), tlsc
		return cfg, nil, nil
	}
	host, port, err := StationClientAddr(sf.Listen)
	if err != nil {
		return cfg, nil, err
	}
	routes, err := HolderRoutes(ctx, rdb, nil, sf)
	if err != nil {
		return cfg, nil, err
	}
	lone, cluster, cname := "lone", "cluster", "arbiter"
	if sf.Store != "" {
		lone, cluster = sf.Store, sf.Store+"-cluster"
	}
	if sf.Cluster != "" {
		cname = sf.Cluster
	}
	ec := &station.EngineConfig{Name: sf.Name, Dir: filepath.Join(StationDir(db), lone), ClientHost: host, ClientPort: port, TLS: tlsc}
	if len(routes) >= 2 && !epoch {
		// Two or more record holders: a cluster, in a store of its own
		// (a lone engine's stream cannot become a clustered one; the
		// record seeds the new stream).
		ec.Dir = filepath.Join(StationDir(db), cluster)
		ec.Cluster = &station.ClusterConfig{Name: cname, Listen: sf.Listen, Routes: routes, Replicas: min(len(routes), 3)}
	}
	cfg.Engine = ec
	cfg.TimelineFile = TimelinePath(db)
	return cfg, routes, nil
}

// startStation starts the station of cfg for this process, writes its
// description with the client URL it serves at, and has the match's first
// record holder recorded as a member.
func startStation(ctx context.Context, db string, sf *StationFile, cfg station.Config) (*station.Station, error) {
	s, err := station.Start(ctx, cfg)
	if err != nil {
		return nil, err
	}
	inProcess.Store(db, s)
	if s.Engine() != nil {
		sf.ClientURL = s.Engine().ClientURL()
	}
	if err := WriteJSONFile(StationPath(db), sf); err != nil {
		inProcess.CompareAndDelete(db, s)
		s.Stop()
		return nil, err
	}
	if sf.First && station.Holder(sf.Role) {
		if _, ok := s.Replica().Members()[sf.Name]; !ok {
			if err := submitMember(ctx, s, sf); err != nil {
				inProcess.CompareAndDelete(db, s)
				s.Stop()
				return nil, err
			}
		}
	}
	return s, nil
}

// nextEpochStore puts the station into the next epoch's store (station
// serve --epoch: the survivor of two record holders whose engine cannot
// start without the other).
func nextEpochStore(ctx context.Context, db string, sf *StationFile) error {
	app, err := OpenReadOnly(ctx, db)
	if err != nil {
		return err
	}
	rep, err := station.NewReplica(ctx, app.DB(), app.State())
	app.DB().Close()
	if err != nil {
		return err
	}
	next := rep.Epoch() + 1
	sf.Store, sf.Cluster, sf.Routes = fmt.Sprintf("epoch-%d", next), fmt.Sprintf("arbiter-e%d", next), nil
	return WriteJSONFile(StationPath(db), sf)
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
		WriteJSONFile(StationStatusPath(db), struct {
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

// inProcess holds the stations this process runs, by record: a command
// given here takes the match timeline from its station's estimate
// (Link.Offset), on the station's own time source.
var inProcess sync.Map // db path -> *station.Station

// Running reports whether a station runs on the record at db now: its
// status file was written less than 2 s before now.
func Running(db string, now time.Time) bool {
	var st struct {
		WrittenNS int64 `json:"written_ns"`
	}
	b, err := os.ReadFile(StationStatusPath(db))
	if err != nil || json.Unmarshal(b, &st) != nil {
		return false
	}
	return now.Sub(time.Unix(0, st.WrittenNS)) < 2*time.Second
}

// submitMember records a station joining (station.member) through the authority.
func submitMember(ctx context.Context, s *station.Station, sf *StationFile) error {
	var idb [8]byte
	rand.Read(idb[:])
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	rep, err := s.Submit(ctx, station.Request{ID: "member/" + sf.Name + "/" + hex.EncodeToString(idb[:]), Role: "arbiter",
		Member: &station.MemberInfo{Name: sf.Name, Role: sf.Role, Listen: sf.Listen}})
	if err == nil && rep.Error != "" {
		err = errors.New(rep.Error)
	}
	return err
}

// CheckArbiterPIN checks pin against the arbiter's PIN of the match of
// app: missing or wrong (the caller's sentences) when the match has one and
// pin is empty or not it.
func CheckArbiterPIN(app *match.App, pin, missing, wrong string) error {
	if m := app.State().Match; m != nil && !m.CheckPIN(pin) {
		if pin == "" {
			return errors.New(missing)
		}
		return errors.New(wrong)
	}
	return nil
}

// openReplica opens a station's record for the station that holds it: read
// and written only by the station, which appends to it what the stream
// holds (station.Replica) and, as the authority, its commands' events once
// the stream took them (docs/stations.md). Every face reads a station's
// record with OpenReadOnly.
func openReplica(ctx context.Context, path string) (*DB, error) { return store.Open(ctx, path) }
