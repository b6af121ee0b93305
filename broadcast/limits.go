package broadcast

import (
	"net"
	"strconv"
	"sync"
	"time"
)

// Limits are the server's timeouts and connection limit. A connection that
// sends no request is dropped after ReadHeader; a response the client does
// not take is cut after Write; a kept-alive connection without a request
// is closed after Idle. So a reader that takes nothing is gone within
// max(ReadHeader, Write + Idle) — under a minute with DefaultLimits. An
// event stream (the page's /events) is not idle: each of its writes has
// Write to get through, however long it stays open.
type Limits struct {
	ReadHeader time.Duration // to send the request's headers
	Read       time.Duration // to send the whole request
	Write      time.Duration // to take a response, or each write of an event stream
	Idle       time.Duration // between requests on a kept-alive connection
	MaxConns   int           // connections open at once; more are answered 503 and closed
}

// DefaultLimits: a reader that takes nothing is dropped within 40 s; 4,096
// connections at once.
var DefaultLimits = Limits{
	ReadHeader: 10 * time.Second,
	Read:       15 * time.Second,
	Write:      20 * time.Second,
	Idle:       20 * time.Second,
	MaxConns:   4096,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.ReadHeader > 0 {
		d.ReadHeader = l.ReadHeader
	}
	if l.Read > 0 {
		d.Read = l.Read
	}
	if l.Write > 0 {
		d.Write = l.Write
	}
	if l.Idle > 0 {
		d.Idle = l.Idle
	}
	if l.MaxConns > 0 {
		d.MaxConns = l.MaxConns
	}
	return d
}

// fileReserve is the open files a broadcasting process keeps for other
// things than spectators: the record, its journal, listeners, the console.
const fileReserve = 128

// capacity is want, or fewer when this process may open fewer files than
// want plus fileReserve (the limit is raised as far as the system allows).
func capacity(want int) int {
	n, ok := raiseFileLimit(uint64(want + fileReserve))
	if !ok || n >= uint64(want+fileReserve) {
		return want
	}
	if n <= 2*fileReserve {
		return max(int(n)/2, 1)
	}
	return int(n) - fileReserve
}

// busy is what a connection beyond the limit gets before it is closed.
var busy = func() []byte {
	body := "the broadcast has as many spectators as it can serve: try again shortly\n"
	return []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 10\r\n" +
		"Cache-Control: no-store\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
}()

// limit wraps ln so that at most Capacity connections are open at once;
// one more is answered 503 at once and closed, so it never waits in the
// kernel's queue.
func (s *Server) limit(ln net.Listener) net.Listener {
	return &limitListener{Listener: ln, s: s}
}

type limitListener struct {
	net.Listener
	s *Server
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.s.conns.Add(1) > int64(l.s.capN) {
			l.s.conns.Add(-1)
			l.s.full.Add(1)
			go func() {
				_ = c.SetDeadline(time.Now().Add(time.Second))
				_, _ = c.Write(busy)
				_ = c.Close()
			}()
			continue
		}
		return &countedConn{Conn: c, s: l.s}, nil
	}
}

// countedConn gives its place back when closed.
type countedConn struct {
	net.Conn
	s    *Server
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.s.conns.Add(-1) })
	return c.Conn.Close()
}
