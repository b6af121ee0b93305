package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An update whose context ends while its BEGIN IMMEDIATE runs leaves no
// transaction behind: the driver reports the context's end even when BEGIN
// took the write lock, and the connection that began is discarded, not
// pooled holding the lock. Before, another handle's update of the file
// waited for that lock for good (a station's replica standing still after
// its consumer restarted: laptop_test.go's "the record holds event 1, not
// 5, after 30 s"), and the handle's own next update was refused ("cannot
// start a transaction within a transaction").
func TestAnUpdateCancelledAtItsBeginLeavesTheFileWritable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	other, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	begins := 0
	for i := 0; i < 2000; i++ {
		c, cancel := context.WithCancel(ctx)
		go cancel() // ends during the update, at any point of it
		_, err := db.Update(c, func(tx *Tx) error { return nil })
		cancel()
		if err == nil || !strings.Contains(err.Error(), "begin") {
			continue
		}
		begins++
		wait, stop := context.WithTimeout(ctx, 2*time.Second)
		_, err2 := other.Update(wait, func(tx *Tx) error { return nil })
		stop()
		if err2 != nil {
			t.Fatalf("after %d updates cancelled at their BEGIN (%v), another handle's update: %v", begins, err, err2)
		}
		if _, err := db.Update(ctx, func(tx *Tx) error { return nil }); err != nil {
			t.Fatalf("after %d updates cancelled at their BEGIN, the handle's own next update: %v", begins, err)
		}
	}
	t.Logf("%d of 2000 updates cancelled at their BEGIN", begins)
}

// An update whose context ends while it runs either commits and says so or
// fails and leaves nothing: the record holds exactly the events of the
// updates that returned no error. Before, the driver reported a context
// that ended during COMMIT as its error although the transaction had
// committed (765 of 1,953 failed updates in one run): an event recorded
// while its command was told it failed.
func TestAnUpdateCancelledAtAnyPointCommitsExactlyWhenItSaysSo(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ok, failed := 0, 0
	for i := 0; i < 2000; i++ {
		c, cancel := context.WithCancel(ctx)
		go cancel() // ends during the update, at any point of it
		_, err := db.Update(c, func(tx *Tx) error {
			_, err := tx.Append(testEvent(ok + 1))
			return err
		})
		cancel()
		if err != nil {
			failed++
		} else {
			ok++
		}
		seq, _, herr := db.Head(ctx)
		if herr != nil {
			t.Fatal(herr)
		}
		if seq != int64(ok) {
			t.Fatalf("after %d updates that committed and %d that failed (the last: %v), the record holds %d events", ok, failed, err, seq)
		}
	}
	t.Logf("%d updates committed, %d failed", ok, failed)
}
