package station

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

func TestTheSurvivorOfTwoRecordHoldersContinuesInANewEpochWithNothingAcknowledgedLost(t *testing.T) {
	if testing.Short() {
		t.Skip("forms a cluster of two")
	}
	dir := t.TempDir()
	var hs []*holder
	var routes []string
	for _, n := range []string{"arbiter", "appeals"} {
		h := &holder{name: n, path: filepath.Join(dir, n+".db"), dir: filepath.Join(dir, n+"-js"), port: freePort(t)}
		hs = append(hs, h)
		routes = append(routes, fmt.Sprintf("127.0.0.1:%d", h.port))
	}
	newProtectedRecord(t, hs[0].path)
	startHoldersN(t, hs, routes, 2)
	defer func() {
		for _, h := range hs {
			if h.s != nil {
				h.s.Stop()
			}
		}
	}()
	submit(t, hs[0].s, pinReq("arbiter", "start"))
	submit(t, hs[0].s, pinReq("white", "move", "e4"))
	acked := submit(t, hs[0].s, pinReq("operator", "move", "c5")) // acknowledged only when both hold it

	// The arbiter's station dies: the survivor alone is no majority.
	hs[0].s.Stop()
	hs[0].s = nil
	waitFor(t, 20*time.Second, "the survivor still says it can append", func() bool { return !hs[1].s.Status().CanAppend })
	// The arbiter's one action: a new epoch on the survivor.
	hs[1].s.Stop()
	db := openDB(t, hs[1].path)
	s, err := Start(context.Background(), Config{Name: "appeals", Role: "organiser", DB: db, Exec: testExec, Logf: t.Logf, Epoch: true,
		Engine: &EngineConfig{Name: "appeals", Dir: filepath.Join(dir, "appeals-epoch1")}})
	if err != nil {
		t.Fatal(err)
	}
	hs[1].s = s
	if auth, _ := s.Replica().Authority(); auth != "appeals" || s.Replica().Epoch() != 1 {
		t.Fatalf("after the new epoch the authority is %q in epoch %d", auth, s.Replica().Epoch())
	}
	if seq, _ := s.Replica().Head(); seq < acked.Seq {
		t.Fatalf("the new epoch starts at event %d, before the acknowledged %d", seq, acked.Seq)
	}
	for name, m := range s.Replica().Members() {
		if Holder(m.Role) && name != "appeals" {
			t.Fatalf("%s is still a record holder after the new epoch", name)
		}
	}
	r := submit(t, s, pinReq("white", "move", "Nf3"))
	if r.Error != "" || !s.Status().CanAppend {
		t.Fatalf("the survivor does not go on: %+v", r)
	}
	verifyHead(t, db) // the record, signatures included, verifies

	// The old station cannot come back as it was: the survivor runs a lone
	// engine with no route port, so the old one finds no majority and
	// appends nothing (Start waits for its stream; not waited for here).
	// It rejoins only by a new invitation.
}
