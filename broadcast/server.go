package broadcast

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"arbiter/assets"
	"arbiter/clock"
	"arbiter/match"
	"arbiter/store"
)

//go:embed web
var webFS embed.FS

var page = template.Must(template.New("page.html").Funcs(template.FuncMap{
	"clock": func(ms int64) string { return clock.FormatShown(time.Duration(ms) * time.Millisecond) },
}).ParseFS(webFS, "web/page.html"))

// assetVersion names the embedded style, scripts and font: the page asks
// for /assets/app.js?v=VERSION, so a cache may keep them for a year and a
// new binary's page still gets its own. Computed on first use (the font is
// large; most commands never serve a page).
var assetVersion = sync.OnceValue(func() string {
	h := sha256.New()
	_ = fs.WalkDir(webFS, "web", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := webFS.ReadFile(p)
			h.Write([]byte(p))
			h.Write(b)
		}
		return nil
	})
	h.Write(assets.DejaVuSans)
	return hex.EncodeToString(h.Sum(nil))[:12]
})

// DefaultInterval is the poller's default interval.
const DefaultInterval = 100 * time.Millisecond

// DefaultHeartbeat is how often an open event stream gets the clocks read
// afresh when nothing else happens.
const DefaultHeartbeat = 5 * time.Second

// Source is where a Server reads the record: the process's own SQLite
// connection to it (a *store.DB, opened through service/). The server
// never opens the record's file itself.
type Source interface {
	Head(ctx context.Context) (seq int64, hash string, err error)
	EventsAfter(ctx context.Context, seq int64) ([]store.Event, error)
}

// Options configure a Server.
type Options struct {
	// Interval is how often the poller asks the record for its last seq;
	// default 100 ms (a commit is visible within Interval plus a rebuild,
	// or at once after Changed).
	Interval time.Duration
	// Now is the instant a view is read at (default time.Now): the clocks
	// are derived from the record at that instant, never sampled.
	Now func() time.Time
	// Delay is the transmission delay: every route serves the match as it
	// stood Delay ago (CheckDelay bounds it). 0 serves every committed
	// event at once.
	Delay time.Duration
	// Heartbeat is how often an open event stream gets the clocks read
	// afresh; default DefaultHeartbeat. The page stops ticking when it has
	// heard nothing for two heartbeats.
	Heartbeat time.Duration
	// Limits are Serve's timeouts and connection limit (zero fields:
	// DefaultLimits).
	Limits Limits
}

// Server serves one record. Create it with New, run its poller with Run or
// call Refresh, and serve Handler (Serve does both).
type Server struct {
	src  Source
	opts Options

	mu      sync.Mutex   // guards the poller's fields below
	st      *match.State // the record up to the served instant
	read    int64        // seq of the last event read from the record
	pending []store.Event
	mark    feedMark // the last event applied that the feed shows
	snap    atomic.Pointer[snapshot]
	held    atomic.Int64 // seq of the last event applied, shown or not

	kick chan struct{}
	done chan struct{} // closed when Serve ends: open streams return
	stop sync.Once
	capN int // connections served at once (Limits.MaxConns, or less if the system allows fewer files)

	conns atomic.Int64 // connections open now (Serve)
	full  atomic.Int64 // connections refused because the limit was reached

	subMu sync.Mutex
	subs  []chan int64
}

// snapshot is what requests read: immutable once stored.
type snapshot struct {
	seq      int64
	etag     string
	modified time.Time // Last-Modified, whole seconds; zero: none
	all      []byte
	games    map[int][]byte
	view     view
	stream   map[string][]byte // the page's "state" event per language, read at publication
	next     chan struct{}     // closed when a newer snapshot replaces this one
}

// New is a server for the record src (the process's own read handle of it,
// from service.OpenReadOnly, or the console's own). It reads the
// record once before returning.
func New(ctx context.Context, src Source, opts Options) (*Server, error) {
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = DefaultHeartbeat
	}
	if err := CheckDelay(opts.Delay); err != nil {
		return nil, err
	}
	opts.Limits = opts.Limits.withDefaults()
	s := &Server{src: src, opts: opts, st: match.NewState(), kick: make(chan struct{}, 1), done: make(chan struct{})}
	s.capN = capacity(opts.Limits.MaxConns)
	if err := s.Refresh(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Seq is the seq of the last event the server holds (applied to its view
// of the record), whether or not the feed shows it (shown): the served
// snapshot names the last event it shows.
func (s *Server) Seq() int64 { return s.held.Load() }

// Delay is the transmission delay the server keeps.
func (s *Server) Delay() time.Duration { return s.opts.Delay }

// Capacity is how many connections Serve keeps open at once: the limit
// asked for, or fewer when the system allows this process fewer open files
// (each connection is one).
func (s *Server) Capacity() int { return s.capN }

// Conns is the number of connections Serve has open now, and how many it
// refused so far because Capacity was reached.
func (s *Server) Conns() (open, refused int64) { return s.conns.Load(), s.full.Load() }

// Updated returns a channel that receives the seq of each new snapshot
// (buffered; a slow reader misses intermediate seqs, never the latest).
func (s *Server) Updated() <-chan int64 {
	c := make(chan int64, 1)
	s.subMu.Lock()
	s.subs = append(s.subs, c)
	s.subMu.Unlock()
	return c
}

// Changed tells the poller that the record has changed (the console calls
// it after each commit): it reads the record now rather than at its next
// tick.
func (s *Server) Changed() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// served is the instant the served view stands at when it is read at now:
// now − Delay.
func (s *Server) served(now time.Time) time.Time { return now.Add(-s.opts.Delay) }

// Refresh reads the events after the last one read and publishes a new
// snapshot when the served view changed: with a delay, the events whose
// instant is at most now − Delay, in the record's order (an event waits
// for every event before it, so the view is always the record up to one
// event, exactly as it stood then). Run calls it every Interval and when
// the next held-back event falls due; tests may call it directly.
func (s *Server) Refresh(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	reset, err := s.readNew(ctx)
	if err != nil {
		return err
	}
	if reset {
		s.mark = feedMark{}
	}
	applied, err := s.advance(s.opts.Now())
	if (applied || reset || s.snap.Load() == nil) && s.st != nil {
		s.publish()
	}
	s.held.Store(s.st.Seq) // events the feed does not show: held, nothing published
	return err
}

// readNew appends the events committed since the last read to pending.
func (s *Server) readNew(ctx context.Context) (reset bool, err error) {
	seq, _, err := s.src.Head(ctx)
	if err != nil {
		return false, err
	}
	if seq == s.read {
		return false, nil
	}
	if seq < s.read {
		// A different record under the same name: start again.
		s.st, s.read, s.pending, reset = match.NewState(), 0, nil, true
	}
	evs, err := s.src.EventsAfter(ctx, s.read)
	if err != nil {
		return reset, err
	}
	s.pending = append(s.pending, evs...)
	if n := len(evs); n > 0 {
		s.read = evs[n-1].Seq
	}
	return reset, nil
}

// advance applies the pending events that are public at now: all of them
// without a delay; with one, those up to the first whose instant is later
// than now − Delay. applied is whether one of them is an event the feed
// shows (shown): only such an event makes a new snapshot.
func (s *Server) advance(now time.Time) (applied bool, err error) {
	cut := s.served(now)
	n := 0
	for _, e := range s.pending {
		if s.opts.Delay > 0 && e.At.After(cut) {
			break
		}
		if err = s.st.Apply(e); err != nil {
			break
		}
		n++
		if shown(e) {
			at := s.mark.at
			if e.At.After(at) {
				at = e.At
			}
			s.mark, applied = feedMark{seq: e.Seq, head: e.Hash, at: at}, true
		}
	}
	s.pending = s.pending[n:]
	if len(s.pending) == 0 {
		s.pending = nil
	}
	return applied, err
}

// nextDue is the instant the first held-back event becomes public.
func (s *Server) nextDue() (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts.Delay == 0 || len(s.pending) == 0 {
		return time.Time{}, false
	}
	return s.pending[0].At.Add(s.opts.Delay), true
}

// publish builds the snapshot of s.st and makes it the one served.
func (s *Server) publish() {
	snap := build(s.st, s.mark)
	// Last-Modified has whole seconds: two commits in one second would look
	// unchanged to a poller that sends only If-Modified-Since. Each new
	// snapshot is therefore at least a second after the one before (and
	// with a delay the header is left out until the served instant has
	// reached it: see lastModified).
	snap.modified = snap.modified.Truncate(time.Second)
	prev := s.snap.Load()
	if prev != nil && !prev.modified.IsZero() && !snap.modified.After(prev.modified) {
		snap.modified = prev.modified.Add(time.Second)
	}
	at := s.served(s.opts.Now())
	snap.stream = map[string][]byte{}
	for _, l := range []string{"en", "de"} {
		snap.stream[l] = stateEvent(snap, snap.view.at(at, l, s.opts.Delay))
	}
	s.snap.Store(snap)
	s.held.Store(s.st.Seq) // before anyone is told: Seq never runs ahead of the snapshot
	if prev != nil {
		close(prev.next)
	}
	s.subMu.Lock()
	for _, c := range s.subs {
		select {
		case <-c:
		default:
		}
		c <- snap.seq
	}
	s.subMu.Unlock()
}

// Run polls the record every Interval, and publishes each held-back event
// the moment it becomes public, until ctx ends. A failed poll is retried at
// the next tick; the last good snapshot stays served.
func (s *Server) Run(ctx context.Context) {
	t := time.NewTimer(s.opts.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.kick:
		}
		_ = s.Refresh(ctx)
		wait := s.opts.Interval
		if due, ok := s.nextDue(); ok {
			wait = min(wait, max(due.Sub(s.opts.Now()), time.Millisecond))
		}
		t.Reset(wait)
	}
}

// build is the snapshot of st as the feed shows it: named by (ETag), dated
// by (Last-Modified) and with its clock tags read at mark, the last event
// it shows.
func build(st *match.State, mark feedMark) *snapshot {
	sn := &snapshot{seq: mark.seq, modified: mark.at, games: map[int][]byte{}, next: make(chan struct{})}
	head := mark.head
	if len(head) > 16 {
		head = head[:16]
	}
	sn.etag = fmt.Sprintf(`"%d-%s"`, mark.seq, head)
	sn.all = relayPGN(st, 0, mark.at)
	for _, g := range st.Games {
		if g.Sheet != nil {
			sn.games[g.Number] = relayPGN(st, g.Number, mark.at)
		}
	}
	sn.view = makeView(st)
	sn.view.seq = mark.seq
	return sn
}

// Handler serves the routes of the package documentation.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/games.pgn", s.servePGN)
	mux.HandleFunc("/game/", s.serveGamePGN)
	mux.HandleFunc("/state.json", s.serveState)
	mux.HandleFunc("/events", s.serveEvents)
	static, _ := fs.Sub(webFS, "web")
	files := http.StripPrefix("/assets/", http.FileServer(http.FS(static)))
	mux.HandleFunc("/assets/", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".html") || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		// Named by the binary's version (?v=): a cache may keep them.
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		w.Header().Set("ETag", `"`+assetVersion()+`"`)
		if r.URL.Path == "/assets/dejavu.ttf" {
			w.Header().Set("Content-Type", "font/ttf")
			http.ServeContent(w, r, "dejavu.ttf", time.Time{}, bytes.NewReader(assets.DejaVuSans))
			return
		}
		files.ServeHTTP(w, r)
	})
	mux.HandleFunc("/", s.servePage)
	return readOnly(mux)
}

// readOnly refuses every method but GET and HEAD and sets the headers every
// response carries.
func readOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'; font-src 'self'; connect-src 'self'")
		hd.Set("Referrer-Policy", "no-referrer")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			hd.Set("Allow", "GET, HEAD")
			hd.Set("Cache-Control", "no-store")
			http.Error(w, "the broadcast is read-only: use GET or HEAD", http.StatusMethodNotAllowed)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (s *Server) servePGN(w http.ResponseWriter, r *http.Request) {
	sn := s.snap.Load()
	s.servePGNBytes(w, r, sn, "games.pgn", sn.all)
}

func (s *Server) serveGamePGN(w http.ResponseWriter, r *http.Request) {
	sn := s.snap.Load()
	name := strings.TrimPrefix(r.URL.Path, "/game/")
	num, ok := strings.CutSuffix(name, ".pgn")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 1 {
		http.NotFound(w, r)
		return
	}
	b, ok := sn.games[n]
	if !ok {
		w.Header().Set("Cache-Control", "public, max-age=5")
		http.Error(w, fmt.Sprintf("game %d has not started", n), http.StatusNotFound)
		return
	}
	s.servePGNBytes(w, r, sn, name, b)
}

// pgnCacheControl lets any cache serve one copy of a PGN route to every
// poller for a second, then revalidate (ETag, 304): a move reaches the
// pollers at most a second late, never early.
const pgnCacheControl = "public, max-age=1, must-revalidate"

func (s *Server) servePGNBytes(w http.ResponseWriter, r *http.Request, sn *snapshot, name string, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	h.Set("Cache-Control", pgnCacheControl)
	h.Set("ETag", sn.etag)
	h.Set("Access-Control-Allow-Origin", "*") // broadcasters' web pages may read it
	// ServeContent answers If-None-Match / If-Modified-Since with 304.
	http.ServeContent(w, r, name, s.lastModified(sn), bytes.NewReader(b))
}

// lastModified is the snapshot's Last-Modified, or none while it would be
// later than the served instant (a delayed feed never names an instant
// after the one it shows).
func (s *Server) lastModified(sn *snapshot) time.Time {
	if s.opts.Delay > 0 && sn.modified.After(s.served(s.opts.Now())) {
		return time.Time{}
	}
	return sn.modified
}

func (s *Server) serveState(w http.ResponseWriter, r *http.Request) {
	sn := s.snap.Load()
	v := sn.view.at(s.served(s.opts.Now()), lang(r), s.opts.Delay)
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store") // the clocks are read at the instant of the request
	h.Set("Vary", "Accept-Language")
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	sn := s.snap.Load()
	v := sn.view.at(s.served(s.opts.Now()), lang(r), s.opts.Delay)
	var b bytes.Buffer
	if err := page.Execute(&b, pageData{View: v, Assets: assetVersion()}); err != nil {
		http.Error(w, "the page could not be built: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache") // its clocks are read at the request; the stream keeps it current
	h.Set("Vary", "Accept-Language")
	_, _ = w.Write(b.Bytes())
}

// pageData is what the page's template gets.
type pageData struct {
	View
	Assets string
}

// lang is "de" when ?lang=de or the browser prefers German, else "en".
func lang(r *http.Request) string {
	switch q := r.URL.Query().Get("lang"); q {
	case "de", "en":
		return q
	}
	al := strings.ToLower(strings.TrimSpace(r.Header.Get("Accept-Language")))
	if strings.HasPrefix(al, "de") {
		return "de"
	}
	return "en"
}

// CheckListen validates a --listen address: a host (name or IP) and a port.
// There is no default host: the arbiter chooses the network.
func CheckListen(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return fmt.Errorf("%q is not an address to listen on: give HOST:PORT, e.g. 127.0.0.1:8080 or the hall network's address", addr)
	}
	if host == "" {
		return fmt.Errorf("%q names no host: give the address to listen on, e.g. 127.0.0.1:8080 or the hall network's address", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%q has no valid port: give a port from 1 to 65535", addr)
	}
	return nil
}

// MaxDelay is the longest transmission delay a broadcast keeps.
const MaxDelay = 24 * time.Hour

// ParseDelay reads a --delay value: a Go duration ("15m", "90s", "1h30m")
// or 0, from 0 to MaxDelay.
func ParseDelay(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a delay: give a duration such as 15m, 90s or 1h30m, or 0 for none", s)
	}
	return d, CheckDelay(d)
}

// CheckDelay refuses a negative delay or one longer than MaxDelay.
func CheckDelay(d time.Duration) error {
	if d < 0 || d > MaxDelay {
		return fmt.Errorf("a delay of %s is out of range: give a duration from 0 to 24h, e.g. 15m", d)
	}
	return nil
}

// Serve runs the poller and serves on ln until ctx ends, with Limits'
// timeouts and at most Capacity connections at once.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	l := s.opts.Limits
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: l.ReadHeader,
		ReadTimeout:       l.Read,
		WriteTimeout:      l.Write,
		IdleTimeout:       l.Idle,
		MaxHeaderBytes:    16 << 10,
	}
	hs.RegisterOnShutdown(s.endStreams)
	go s.Run(ctx)
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if hs.Shutdown(sctx) != nil {
			_ = hs.Close()
		}
	}()
	err := hs.Serve(s.limit(ln))
	s.endStreams()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// endStreams ends every open event stream (Serve is ending).
func (s *Server) endStreams() { s.stop.Do(func() { close(s.done) }) }
