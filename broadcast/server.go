package broadcast

import (
	"bytes"
	"context"
	"embed"
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
	"arbiter/report"
	"arbiter/store"
)

//go:embed web
var webFS embed.FS

var page = template.Must(template.New("page.html").Funcs(template.FuncMap{
	"clock": func(ms int64) string { return clock.FormatShown(time.Duration(ms) * time.Millisecond) },
}).ParseFS(webFS, "web/page.html"))

// DefaultInterval is the poller's default interval.
const DefaultInterval = 100 * time.Millisecond

// Options configure a Server.
type Options struct {
	// Interval is how often the poller asks the record for its last seq;
	// default 100 ms (a commit is visible within Interval plus a rebuild).
	Interval time.Duration
	// Now is the instant a spectator view is read at (default time.Now): the
	// clocks are derived from the record at that instant, never sampled.
	Now func() time.Time
}

// Server serves one record. Create it with New, run its poller with Run or
// call Refresh, and serve Handler.
type Server struct {
	db   *store.DB
	opts Options

	mu   sync.Mutex // guards st and seq (the poller's own)
	st   *match.State
	seq  int64
	snap atomic.Pointer[snapshot]

	subMu sync.Mutex
	subs  []chan int64
}

// snapshot is what requests read: immutable once stored.
type snapshot struct {
	seq      int64
	etag     string
	modified time.Time
	all      []byte
	games    map[int][]byte
	view     view
}

// New is a server for the record db (open it with store.OpenReadOnly). It
// reads the record once before returning.
func New(ctx context.Context, db *store.DB, opts Options) (*Server, error) {
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Server{db: db, opts: opts, st: match.NewState()}
	if err := s.Refresh(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Seq is the seq of the last event the served snapshot holds.
func (s *Server) Seq() int64 { return s.snap.Load().seq }

// Updated returns a channel that receives the seq of each new snapshot
// (buffered; a slow reader misses intermediate seqs, never the latest).
func (s *Server) Updated() <-chan int64 {
	c := make(chan int64, 1)
	s.subMu.Lock()
	s.subs = append(s.subs, c)
	s.subMu.Unlock()
	return c
}

// Refresh reads the events after the last one applied and, if there are
// any, builds and publishes a new snapshot. The poller calls it every
// Interval; tests may call it directly.
func (s *Server) Refresh(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	seq, _, err := s.db.Head(ctx)
	if err != nil {
		return err
	}
	if seq == s.seq && s.snap.Load() != nil {
		return nil
	}
	if seq < s.seq {
		// A different record under the same name: start again.
		s.st, s.seq = match.NewState(), 0
	}
	evs, err := s.db.EventsAfter(ctx, s.seq)
	if err != nil {
		return err
	}
	for _, e := range evs {
		if err := s.st.Apply(e); err != nil {
			return err
		}
		s.seq = e.Seq
	}
	snap := build(s.st)
	// Last-Modified has whole seconds: two commits in one second would look
	// unchanged to a poller that sends only If-Modified-Since. Each new
	// snapshot is therefore at least a second after the one before.
	snap.modified = snap.modified.Truncate(time.Second)
	if prev := s.snap.Load(); prev != nil && !snap.modified.After(prev.modified) {
		snap.modified = prev.modified.Add(time.Second)
	}
	s.snap.Store(snap)
	s.subMu.Lock()
	for _, c := range s.subs {
		select {
		case <-c:
		default:
		}
		c <- snap.seq
	}
	s.subMu.Unlock()
	return nil
}

// Run polls the record every Interval until ctx ends. A failed poll is
// retried at the next tick; the last good snapshot stays served.
func (s *Server) Run(ctx context.Context) {
	t := time.NewTicker(s.opts.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = s.Refresh(ctx)
		}
	}
}

func build(st *match.State) *snapshot {
	sn := &snapshot{seq: st.Seq, modified: st.LastAt, games: map[int][]byte{}}
	head := st.Head
	if len(head) > 16 {
		head = head[:16]
	}
	sn.etag = fmt.Sprintf(`"%d-%s"`, st.Seq, head)
	var b bytes.Buffer
	if err := report.WritePGN(&b, st, 0); err == nil {
		sn.all = b.Bytes()
	} else {
		sn.all = []byte{}
	}
	for _, g := range st.Games {
		if g.Sheet == nil {
			continue
		}
		var gb bytes.Buffer
		if err := report.WritePGN(&gb, st, g.Number); err == nil {
			sn.games[g.Number] = gb.Bytes()
		}
	}
	sn.view = makeView(st)
	return sn
}

// Handler serves the routes of the package documentation.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/games.pgn", s.servePGN)
	mux.HandleFunc("/game/", s.serveGamePGN)
	mux.HandleFunc("/state.json", s.serveState)
	static, _ := fs.Sub(webFS, "web")
	files := http.StripPrefix("/assets/", http.FileServer(http.FS(static)))
	mux.HandleFunc("/assets/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/assets/dejavu.ttf" {
			w.Header().Set("Content-Type", "font/ttf")
			http.ServeContent(w, r, "dejavu.ttf", time.Time{}, bytes.NewReader(assets.DejaVuSans))
			return
		}
		if strings.HasSuffix(r.URL.Path, ".html") || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
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
			http.Error(w, "the broadcast is read-only: use GET or HEAD", http.StatusMethodNotAllowed)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (s *Server) servePGN(w http.ResponseWriter, r *http.Request) {
	sn := s.snap.Load()
	servePGNBytes(w, r, sn, "games.pgn", sn.all)
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
		http.Error(w, fmt.Sprintf("game %d has not started", n), http.StatusNotFound)
		return
	}
	servePGNBytes(w, r, sn, name, b)
}

func servePGNBytes(w http.ResponseWriter, r *http.Request, sn *snapshot, name string, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", sn.etag)
	h.Set("Access-Control-Allow-Origin", "*") // broadcasters' web pages may read it
	// ServeContent answers If-None-Match / If-Modified-Since with 304.
	http.ServeContent(w, r, name, sn.modified, bytes.NewReader(b))
}

func (s *Server) serveState(w http.ResponseWriter, r *http.Request) {
	sn := s.snap.Load()
	v := sn.view.at(s.opts.Now(), lang(r))
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	sn := s.snap.Load()
	v := sn.view.at(s.opts.Now(), lang(r))
	var b bytes.Buffer
	if err := page.Execute(&b, v); err != nil {
		http.Error(w, "the page could not be built: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b.Bytes())
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

// Serve runs the poller and serves on ln until ctx ends.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 60 * time.Second}
	go s.Run(ctx)
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
