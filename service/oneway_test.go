package service

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// One way in to the file (docs/store.md): a process that holds the record
// in SQLite never opens or closes the record, its -wal or its -shm by other
// means, because closing any descriptor of a file drops all the process's
// POSIX locks on it and an outside reader then deletes the write-ahead log
// under the writer. This guard lists every plain open of a file in the
// code of the processes that hold the record (store, the service, the
// stations, the broadcast, the console, the command line) and fails on one
// that is not below, each with why it never names the record. A new one:
// read the record through SQLite (package store), or add it here with the
// reason.
var plainOpens = map[string]string{
	"store/store.go readHeader os.Open(path)":                                       "the header, read only while no SQLite connection of this process holds the file (holdFile)",
	"store/held.go heldShm os.Open(sideFiles(path) + \"-shm\")":                     "the wal-index, opened once per record the process holds and closed only after its last handle has closed (unhold): no SQLite lock is left in the process to drop",
	"store/held.go reholdShm os.Open(sideFiles(path) + \"-shm\")":                   "the wal-index made anew with the DB's connection (store/sidecheck.go), held as heldShm's; the one it replaces is kept open until the last handle has closed, so no SQLite lock is dropped",
	"store/sidecheck.go logForeign os.Open(side + \"-wal\")":                        "the write-ahead log's header, read against the wal-index: SQLite's unix VFS takes no POSIX lock on the -wal, so closing it drops none",
	"store/walcheck.go walFramesChain os.Open(side + \"-wal\")":                     "the write-ahead log, read for its checksums: SQLite's unix VFS takes no POSIX lock on the -wal (its locks are on the record and the -shm), so closing it drops none",
	"service/keyfile.go readRegular os.OpenFile(path)":                              "a key file or an invitation",
	"service/station_serve.go Running os.ReadFile(StationStatusPath(db))":           "FILE.station.status.json",
	"service/station_files.go ReadStationCreds os.ReadFile(StationCredsPath(db))":   "FILE.station/credentials.json",
	"service/station_files.go ReadStation os.ReadFile(StationPath(db))":             "FILE.station.json",
	"service/station_files.go WriteJSONFile os.WriteFile(tmp)":                      "PATH.tmp beside a station's JSON file",
	"service/station_files.go ReadStationStatus os.ReadFile(StationStatusPath(db))": "FILE.station.status.json",
	"service/station_files.go PrepareInvitation os.ReadFile(StationCAKeyPath(db))":  "FILE.station/ca-key.pem",
	"service/timezone.go MachineZone os.ReadFile(\"/etc/timezone\")":                "the machine's zone",
	"station/timeline.go readTimeline os.ReadFile(path)":                            "FILE.station/timeline.json",
	"gui/board.go writeGeometry os.WriteFile(b.geometryFile)":                       "the console's window geometry in the user's settings",
	"gui/run.go profile os.Create(f)":                                               "ARBITER_CPUPROFILE's profile",
	"cli/commands.go readScript os.ReadFile(path)":                                  "a script, read before the record is opened",
	"cli/credentials.go runCredentialKeygen os.OpenFile(path)":                      "a new key file (O_EXCL: never an existing file)",
	"cli/station.go newMatchCA os.WriteFile(caKeyPath(db))":                         "FILE.station/ca-key.pem",
	"cli/station.go runStationJoin os.WriteFile(operatorKeyPath(r.g.DB))":           "FILE.station/operator.key",
	"cli/station.go runStationClaim os.ReadFile(r.g.DB + \".station.status.json\")": "FILE.station.status.json",
	"cli/station.go readEpoch os.ReadFile(db + \".station.status.json\")":           "FILE.station.status.json",
	"gui/tooltip.go writeGeometry os.WriteFile(b.geometryFile)":                     "the action bar's button geometry for scripts/gui-check.sh (ARBITER_GUI_GEOMETRY.bar)",
	"engine/fake/fake.go checkCues os.ReadFile(e.cue)":                              "a test engine's cue file (a test's temporary folder)",
	"engine/fake/fake.go checkCues os.WriteFile(e.cue)":                             "a test engine's cue file (a test's temporary folder)",
	"engine/status.go ReadStatus os.ReadFile(StatusPath(db))":                       "FILE.engine/status.json",
	"engine/status.go writeStatus os.WriteFile(tmp)":                                "FILE.engine/status.json.tmp",
	"engine/transcript.go openTranscript os.OpenFile(path)":                         "FILE.engine/game-N.log",
	"engine/transcript.go openTranscript os.ReadFile(path)":                         "FILE.engine/game-N.log",
	"engine/verify.go CheckTranscripts os.ReadFile(path)":                           "FILE.engine/NAME, NAME without a path (match.EngineMove.Validate)",
	"internal/filelock/filelock.go Lock os.OpenFile(path)":                          "FILE.station.lock or FILE.engine.lock",
	"internal/filelock/filelock.go holder os.ReadFile(path)":                        "FILE.station.lock or FILE.engine.lock",
}

func TestNoProcessThatHoldsTheRecordOpensItByOtherMeans(t *testing.T) {
	opens := map[string]bool{
		"os.Open": true, "os.OpenFile": true, "os.ReadFile": true, "os.Create": true, "os.WriteFile": true,
		"os.Truncate": true, "ioutil.ReadFile": true, "ioutil.WriteFile": true, "syscall.Open": true, "unix.Open": true,
	}
	fset := token.NewFileSet()
	found := map[string]bool{}
	for _, root := range []string{"store", "service", "station", "broadcast", "gui", "cli", "match", "report", "main.go", "engine", "internal/filelock"} {
		err := filepath.Walk(filepath.Join("..", root), func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel("..", p)
			var fn string
			ast.Inspect(f, func(n ast.Node) bool {
				if d, ok := n.(*ast.FuncDecl); ok {
					fn = d.Name.Name
				}
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				s, ok := c.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := s.X.(*ast.Ident)
				if !ok || !opens[x.Name+"."+s.Sel.Name] || len(c.Args) == 0 {
					return true
				}
				var arg bytes.Buffer
				printer.Fprint(&arg, fset, c.Args[0])
				found[filepath.ToSlash(rel)+" "+fn+" "+x.Name+"."+s.Sel.Name+"("+arg.String()+")"] = true
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var unknown, gone []string
	for k := range found {
		if _, ok := plainOpens[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	for k := range plainOpens {
		if !found[k] {
			gone = append(gone, k)
		}
	}
	sort.Strings(unknown)
	sort.Strings(gone)
	for _, k := range unknown {
		t.Errorf("%s opens a file without SQLite: if it can name the record (or its -wal, -shm), read the record through package store instead; else add it to plainOpens with why it never does", k)
	}
	for _, k := range gone {
		t.Errorf("plainOpens lists %s, which is no longer in the code: remove it", k)
	}
	if len(found) < 10 {
		t.Fatalf("the scan found %d plain opens: it is broken", len(found))
	}
}
