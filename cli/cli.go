// Package cli is Arbiter's command line: every action of the console, given
// as "arbiter [--db FILE] [--at TIME] [--as ROLE] [--pin PASSPHRASE]
// [--secret PASSPHRASE] [--key-file FILE] COMMAND [ARGS]",
// and scripts of such lines run by "arbiter play". It calls the same
// application commands (package match) as the console. The syntax is a
// contract documented in docs/cli.md.
package cli

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/service"
)

// Env is what a run of the command line needs from its surroundings.
type Env struct {
	Stdin          io.Reader // read by commands that take input lines (arbiter unwinnable); nil reads nothing
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Now            func() time.Time
	// Manifest is FyneApp.toml, embedded by package main; --version reads
	// the application's version and build number from it.
	Manifest []byte
}

// OSEnv is the process environment.
func OSEnv() Env {
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Now: time.Now}
}

// Global holds the options before the command (service.Global, which the
// console takes too).
type Global = service.Global

// command is one CLI command.
type command struct {
	name    string // "game start"
	usage   string
	roles   string // who may give it (for docs/cli.md and help)
	writes  bool   // appends events: opens (and creates) the database
	reads   bool   // reads an existing database without writing events
	summary string
	// parse turns a writing command's words into its value (match.Command;
	// nil: nothing to run, as for 'correct --preview'), which the core
	// runs (match.App.Do); told prints what it did (nil: nothing).
	parse func(r *runner, a *args) (match.Command, error)
	told  func(r *runner, res match.Result)
	// run runs every other command.
	run func(r *runner, a *args) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// Commands lists the commands, sorted by name.
func Commands() []*command {
	var cs []*command
	for _, c := range commands {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	return cs
}

// DefaultDB is the default database path: ARBITER_DB, else a file in the
// user's data directory ($XDG_DATA_HOME, ~/.local/share, or on Windows
// %LOCALAPPDATA% when HOME is unset).
func DefaultDB(getenv func(string) string) string {
	if p := getenv("ARBITER_DB"); p != "" {
		return p
	}
	dir := getenv("XDG_DATA_HOME")
	if dir == "" {
		home := getenv("HOME")
		switch {
		case home != "":
			dir = filepath.Join(home, ".local", "share")
		case getenv("LOCALAPPDATA") != "":
			dir = getenv("LOCALAPPDATA") // Windows, where HOME is usually unset
		default:
			dir = filepath.Join(".", ".local", "share")
		}
	}
	return filepath.Join(dir, "arbiter", "arbiter.db")
}

// runner carries one invocation (or one script) through its commands.
type runner struct {
	ctx    context.Context
	env    Env
	g      Global
	app    *match.App
	db     *service.DB
	inPlay bool
	note   *phrase.Error      // a recovery note armed for the command, told once it succeeded
	key    ed25519.PrivateKey // the key read from g.KeyFile
	warned bool               // the unprotected-match warning was given
	caNote string             // station serve: the match's CA it made, to write down, said once it serves
	// readOnly: the command only reads (readOnlyCommands).
	readOnly bool
	// roleGiven: --as was given (on the operator's laptop a command
	// without it is the operator's).
	roleGiven bool
	// send, in a script run on a station's record, sends a writing line to
	// the authority (stationScript).
	send func(words []string, g Global, roleGiven bool) error
}

// readOnlyCommands never write to the record: they open it read-only when it
// is write-protected and refuse what is not a regular file (--db /dev/null)
// before SQLite could put a journal beside it (service.OpenReadOnly). backup is
// not among them: it opens the record as the console does.
var readOnlyCommands = map[string]bool{"status": true, "verify": true, "export pgn": true, "export pdf": true}

// cmd is the match command context for the current line.
func (r *runner) cmd() match.Cmd {
	c := match.Cmd{At: r.g.At, Actor: match.Actor{Role: r.g.Role, PIN: r.g.PIN, Secret: r.g.Secret, Key: r.key}}
	if !r.g.AtSet && r.env.Now != nil {
		// "now" is read inside the write transaction (docs/store.md)
		now := r.env.Now
		c.Now = func() time.Time { return now().UTC() }
	} else if r.env.Now != nil {
		// an instant given: received now, on this machine's clock
		c.Received = r.env.Now().UTC()
	}
	c.Warn = func(w error) {
		if r.inPlay && r.warned {
			return // a script says it once, not at each of its lines
		}
		r.warned = true
		fmt.Fprintln(r.env.Stderr, "arbiter: warning: "+Sentence(w))
	}
	return c
}

func (r *runner) out(format string, a ...any) { fmt.Fprintf(r.env.Stdout, format, a...) }

// tell writes a line on standard error that tells what a command did or
// found besides its output (verify's counts, the head an export signed,
// where a report was written): information, so without the "arbiter: "
// that begins a refusal ("arbiter: Sentence.") and a warning ("arbiter:
// warning: …"); standard output stays the command's output (a PGN, a
// head) for a script to read (docs/cli.md, "What a command tells").
func (r *runner) tell(format string, a ...any) {
	fmt.Fprintf(r.env.Stderr, format+"\n", a...)
}

// Run runs the command line and returns the exit status.
//
// Exit statuses (docs/cli.md): 0 done; 1 refused, nothing written and
// nothing will be for it; 2 the console has no display; 3 committed at the
// authority of a station's match but not yet in this station's record
// (service.NotAppliedError): the command stands, and is not to be given
// again.
func Run(ctx context.Context, argv []string, env Env) int {
	if err := run(ctx, argv, env); err != nil {
		fmt.Fprintln(env.Stderr, "arbiter: "+Sentence(err))
		var notApplied *service.NotAppliedError
		if errors.As(err, &notApplied) {
			return ExitNotApplied
		}
		return 1
	}
	return 0
}

// ExitNotApplied is the exit status of a command committed at the
// authority whose station's record has not caught up in time.
const ExitNotApplied = 3

// Sentence turns an error into the one clear sentence shown to users, in
// the command line's words (words.go; phrase.Sentence).
func Sentence(err error) string { return phrase.Sentence(service.Coded(err), say) }

// HasCommand reports whether argv names a command (else the console opens).
func HasCommand(argv []string) bool {
	g, rest, err := parseGlobal(argv, func(string) string { return "" }, time.Now)
	_ = g
	return err != nil || len(rest) > 0
}

func parseGlobal(argv []string, getenv func(string) string, now func() time.Time) (Global, []string, error) {
	g := Global{Role: match.RoleArbiter}
	rest := []string{}
	for i := 0; i < len(argv); i++ {
		s := argv[i]
		name, val, hasVal := strings.Cut(strings.TrimPrefix(s, "--"), "=")
		if !strings.HasPrefix(s, "--") || !isGlobal(name) || ownFlag(name, rest) {
			rest = append(rest, s)
			continue
		}
		if !hasVal {
			if i+1 >= len(argv) {
				return g, nil, fmt.Errorf("--%s needs a value", name)
			}
			i++
			val = argv[i]
		}
		switch name {
		case "db":
			g.DB = val
		case "at":
			t, err := parseTime(val)
			if err != nil {
				return g, nil, err
			}
			g.At, g.AtSet = t, true
		case "as":
			r, err := parseRole(val)
			if err != nil {
				return g, nil, err
			}
			g.Role = r
		case "pin":
			g.PIN = val
		case "secret":
			g.Secret = val
		case "key-file":
			g.KeyFile = val
		}
	}
	if g.PIN == "" && getenv != nil {
		g.PIN = getenv("ARBITER_PIN") // kept out of the process list
	}
	if g.Secret == "" && getenv != nil {
		g.Secret = getenv("ARBITER_SECRET")
	}
	if g.DB == "" {
		g.DB = DefaultDB(getenv)
	}
	if !g.AtSet {
		g.At = now().UTC()
	}
	return g, rest, nil
}

func isGlobal(name string) bool {
	switch name {
	case "db", "at", "as", "pin", "secret", "key-file":
		return true
	}
	return false
}

// ownFlag reports whether a credential flag after the command words rest
// belongs to the command rather than being the global one: after "match
// new", --pin and --key-file are the new match's arbiter credential; after
// "credential add", --secret and --key-file are the credential handed out;
// after "arrive", --at is the instant of the arrival.
func ownFlag(name string, rest []string) bool {
	if len(rest) > 0 && rest[0] == "arrive" {
		return name == "at" // the instant of the arrival, not the command's
	}
	if len(rest) < 2 {
		return false
	}
	switch rest[0] + " " + rest[1] {
	case "match new":
		return name == "pin" || name == "key-file"
	case "credential add":
		return name == "secret" || name == "key-file"
	}
	return false
}

func parseRole(s string) (match.Role, error) {
	switch r := match.Role(strings.ToLower(s)); r {
	case match.RoleArbiter, match.RoleOperator, match.RoleWhite, match.RoleBlack:
		return r, nil
	}
	return "", fmt.Errorf("--as %q is not a role: use arbiter, operator, white or black", s)
}

// lookup finds the command named by the first one or two words.
func lookup(words []string) (*command, []string, error) {
	if len(words) == 0 {
		return nil, nil, fmt.Errorf("no command given: see 'arbiter help'")
	}
	if len(words) >= 2 {
		if c, ok := commands[words[0]+" "+words[1]]; ok {
			return c, words[2:], nil
		}
	}
	if c, ok := commands[words[0]]; ok {
		return c, words[1:], nil
	}
	var subs []string
	for name := range commands {
		if strings.HasPrefix(name, words[0]+" ") {
			subs = append(subs, strings.TrimPrefix(name, words[0]+" "))
		}
	}
	if len(subs) > 0 {
		sort.Strings(subs)
		if len(words) == 1 {
			return nil, nil, fmt.Errorf("%s needs one of: %s", words[0], strings.Join(subs, ", "))
		}
		return nil, nil, fmt.Errorf("%q is not one of the %s commands: use one of %s", words[1], words[0], strings.Join(subs, ", "))
	}
	if near := nearestCommand(words[0]); near != "" {
		return nil, nil, fmt.Errorf("%q is not a command: did you mean '%s'? See 'arbiter help'", words[0], near)
	}
	return nil, nil, fmt.Errorf("%q is not a command: see 'arbiter help'", words[0])
}

// nearestCommand is the command word a mistyped word is nearest to (at most
// two letters typed wrong, left out, added or swapped: "moev", "staus"),
// or "" when none is that near.
func nearestCommand(word string) string {
	best, bestD := "", 3
	seen := map[string]bool{}
	for _, c := range Commands() { // sorted: the first of equally near ones
		w := strings.Fields(c.name)[0]
		if seen[w] {
			continue
		}
		seen[w] = true
		if d := typoDistance(strings.ToLower(word), w); d < bestD {
			best, bestD = w, d
		}
	}
	return best
}

// typoDistance counts the letters typed wrong, left out, added or swapped
// with their neighbour between a and b (optimal string alignment).
func typoDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

func isHelpFlag(s string) bool { return s == "--help" || s == "-h" }

func run(ctx context.Context, argv []string, env Env) error {
	g, rest, err := parseGlobal(argv, env.Getenv, env.Now)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0 && isHelpFlag(rest[0]):
		// arbiter --help, arbiter -h [COMMAND]: the same as arbiter help
		rest = append([]string{"help"}, rest[1:]...)
	case len(rest) > 0 && rest[0] == "--version":
		if len(rest) > 1 {
			return fmt.Errorf("--version takes nothing after it: give 'arbiter --version' alone")
		}
		fmt.Fprintln(env.Stdout, VersionLine(env.Manifest))
		fmt.Fprintln(env.Stdout, LicenceLine)
		return nil
	case len(rest) >= 2 && isHelpFlag(rest[1]) && commands[rest[0]] == nil && len(groupCommands(rest[0])) > 0:
		// arbiter export --help: the commands of the group
		rest = []string{"help", rest[0]}
	}
	c, cargs, err := lookup(rest)
	if err != nil {
		return err
	}
	if c.writes && c.name != "play" && IsStation(g.DB) { // a station's record: the authority runs it (cli/station.go)
		return forward(ctx, env, g, rest, argv)
	}
	r := &runner{ctx: ctx, env: env, g: g, roleGiven: asGiven(argv)}
	defer r.close()
	if err := r.loadKey(); err != nil {
		return err
	}
	return r.exec(c, cargs)
}

// asGiven reports whether argv names the role (--as).
func asGiven(argv []string) bool {
	for _, a := range argv {
		if a == "--as" || strings.HasPrefix(a, "--as=") {
			return true
		}
	}
	return false
}

func (r *runner) close() {
	if r.db != nil {
		r.db.Close()
		r.db, r.app = nil, nil
	}
}

// open opens the database once per invocation. Commands that only read
// require an existing file.
func (r *runner) open(create bool) error {
	if r.app != nil {
		return nil
	}
	if !create {
		if err := r.needDatabase(); err != nil {
			return err
		}
	} else if err := os.MkdirAll(filepath.Dir(r.g.DB), 0o755); err != nil {
		return fmt.Errorf("cannot create the folder for %s: %v", r.g.DB, err)
	}
	var app *match.App
	var err error
	if r.readOnly && !create && !service.Writable(r.g.DB) {
		app, err = service.OpenReadOnly(r.ctx, r.g.DB)
	} else {
		app, err = service.Open(r.ctx, r.g.DB)
	}
	if err != nil {
		return err
	}
	r.db, r.app = app.DB(), app
	if !r.inPlay {
		r.recoveryNotice(create)
	}
	return nil
}

// needDatabase refuses, in one sentence, a command that only reads when
// there is no file at --db (the same for every reading command: status,
// verify, broadcast, …).
func (r *runner) needDatabase() error {
	if _, err := os.Stat(r.g.DB); err != nil {
		return fmt.Errorf("there is no database at %s: create a match with 'arbiter match new' or give --db", r.g.DB)
	}
	return nil
}

// discardFresh removes the database file a refused command made (with its
// journal files), provided it holds no event, and the folders it made for
// it up to made ("" for none): a refused command changes nothing, and
// leaves no empty record behind on a new path.
func (r *runner) discardFresh(made string) {
	if r.db == nil {
		return
	}
	if seq, _, err := r.db.Head(r.ctx); err != nil || seq != 0 {
		return
	}
	r.close()
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		_ = os.Remove(r.g.DB + suffix)
	}
	if made == "" {
		return
	}
	for dir := filepath.Dir(r.g.DB); ; dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil || dir == made { // a folder that is not empty stays
			return
		}
	}
}

// recoveryNotice tells about a console that went away while a clock ran. A
// command that writes does not log the recovery itself: the note is armed
// and written by the command, in its transaction and at its --at, and told
// only once the command succeeded (a refused command changes nothing and
// says one sentence).
func (r *runner) recoveryNotice(write bool) {
	check := func() (*phrase.Error, error) { return r.app.CheckRecovery(r.ctx, r.env.Now().UTC(), false) }
	if write {
		check = func() (*phrase.Error, error) { return r.app.ArmRecovery(r.ctx, r.env.Now().UTC()) }
	}
	msg, err := check()
	if err != nil {
		fmt.Fprintln(r.env.Stderr, "arbiter: "+Sentence(err))
		return
	}
	if msg == nil {
		return
	}
	if write {
		r.note = msg
		return
	}
	fmt.Fprintln(r.env.Stderr, "arbiter: warning: "+Sentence(msg)) // for the arbiter to act on, not a refusal
}

func (r *runner) exec(c *command, words []string) error {
	a, err := parseArgs(words, boolFlags...)
	if err != nil {
		return fmt.Errorf("%s: %v", c.name, err)
	}
	if a.bool("help") || a.bool("h") {
		r.out("usage: arbiter %s\n%s\nGiven by: %s\n", c.usage, c.summary, c.roles)
		return nil
	}
	// a command that makes the file (and its folders): a refusal takes
	// them away again
	fresh, made := false, ""
	if c.writes || c.reads {
		r.readOnly = readOnlyCommands[c.name] && (!r.inPlay || r.send != nil)
		if c.writes && r.app == nil {
			_, err := os.Stat(r.g.DB)
			fresh = errors.Is(err, fs.ErrNotExist)
			for dir := filepath.Dir(r.g.DB); fresh; dir = filepath.Dir(dir) {
				if _, err := os.Stat(dir); err == nil || filepath.Dir(dir) == dir {
					break
				}
				made = dir // the outermost folder open makes
			}
		}
		if err := r.open(c.writes); err != nil {
			return err
		}
	}
	if err := r.runCommand(c, a); err != nil {
		if fresh {
			r.discardFresh(made)
		}
		return err
	}
	if r.note != nil {
		fmt.Fprintln(r.env.Stderr, "arbiter: warning: "+Sentence(r.note)) // for the arbiter to act on, not a refusal
		r.note = nil
	}
	return nil
}

// runCommand runs c: a writing command as its value through the core,
// every other by its own function.
func (r *runner) runCommand(c *command, a *args) error {
	if c.parse == nil {
		return c.run(r, a)
	}
	cmd, err := c.parse(r, a)
	if err != nil || cmd == nil {
		return err
	}
	res, err := r.app.Do(r.ctx, r.cmd(), cmd)
	if err != nil {
		return err
	}
	if c.told != nil {
		c.told(r, res)
	}
	return nil
}

// boolFlags are the flags that take no value.
var boolFlags = []string{"json", "pressed", "call", "order-unknown", "no-bonus", "in-hall", "remote", "v", "h", "help", "verbose", "epoch",
	"not-engine", "ponder", "play", "pondered"}

// ConsoleOptions reads the global options given when no command is: the
// database path and the role the console starts in.
func ConsoleOptions(argv []string, getenv func(string) string, now func() time.Time) (string, Global, error) {
	g, rest, err := parseGlobal(argv, getenv, now)
	if err != nil {
		return "", g, err
	}
	if len(rest) > 0 {
		return "", g, fmt.Errorf("%q is not a command: see 'arbiter help'", rest[0])
	}
	return g.DB, g, nil
}

// count says n things: "1 event", "2 events".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
