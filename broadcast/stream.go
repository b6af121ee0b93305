package broadcast

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// The page's event stream (GET /events, server-sent events): on connect a
// "state" event with the whole view read at that instant; then a "state"
// event for each new snapshot, the same bytes for every spectator of a
// language (built once when the snapshot is published); between them, every
// Heartbeat, a "clock" event with the clocks read afresh. Nothing else is
// ever sent: a spectator gets what the served instant holds, the moment it
// holds it.

// stateEvent is the "state" event carrying v, with the snapshot's seq as
// its id.
func stateEvent(sn *snapshot, v View) []byte {
	var b bytes.Buffer
	b.WriteString("id: ")
	b.WriteString(strconv.FormatInt(sn.seq, 10))
	b.WriteString("\nevent: state\ndata: ")
	_ = json.NewEncoder(&b).Encode(v) // one line, ends in \n
	b.WriteString("\n")
	return b.Bytes()
}

// clockEvent is the "clock" event: both clocks alone.
func clockEvent(c Clocks) []byte {
	var b bytes.Buffer
	b.WriteString("event: clock\ndata: ")
	_ = json.NewEncoder(&b).Encode(c)
	b.WriteString("\n")
	return b.Bytes()
}

func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache, no-transform") // a stream: no cache may keep or recompress it
	h.Set("X-Accel-Buffering", "no")                 // nginx passes each event on at once
	h.Set("Vary", "Accept-Language")
	if r.Method == http.MethodHead {
		return
	}
	rc := http.NewResponseController(w)
	// Each write has Limits.Write to get through, however long the stream
	// is open (the server's write timeout runs from the request; net/http
	// lifts the read timeout once the request has been read).
	write := func(b []byte) bool {
		if rc.SetWriteDeadline(time.Now().Add(s.opts.Limits.Write)) != nil {
			return false
		}
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	l := lang(r)
	sn := s.snap.Load()
	// The snapshot's own state event (built once for every spectator),
	// then the clocks read now.
	first := append([]byte("retry: 3000\n"), sn.stream[l]...)
	first = append(first, clockEvent(sn.view.clocks(s.served(s.opts.Now())))...)
	if !write(first) {
		return
	}
	beat := time.NewTicker(s.opts.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case <-sn.next:
			sn = s.snap.Load()
			if !write(sn.stream[l]) {
				return
			}
			beat.Reset(s.opts.Heartbeat)
		case <-beat.C:
			if !write(clockEvent(sn.view.clocks(s.served(s.opts.Now())))) {
				return
			}
		}
	}
}
