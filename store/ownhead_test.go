package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
)

// TestAnAppendFollowsTheFilesLastEventWhoeverWroteIt: an Update's first
// Append takes the head its handle's own last commit left only while
// SQLite's data version is as that commit left it (conn.ownHead); another
// handle's commit between two Updates, or the DB told to forget its pages
// (Uncache, the watch's after bytes changed behind SQLite), has the head
// read from the file again.
func TestAnAppendFollowsTheFilesLastEventWhoeverWroteIt(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		// do acts between the DB's two Updates and returns the seq and
		// hash the second's event must follow
		do func(t *testing.T, db *DB, path string, last Event) (int64, string)
	}{
		{"nothing between: the DB's own last event", func(_ *testing.T, _ *DB, _ string, last Event) (int64, string) {
			return last.Seq, last.Hash
		}},
		{"a failed Update between (its Append rolled back): the last committed", func(t *testing.T, db *DB, _ string, last Event) (int64, string) {
			refused := errors.New("refused")
			_, err := db.Update(ctx, func(tx *Tx) error {
				if _, err := tx.Append(testEvent(50)); err != nil {
					return err
				}
				return refused
			})
			if !errors.Is(err, refused) {
				t.Fatalf("the failed Update: %v", err)
			}
			return last.Seq, last.Hash
		}},
		{"another handle's commit between: its event", func(t *testing.T, _ *DB, path string, _ Event) (int64, string) {
			other := openTest(t, path)
			evs := appendEvents(t, other, 2)
			return evs[1].Seq, evs[1].Hash
		}},
		{"the last event's hash changed in the -wal behind SQLite, the DB told to forget its pages: the hash the file holds", func(t *testing.T, db *DB, path string, last Event) (int64, string) {
			b, err := os.ReadFile(path + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			edited := []byte(last.Hash)
			edited[0] = map[bool]byte{true: 'b', false: 'a'}[edited[0] == 'a']
			if bytes.Count(b, []byte(last.Hash)) == 0 {
				t.Fatal("the last event's hash is not in the -wal")
			}
			if err := os.WriteFile(path+"-wal", bytes.ReplaceAll(b, []byte(last.Hash), edited), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := db.Uncache(ctx); err != nil {
				t.Fatal(err)
			}
			return last.Seq, string(edited)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, path := newTestDB(t)
			evs := appendEvents(t, db, 3)
			seq, hash := tc.do(t, db, path, evs[2])
			got := appendEvents(t, db, 1)[0]
			if got.Seq != seq+1 || got.Prev != hash {
				t.Errorf("the next event: seq %d after %.8s…, want seq %d after %.8s…", got.Seq, got.Prev, seq+1, hash)
			}
		})
	}
}
