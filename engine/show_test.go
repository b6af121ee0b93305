package engine

import (
	"os"
	"path/filepath"
	"testing"
)

func (r *rig) show(t *testing.T) {
	b, _ := os.ReadFile(filepath.Join(Dir(r.path), TranscriptName(1)))
	t.Logf("transcript:\n%s", b)
	s, _ := os.ReadFile(StatusPath(r.path))
	t.Logf("status:\n%s", s)
	evs, _ := r.app.DB().EventsAfter(r.ctx, 0)
	for _, e := range evs {
		t.Logf("%d %s %s %s %s", e.Seq, e.At.Format("15:04:05.000000"), e.Role, e.Kind, e.Payload)
	}
}
