package station

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"arbiter/internal/atomicfile"
)

// A record holder keeps its offset to the match timeline in a small file
// beside its record (Config.TimelineFile), so that when every record
// holder restarts (a power failure in the hall) the first to claim
// continues the timeline instead of making its own clock the timeline
// (docs/stations.md, "Exact clocks across machines").

// savedTimeline is the file's content: the offset of the match timeline to
// the station's time source (Config.Now) and the instant it was written on
// that time source.
type savedTimeline struct {
	Station   string `json:"station"`
	OffsetNS  int64  `json:"offset_ns"`
	WrittenNS int64  `json:"written_ns"`
}

// persistEvery: a holder rewrites the file at least this often while it
// knows the timeline, and sooner when its offset moved by more than
// persistMoved.
const (
	persistEvery = 5 * time.Second
	persistMoved = time.Millisecond
)

// readTimeline reads a timeline file; ok is false when there is none.
func readTimeline(path string) (st savedTimeline, ok bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, false, nil
	}
	if err != nil {
		return st, false, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, false, fmt.Errorf("%s: %w", path, err)
	}
	return st, true, nil
}

// describe is the log's account of a saved timeline.
func (st savedTimeline) describe(path string) string {
	return fmt.Sprintf("continues the match timeline from %s (offset %v, written %s)", path,
		time.Duration(st.OffsetNS), time.Unix(0, st.WrittenNS).UTC().Format("2006-01-02 15:04:05.000 MST"))
}

// loadTimeline takes the saved offset as this station's timeline until
// better evidence arrives (a time sample from the authority or a peer): it
// does not make the station know the timeline (it answers no peer and lets
// a holder that knows it claim first), but its clocks and a claim of its
// own use it instead of the raw local clock. Called by Start before the
// station runs, when no Config.Offset is given.
func (s *Station) loadTimeline() {
	path := s.cfg.TimelineFile
	st, ok, err := readTimeline(path)
	if err != nil {
		s.cfg.Logf("%s: the saved match timeline is unreadable, not used: %v", s.cfg.Name, err)
		return
	}
	if !ok {
		return
	}
	s.frozen, s.saved = time.Duration(st.OffsetNS), &st
	s.cfg.Logf("%s: %s until a record holder that knows it answers", s.cfg.Name, st.describe(path))
}

// savedTimeline describes the saved offset the station started with ("":
// none), for the log when it continues the timeline from it.
func (s *Station) savedTimeline() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.saved == nil {
		return ""
	}
	return s.saved.describe(s.cfg.TimelineFile)
}

// persistTimeline writes the station's offset to the match timeline when it
// knows the timeline and the offset moved by more than persistMoved since
// the last write, or that write is persistEvery old. It runs in its own
// loop, never on a command's path.
func (s *Station) persistTimeline() {
	s.mu.Lock()
	if !s.timeKnown {
		s.mu.Unlock()
		return
	}
	off := s.timelineLocked()
	d := off - s.persisted
	if s.persistedAt.IsZero() || d > persistMoved || d < -persistMoved || time.Since(s.persistedAt) >= persistEvery {
		s.persistedAt = time.Now() // a failed write is tried again persistEvery later
		s.persisted = off
	} else {
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	st := savedTimeline{Station: s.cfg.Name, OffsetNS: int64(off), WrittenNS: s.cfg.Now().UnixNano()}
	b, _ := json.Marshal(st)
	err := os.MkdirAll(filepath.Dir(s.cfg.TimelineFile), 0o755)
	if err == nil {
		err = atomicfile.Write(s.cfg.TimelineFile, b, 0o644)
	}
	if err != nil {
		s.cfg.Logf("%s: cannot save the match timeline: %v", s.cfg.Name, err)
	}
}
