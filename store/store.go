package store

import (
	"context"
	"database/sql"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ApplicationID is the value of PRAGMA application_id in every Arbiter event
// log: the four ASCII bytes "ARBI".
const ApplicationID = 0x41524249 // "ARBI", PRAGMA application_id

// Sentinel errors. Errors returned by this package wrap one of them where it
// applies, with context, so callers test with errors.Is.
var (
	// ErrForeign: the file is not an Arbiter event log (not SQLite at all,
	// or SQLite belonging to another application).
	ErrForeign error = refuse(CodeForeign)
	// ErrNewerSchema: the file was written by a newer Arbiter.
	ErrNewerSchema error = refuse(CodeNewerSchema)
	// ErrNotFound: the file (or the requested meta key) does not exist.
	ErrNotFound = errors.New("not found")
	// ErrReadOnly: a write was attempted on a read-only handle or file.
	ErrReadOnly error = refuse(CodeReadOnly)
	// ErrDiskFull: SQLite reported that the disk (or its page limit) is full.
	ErrDiskFull error = refuse(CodeDiskFull)
	// ErrInvalidEvent: Append refused an event (empty kind, unknown role,
	// payload that is not a JSON object, invalid UTF-8, zero time).
	ErrInvalidEvent = errors.New("invalid event")
	// ErrAppendOnly: SQLite's guard trigger refused an UPDATE or DELETE of an event.
	ErrAppendOnly error = refuse(CodeAppendOnly)
	// ErrExists: Backup refuses to overwrite an existing destination.
	// ErrCorrupt: SQLite found the file damaged.
	ErrCorrupt error = refuse(CodeCorrupt)
	ErrExists  error = refuse(CodeExists)
	// ErrNotWritten: the row of an appended event is not in the file
	// (a trigger made by another program dropped it without an error).
	ErrNotWritten error = refuse(CodeNotWritten)
)

//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations sorted by number. Their numbers
// must be 1, 2, 3, ... without gaps; a gap is a build error caught by tests.
func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, name := range names {
		base := filepath.Base(name)
		num, _, ok := strings.Cut(base, "_")
		if !ok {
			return nil, fmt.Errorf("store: migration %s: name must be NNNN_description.sql", base)
		}
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("store: migration %s: %w", base, err)
		}
		b, err := migrationFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: base, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("store: migration %s: expected number %d", m.name, i+1)
		}
	}
	return ms, nil
}

// SchemaVersion is the user_version this binary migrates files to.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil {
		panic(err)
	}
	return len(ms)
}

// DB is an open event log. It is safe for concurrent use; all operations are
// serialised on its single SQLite connection.
type DB struct {
	sql      *sql.DB
	path     string
	walPath  string // side + "-wal", the write-ahead log (stamp.go: looked at twice a commit)
	walPathZ []byte // walPath as the system takes it, NUL-terminated, made once (lookAtLogShape)
	readOnly bool
	release  func() // the file's place in the process's register (held.go)
	raw      *conn  // its connection at the driver's level, with its statements (stmt.go)
	updates  int    // Updates begun on the handle: the log is laid out before the one after layoutAfter (growlog.go)
	// idleCheckpoints: the owner checkpoints the log between commands
	// (IdleCheckpoints); logPages: the pages commits wrote into it since
	// the last of those checkpoints (checkpoint.go), or, for a handle
	// without them, since an Update last copied it (ckptahead.go)
	idleCheckpoints bool
	logPages        int
	laidOut         bool // LayOutLog laid out the log: the Update after layoutAfter does not
	// opened is the file the DB opened, as stat(2) saw it then (Replaced);
	// wal what it knows of its write-ahead log (WALChanged; stamp.go)
	opened os.FileInfo
	wal    walWatch
	// side is where the -wal and -shm are (sideFiles: the file a link
	// names), as it was at open
	side string
	// logMissing: the file was in WAL mode with no -wal beside it when the
	// DB opened it (OpenedWithoutLog)
	logMissing bool
	// eventsHeld: the Updates marked HeldElsewhere commit without fsync
	// (SetEventsHeldElsewhere; heldsync.go)
	eventsHeld atomic.Bool
}

// OpenedWithoutLog reports whether the file, a write-ahead-log database,
// had no -wal file beside it when the DB opened it (before SQLite made
// one). A writer that closes deletes its -wal (SQLite, at the last
// connection's close) and a writer that crashes leaves it, so a file whose
// writer never closed it (match: the console's heartbeat) and that has no
// -wal is a copy taken while it was written without its -wal (cp of the
// main file alone), or one whose -wal was removed: the commits still in
// that -wal are not in it.
func (db *DB) OpenedWithoutLog() bool { return db.logMissing }

// noLog reports whether the file at path, whose header is h, is a
// write-ahead-log database with no -wal file beside it (sideFiles).
func noLog(path string, h header) bool {
	if !h.walMode {
		return false
	}
	_, err := os.Lstat(sideFiles(path) + "-wal")
	return errors.Is(err, fs.ErrNotExist)
}

// Path returns the file name the DB was opened with.
func (db *DB) Path() string { return db.path }

// Close closes the database. In WAL mode the last connection to close
// checkpoints the log into the main file.
func (db *DB) Close() error {
	db.closeConn()
	err := db.sql.Close()
	if db.release != nil {
		db.release()
	}
	if err != nil {
		return fmt.Errorf("store: close %s: %w", db.path, err)
	}
	return nil
}

// dsn builds a "file:" URI for path with the given query parameters. The path
// is percent-encoded so that '?', '#' and '%' in file names are safe.
func dsn(path string, params ...string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows drive letter: file:/C:/...
	}
	u := url.URL{Scheme: "file", Path: p, OmitHost: true, RawQuery: strings.Join(params, "&")}
	return u.String(), nil
}

// header is what Open learns from the start of a SQLite file.
type header struct {
	appID       uint32
	userVersion uint32
	pageSize    int
	walMode     bool // file format write/read version 2
	// rootCells is the number of cells on page 1, the root of sqlite_schema
	// (-1 if the bytes were not available). 0 on a one-page file means an
	// empty schema.
	rootCells int
}

const sqliteMagic = "SQLite format 3\x00"

// headerLen is how many bytes parseHeader wants: the 100-byte database
// header and the 8-byte b-tree page header of page 1.
const headerLen = 108

// parseHeader parses the SQLite database header (https://sqlite.org/fileformat.html).
// It reports ErrForeign when b is not the start of a SQLite 3 database.
func parseHeader(b []byte) (header, error) {
	if len(b) < 100 || string(b[:16]) != sqliteMagic {
		return header{}, ErrForeign
	}
	pageSize := int(binary.BigEndian.Uint16(b[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize&(pageSize-1) != 0 {
		return header{}, ErrForeign
	}
	if b[18] < 1 || b[18] > 2 || b[19] < 1 || b[19] > 2 {
		return header{}, ErrForeign
	}
	h := header{
		userVersion: binary.BigEndian.Uint32(b[60:64]),
		appID:       binary.BigEndian.Uint32(b[68:72]),
		pageSize:    pageSize,
		walMode:     b[18] == 2,
		rootCells:   -1,
	}
	if len(b) >= headerLen {
		h.rootCells = int(binary.BigEndian.Uint16(b[103:105]))
	}
	return h, nil
}

// readHeader reads the header of an existing file without SQLite. It returns
// fresh=true for a missing or empty file, and the file's size.
func readHeader(path string) (h header, size int64, fresh bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return header{}, 0, true, nil
	}
	if err != nil {
		return header{}, 0, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return header{}, 0, false, err
	}
	if st.Size() == 0 {
		return header{}, 0, true, nil
	}
	if !st.Mode().IsRegular() {
		return header{}, 0, false, ErrForeign
	}
	b := make([]byte, headerLen)
	n, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return header{}, 0, false, err
	}
	h, err = parseHeader(b[:n])
	return h, st.Size(), false, err
}

// inspect decides, without writing anything, whether path may be opened by
// this binary. It returns the schema version found (0 for a new or empty
// file) and whether the file holds anything worth backing up, and
// registers the handle about to be opened (holdFile): release undoes that
// when the handle closes. On an error it has released it already.
//
// The main file's header is read directly (readHeader) only while no
// connection of this process holds the file (see held.go: closing a
// descriptor of our own would drop the locks of that connection), and is
// authoritative unless a non-empty write-ahead log (PATH-wal) sits next to
// it, holding commits not yet checkpointed. Otherwise the file is asked
// through a read-only SQLite connection.
//
// missing is whether the file, not yet held by this process, is a
// write-ahead-log database with no -wal beside it (DB.OpenedWithoutLog),
// learnt from the header read then.
//
// forWriting: the file is being opened read-write, whose last close copies
// the -wal into the file: a -wal that would take back an event the file
// holds is refused then (logcheck.go).
func inspect(ctx context.Context, path string, forWriting bool) (version int, existing, missing bool, release func(), err error) {
	var (
		h     header
		size  int64
		fresh bool
	)
	release, already := holdFile(path, func() {
		h, size, fresh, err = readHeader(path)
		missing = err == nil && !fresh && noLog(path, h) // before SQLite makes a -wal
	})
	defer func() {
		if err != nil {
			release()
		}
	}()
	if err != nil {
		return 0, false, false, release, err
	}
	var appID uint32
	var uv int
	var empty bool
	if !already {
		if fresh {
			return 0, false, false, release, nil
		}
		if h.appID != 0 && h.appID != ApplicationID {
			return 0, false, false, release, ErrForeign
		}
		if h.appID == ApplicationID && int(h.userVersion) > SchemaVersion() {
			return 0, false, false, release, ErrNewerSchema
		}
		appID, uv = h.appID, int(h.userVersion)
		empty = size == int64(h.pageSize) && h.rootCells == 0
	}
	if already || walHasContent(path) {
		var objects int
		appID, uv, objects, err = inspectSQL(ctx, path)
		if err != nil {
			return 0, false, false, release, err
		}
		empty = objects == 0
		if forWriting && !already && appID == ApplicationID && uv >= 5 && uv <= SchemaVersion() {
			if seq, back := logTakesBack(ctx, path); back {
				return 0, false, false, release, refuse(CodeLogTakesBack, path, seq) // logcheck.go
			}
		}
	}
	switch {
	case appID == 0 && uv == 0 && empty:
		// An empty SQLite file, e.g. left by a first Open that stopped before
		// its first migration committed.
		return 0, false, false, release, nil
	case appID != ApplicationID:
		return 0, false, false, release, ErrForeign
	case uv > SchemaVersion():
		return 0, false, false, release, ErrNewerSchema
	}
	return uv, true, missing, release, nil
}

// walHasContent reports whether a non-empty write-ahead log sits beside
// path (os.Stat opens nothing).
func walHasContent(path string) bool {
	st, err := os.Stat(sideFiles(path) + "-wal")
	return err == nil && st.Size() > 0
}

func inspectSQL(ctx context.Context, path string) (appID uint32, uv, objects int, err error) {
	d, err := dsn(path, "mode=ro", "_pragma=busy_timeout(5000)", "_pragma=query_only(1)")
	if err != nil {
		return 0, 0, 0, err
	}
	db, err := sql.Open("sqlite", d)
	if err != nil {
		return 0, 0, 0, err
	}
	defer db.Close()
	var id int64
	if err := db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&id); err != nil {
		if isNotADB(err) {
			return 0, 0, 0, ErrForeign
		}
		return 0, 0, 0, mapErr(err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&uv); err != nil {
		return 0, 0, 0, mapErr(err)
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&objects); err != nil {
		return 0, 0, 0, mapErr(err)
	}
	return uint32(id), uv, objects, nil
}

// schemaHeld is the schema version the tables of the file at path show
// (read-only): 2 with the heartbeat, 3 with the signatures, 4 with their
// request column, 5 with the events' receipts; 0 for none of them.
func schemaHeld(ctx context.Context, path string) (int, error) {
	// read as immutable, leaving no -wal or -shm beside the file, unless a
	// log lies beside it already (whose pages may hold the schema)
	mode := "immutable=1"
	if walHasContent(path) {
		mode = "_pragma=busy_timeout(5000)"
	}
	d, err := dsn(path, "mode=ro", mode, "_pragma=query_only(1)")
	if err != nil {
		return 0, err
	}
	db, err := sql.Open("sqlite", d)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var events, signatures string
	var heartbeat int
	if err := db.QueryRowContext(ctx, `SELECT coalesce((SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'events'), ''),
		coalesce((SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'signatures'), ''),
		(SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'heartbeat')`).Scan(&events, &signatures, &heartbeat); err != nil {
		return 0, err
	}
	switch {
	case strings.Contains(events, "received_ns"):
		return 5, nil
	case strings.Contains(signatures, "request"):
		return 4, nil
	case signatures != "":
		return 3, nil
	case heartbeat > 0:
		return 2, nil
	}
	return 0, nil
}

// Open opens the event log at path read-write, creating it if absent, and
// migrates it to the schema this binary knows.
//
// An existing file is inspected before anything is written to it: a file that
// is not SQLite, or SQLite with another application_id, is refused with
// ErrForeign; a file with a newer schema is refused with ErrNewerSchema. An
// existing file with an older schema is first copied to PATH.bak-v<N>
// (a consistent copy made with VACUUM INTO), then migrated.
func Open(ctx context.Context, path string) (*DB, error) {
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return nil, refuseWrapping([]error{ErrNotFound}, CodeNoFolder, path, filepath.Dir(path), ErrNotFound)
	}
	version, existing, missing, release, err := inspect(ctx, path, true)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if existing && version < SchemaVersion() {
		// a schema version lowered by another program (PRAGMA
		// user_version) would have the migrations run again over the
		// tables they made: one failed with "table signatures already
		// exists", after a backup left beside the file (branch hanchor)
		if held, err := schemaHeld(ctx, path); err == nil && held > version {
			release()
			return nil, fmt.Errorf("store: open %s: %w", path, refuse(CodeVersionEdited, version, held))
		}
		if _, err := backupBeforeMigration(ctx, path, version); err != nil {
			release()
			return nil, fmt.Errorf("store: open %s: back up before migrating: %w", path, err)
		}
	}
	syncData()
	d, err := dsn(path, "mode=rwc",
		"_pragma=busy_timeout(5000)",
		"_pragma=journal_mode(WAL)",
		"_pragma=synchronous(FULL)",
		fmt.Sprintf("_pragma=wal_autocheckpoint(%d)", walAutocheckpoint),
		"_pragma=foreign_keys(1)")
	if err != nil {
		release()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	sdb, err := sql.Open("sqlite", d)
	if err != nil {
		release()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	sdb.SetMaxOpenConns(1)
	sdb.SetMaxIdleConns(1)
	sdb.SetConnMaxLifetime(0)
	sdb.SetConnMaxIdleTime(0)
	side := sideFiles(path)
	db := &DB{sql: sdb, path: path, side: side, walPath: side + "-wal", walPathZ: cPath(side + "-wal"), release: release, logMissing: missing}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db.noteOpened()
	db.afterOwnWrite()
	heldShm(path) // its identity now, as the connection has it (SideFileReplaced)
	return db, nil
}

// walAutocheckpoint is the number of pages the write-ahead log holds before
// the commit that crosses it copies them into the file (SQLite's default,
// 1,000). A commit writes about one page since migration 0006. Every
// checkpoint is one slow commit (the log synced, its pages copied, the file
// synced: 1.1-1.7 ms on the development VM) and the commit after it another
// (the log restarted: its header written and synced before the frames), so
// the longer the cycle the fewer such commits: one of each in some 850
// commits, where 500 pages gave one in 430 (docs/performance.md, "Commit and
// move, ninth pass"). 500 was chosen (hpages) when the log's first cycle
// grew the file at every commit, its fdatasync writing the inode too, for
// as long as the cycle lasted; since growlog.go SQLite lays the log out to
// walAutocheckpoint pages once the handle has made layoutAfter commits, and
// a longer cycle costs no growth. Durability is unchanged: every commit is
// synced (synchronous=FULL). A station's record is checkpointed between
// commands at idleCheckpointPages (checkpoint.go); any other handle that
// writes copies its log before the Update that would cross this, so that
// the copy and the restart are one slow Update (ckptahead.go), and
// SQLite's own checkpoint here is the net for what its count misses.
const walAutocheckpoint = 1000

// syncData makes SQLite commit with fdatasync(2) where the platform has it,
// as SQLite's own builds for Linux do (the transpiled library keeps the
// source's default, fsync). A commit still returns only once its frames,
// and the log's size when it grew, are on the disk (synchronous=FULL):
// fdatasync leaves out only the file's timestamps. Once the write-ahead
// log has been reset after a checkpoint, commits overwrite its blocks, and
// fsync wrote the inode again at every commit whose modification time had
// moved on (on a console, every move): a second write before the disk's
// flush (docs/performance.md, issue 29). Process-wide, set at the first
// read-write Open; where fdatasync does not exist it stays fsync.
var syncData = sync.OnceFunc(func() { _, _ = sqlite.Fdatasync(true) })

// OpenReadOnly opens an existing event log without ever writing to it (SQLite
// mode=ro and query_only). It is meant for status, verify and export. A
// missing file is an error wrapping ErrNotFound.
func OpenReadOnly(ctx context.Context, path string) (*DB, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, refuseWrapping([]error{ErrNotFound, err}, CodeNoFile, path, ErrNotFound, err)
	}
	version, _, missing, release, err := inspect(ctx, path, false)
	if err != nil {
		return nil, fmt.Errorf("store: open %s read-only: %w", path, err)
	}
	db, err := openReadOnly(ctx, path, version)
	if err != nil {
		release()
		return nil, err
	}
	db.release, db.logMissing = release, missing
	return db, nil
}

// openReadOnly opens path, inspected at schema version, read-only.
func openReadOnly(ctx context.Context, path string, version int) (*DB, error) {
	if version < 1 {
		return nil, fmt.Errorf("store: open %s read-only: %w", path, ErrEmpty)
	}
	d, err := dsn(path, "mode=ro", "_pragma=busy_timeout(5000)", "_pragma=query_only(1)")
	if err != nil {
		return nil, fmt.Errorf("store: open %s read-only: %w", path, err)
	}
	sdb, err := sql.Open("sqlite", d)
	if err != nil {
		return nil, fmt.Errorf("store: open %s read-only: %w", path, err)
	}
	sdb.SetMaxOpenConns(1)
	sdb.SetMaxIdleConns(1)
	err = sdb.PingContext(ctx)
	if err != nil && sqliteCode(err) == sqlite3.SQLITE_READONLY && !hasWAL(path) {
		// A WAL-mode file in a folder that cannot take the -shm file (a
		// read-only mount, the appeals board's write-protected copy). With
		// no -wal file beside it no process is writing to it (a writer
		// would have to create both), so SQLite may read it as immutable.
		sdb.Close()
		if d, err = dsn(path, "mode=ro", "immutable=1", "_pragma=query_only(1)"); err != nil {
			return nil, fmt.Errorf("store: open %s read-only: %w", path, err)
		}
		if sdb, err = sql.Open("sqlite", d); err != nil {
			return nil, fmt.Errorf("store: open %s read-only: %w", path, err)
		}
		sdb.SetMaxOpenConns(1)
		sdb.SetMaxIdleConns(1)
		err = sdb.PingContext(ctx)
	}
	if err != nil {
		sdb.Close()
		return nil, fmt.Errorf("store: open %s read-only: %w", path, mapErr(err))
	}
	side := sideFiles(path)
	db := &DB{sql: sdb, path: path, side: side, walPath: side + "-wal", walPathZ: cPath(side + "-wal"), readOnly: true}
	db.noteOpened()
	db.afterOwnWrite()
	heldShm(path) // its identity now, as the connection has it (SideFileReplaced)
	return db, nil
}

// hasWAL reports whether a write-ahead log with content (or one that cannot
// be examined) sits next to path.
func hasWAL(path string) bool {
	st, err := os.Stat(sideFiles(path) + "-wal")
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return err != nil || st.Size() > 0
}

// ErrEmpty: a read-only open found a file with no event log in it yet.
var ErrEmpty error = refuse(CodeEmpty)

// migrate applies every embedded migration newer than the file's
// user_version, each in its own BEGIN IMMEDIATE transaction. The version is
// re-read inside the transaction, so two processes opening the same new file
// at once apply each migration exactly once.
//
// A file already at this binary's schema takes no write lock at all: a
// command that only reads (status, verify) is then an outside reader like
// any other, and never waits for, or holds up, the console's commits.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	var uv int
	if err := db.sql.QueryRowContext(ctx, "PRAGMA user_version").Scan(&uv); err == nil && uv == len(ms) {
		return nil
	}
	for _, m := range ms {
		if err := db.applyMigration(ctx, m); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}

func (db *DB) applyMigration(ctx context.Context, m migration) (err error) {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return mapErr(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		rollback(conn) // a BEGIN reported failed may have begun (conn.begin)
		return mapErr(err)
	}
	defer func() {
		if err != nil {
			rollback(conn)
		}
	}()
	var appID int64
	var uv int
	if err := conn.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return mapErr(err)
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&uv); err != nil {
		return mapErr(err)
	}
	if uv > SchemaVersion() {
		return ErrNewerSchema
	}
	if uv >= 1 && appID != ApplicationID {
		return ErrForeign
	}
	if uv >= m.version {
		_, err := conn.ExecContext(ctx, "COMMIT")
		return mapErr(err)
	}
	if uv != m.version-1 {
		return fmt.Errorf("file is at schema version %d, expected %d", uv, m.version-1)
	}
	if _, err := conn.ExecContext(ctx, m.sql); err != nil {
		return mapErr(err)
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
		return mapErr(err)
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return mapErr(err)
	}
	return nil
}

// rollback ends the transaction on conn whatever the state of the caller's
// context. If that fails the connection is discarded, so that a connection
// stuck inside a transaction never goes back to the pool.
func rollback(conn *sql.Conn) {
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		_ = conn.Raw(func(any) error { return errBadConn })
	}
}

// sqliteCode returns the primary SQLite result code in err, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

func isNotADB(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_NOTADB || c == sqlite3.SQLITE_CORRUPT
}

// mapErr maps SQLite failures that a user can act on to this package's
// sentinel errors, keeping the original error in the chain.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	if limit, ok := writeLimited(err); ok {
		// the file may grow no further in this process (RLIMIT_FSIZE,
		// ulimit -f): SQLite says the write the kernel refused (EFBIG)
		// "disk I/O error (778)" (writeLimited)
		return fmt.Errorf("%w (%w)", refuseWrapping([]error{ErrDiskFull}, CodeFileSizeLimit, sizeText(limit)), err)
	}
	switch sqliteCode(err) {
	case sqlite3.SQLITE_FULL:
		return fmt.Errorf("%w (%w)", ErrDiskFull, err)
	case sqlite3.SQLITE_READONLY:
		return fmt.Errorf("%w (%w)", ErrReadOnly, err)
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("%w (%w)", ErrCorrupt, err)
	case sqlite3.SQLITE_CONSTRAINT:
		// the only triggers that abort are the append-only guards
		// (migrations/0001_events.sql): told by the extended code, not by
		// SQLite's message
		var se *sqlite.Error
		if errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_TRIGGER {
			return fmt.Errorf("%w (%w)", ErrAppendOnly, err)
		}
	}
	return err
}
