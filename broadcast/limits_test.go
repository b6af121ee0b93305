package broadcast_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/broadcast"
)

// liveServer serves a record with a game in progress on 127.0.0.1 with
// opts (Serve: the limits, the timeouts, the poller) until the test ends.
func liveServer(t *testing.T, opts broadcast.Options) (*benchMatch, *broadcast.Server, string) {
	t.Helper()
	m := newBenchMatch(t)
	srv := newServer(t, m.path, opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return m, srv, ln.Addr().String()
}

// waitFor waits until the server has at most open connections open, at
// most within; it returns how long that took.
func waitFor(t *testing.T, srv *broadcast.Server, open int64, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		n, _ := srv.Conns()
		if n <= open {
			return time.Since(start)
		}
		if time.Since(start) > within {
			t.Fatalf("%d connection(s) still open after %s, want %d", n, within, open)
		}
	}
	return 0
}

// waitClosed waits until the server has no connection open.
func waitClosed(t *testing.T, srv *broadcast.Server, within time.Duration) time.Duration {
	t.Helper()
	return waitFor(t, srv, 0, within)
}

// openStream opens a spectator's event stream on a connection of its own
// and returns the stream (chunked encoding undone).
func openStream(addr string) (net.Conn, *bufio.Reader, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	if _, err := io.WriteString(c, "GET /events HTTP/1.1\r\nHost: hall\r\n\r\n"); err != nil {
		c.Close()
		return nil, nil, err
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	if res.StatusCode != 200 {
		c.Close()
		return nil, nil, fmt.Errorf("GET /events: %s", res.Status)
	}
	return c, bufio.NewReader(res.Body), nil
}

const request = "GET /games.pgn HTTP/1.1\r\nHost: hall\r\n\r\n"

// TestAReaderThatTakesNothingIsDropped: with short timeouts, each kind of
// reader that takes nothing is dropped after its timeout (and not before).
func TestAReaderThatTakesNothingIsDropped(t *testing.T) {
	lim := broadcast.Limits{ReadHeader: 400 * time.Millisecond, Read: 400 * time.Millisecond, Write: 400 * time.Millisecond, Idle: 400 * time.Millisecond}
	bound := lim.ReadHeader + lim.Write + lim.Idle + 5*time.Second // the timeouts, and the load of a shared machine
	for _, tc := range []struct {
		name string
		// act does what the reader does on its connection
		act func(t *testing.T, c net.Conn)
		min time.Duration // it is not dropped before this
	}{
		{"a connection that sends nothing is dropped after the header timeout", func(t *testing.T, c net.Conn) {}, lim.ReadHeader},
		{"half a request is dropped after the header timeout", func(t *testing.T, c net.Conn) {
			_, _ = io.WriteString(c, "GET /games.pgn HTTP/1.1\r\nHost: ")
		}, lim.ReadHeader},
		{"responses that are never read are cut after the write timeout", func(t *testing.T, c net.Conn) {
			// Thousands of requests at once: their answers fill every buffer
			// between the server and this reader, which reads none.
			_, _ = io.WriteString(c, strings.Repeat(request, 4000))
		}, lim.Write},
		{"a kept-alive connection without a request is closed after the idle timeout", func(t *testing.T, c net.Conn) {
			_, _ = io.WriteString(c, request)
			br := bufio.NewReader(c)
			line, _ := br.ReadString('\n')
			if !strings.Contains(line, "200") {
				t.Errorf("the request got %q", line)
			}
		}, lim.Idle},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, srv, addr := liveServer(t, broadcast.Options{Limits: lim})
			for i := 0; i < 30; i++ { // a PGN of some size
				m.move(t)
			}
			if err := srv.Refresh(context.Background()); err != nil {
				t.Fatal(err)
			}
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if tcp, ok := c.(*net.TCPConn); ok {
				_ = tcp.SetReadBuffer(4096)
			}
			start := time.Now()
			tc.act(t, c)
			waitClosed(t, srv, bound)
			took := time.Since(start)
			if took < tc.min-50*time.Millisecond {
				t.Errorf("dropped after %s, before its timeout of %s", took, tc.min)
			}
		})
	}
}

// TestAnOpenEventStreamIsNotIdle: a spectator page's event stream stays
// open for many times the idle and write timeouts, gets the clocks every
// heartbeat, and gets each new move.
func TestAnOpenEventStreamIsNotIdle(t *testing.T) {
	lim := broadcast.Limits{ReadHeader: 2 * time.Second, Read: 300 * time.Millisecond, Write: 300 * time.Millisecond, Idle: 300 * time.Millisecond}
	m, srv, addr := liveServer(t, broadcast.Options{Limits: lim, Heartbeat: 100 * time.Millisecond, Interval: 10 * time.Millisecond})
	c, br, err := openStream(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	first := readEvent(t, br)
	if !strings.Contains(first, "event: state") {
		t.Fatalf("the stream began with %q", first)
	}
	open := 4 * (lim.Idle + lim.Write + lim.Read)
	start, clocks, moved := time.Now(), 0, false
	for time.Since(start) < open {
		if !moved && time.Since(start) > open/2 {
			m.move(t)
			moved = true
		}
		ev := readEvent(t, br)
		switch {
		case strings.Contains(ev, "event: clock"):
			clocks++
		case strings.Contains(ev, "event: state") && strings.Contains(ev, `"white":"Nf3"`):
			moved = true
			if !strings.Contains(ev, `"white_clock":"`) {
				t.Errorf("the new move comes without its clock: %s", ev)
			}
		}
	}
	if n, _ := srv.Conns(); n != 1 {
		t.Errorf("%d connections open; the stream's should be", n)
	}
	if clocks < int(open/(100*time.Millisecond))/3 {
		t.Errorf("%d clock events in %s with a heartbeat of 100 ms", clocks, open)
	}
}

// TestTheDefaultsDropFiveHundredSlowReadersWithinAMinute repeats issue 24's
// attack on the default limits: 500 connections that ask for the PGN and
// never read, and 500 that send nothing, are all gone within 60 s.
func TestTheDefaultsDropFiveHundredSlowReadersWithinAMinute(t *testing.T) {
	d := broadcast.DefaultLimits
	if worst := max(d.ReadHeader, d.Read, d.Write+d.Idle); worst > time.Minute {
		t.Fatalf("the default limits keep a reader that takes nothing for up to %s", worst)
	}
	if d.MaxConns < 4000 {
		t.Fatalf("the default connection limit is %d, under 4,000", d.MaxConns)
	}
	t.Parallel()
	_, srv, addr := liveServer(t, broadcast.Options{})
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < 1000; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			_, _ = io.WriteString(c, request)
		}
		conns = append(conns, c)
	}
	took := waitClosed(t, srv, time.Minute)
	t.Logf("1,000 readers that take nothing dropped after %s", took)
}

// TestTheServerHoldsFourThousandSpectatorsAndRefusesBeyondItsLimit: 4,096
// spectators' event streams at once (the default limit) all get the page's
// state and then the next move; one connection more is answered 503 at
// once; when a spectator leaves, the next one gets in.
func TestTheServerHoldsFourThousandSpectatorsAndRefusesBeyondItsLimit(t *testing.T) {
	n := broadcast.DefaultLimits.MaxConns
	// This process holds both ends of each connection.
	if have, ok := broadcast.RaiseFileLimit(uint64(2*n + 512)); ok && have < uint64(2*n+512) {
		t.Fatalf("this process may open %d files; the test needs %d (both ends of %d connections): raise the hard limit (ulimit -Hn)", have, 2*n+512, n)
	}
	m, srv, addr := liveServer(t, broadcast.Options{Interval: 10 * time.Millisecond})
	if srv.Capacity() != n {
		t.Fatalf("the server takes %d connections, not its limit %d", srv.Capacity(), n)
	}
	conns, readers := openStreams(t, addr, n)
	if open, _ := srv.Conns(); open != int64(n) {
		t.Fatalf("%d connections open, want %d", open, n)
	}
	t.Run("one connection more is answered 503 and closed", func(t *testing.T) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(30 * time.Second))
		b, _ := io.ReadAll(c)
		if !strings.HasPrefix(string(b), "HTTP/1.1 503 ") || !strings.Contains(string(b), "Retry-After") {
			t.Errorf("the connection beyond the limit got %q", b)
		}
		if _, refused := srv.Conns(); refused != 1 {
			t.Errorf("%d refusals counted", refused)
		}
	})
	t.Run("every spectator gets the next move", func(t *testing.T) {
		seq := m.move(t)
		want := fmt.Sprintf("id: %d\n", seq)
		for i, br := range readers {
			_ = conns[i].SetReadDeadline(time.Now().Add(60 * time.Second))
			for {
				ev, err := nextEvent(br)
				if err != nil {
					t.Fatalf("spectator %d: %v", i, err)
				}
				if strings.Contains(ev, want) {
					break
				}
			}
		}
	})
	t.Run("when a spectator leaves the next one gets in", func(t *testing.T) {
		conns[0].Close()
		conns[0] = nil
		waitFor(t, srv, int64(n-1), 30*time.Second)
		c, br, err := openStream(addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if ev, err := nextEvent(br); err != nil || !strings.Contains(ev, "event: state") {
			t.Errorf("the new spectator got %q, %v", ev, err)
		}
	})
}

// openStreams opens n spectators' event streams at once (16 at a time),
// each on its own connection, reads the first state of each, and closes
// them when the test ends.
func openStreams(tb testing.TB, addr string, n int) ([]net.Conn, []*bufio.Reader) {
	tb.Helper()
	conns, readers := make([]net.Conn, n), make([]*bufio.Reader, n)
	tb.Cleanup(func() {
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
	})
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += 16 {
				c, br, err := openStream(addr)
				if err != nil {
					errs <- fmt.Errorf("spectator %d: %v", i, err)
					return
				}
				conns[i], readers[i] = c, br
				if ev, err := nextEvent(br); err != nil || !strings.Contains(ev, "event: state") {
					errs <- fmt.Errorf("spectator %d: %q, %v", i, ev, err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		tb.Fatal(err)
	}
	return conns, readers
}

// nextEvent reads the next server-sent event with data.
func nextEvent(br *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return b.String(), err
		}
		if line == "\n" || line == "\r\n" {
			if strings.Contains(b.String(), "data: ") {
				return b.String(), nil
			}
			b.Reset()
			continue
		}
		b.WriteString(line)
	}
}
