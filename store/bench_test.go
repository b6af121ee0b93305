package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkAppendOneEvent measures one durable Update holding one Append:
// BEGIN IMMEDIATE, head lookup, INSERT, COMMIT with fsync (WAL,
// synchronous=FULL). Compare with BenchmarkRawAppendFsync for the ratio.
func BenchmarkAppendOneEvent(b *testing.B) {
	ctx := context.Background()
	db, _ := newTestDB(b)
	e := testEvent(1)
	b.SetBytes(int64(len(EncodeEvent(e))))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, err := db.Update(ctx, func(tx *Tx) error {
			_, err := tx.Append(e)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRawAppendFsync is the floor for BenchmarkAppendOneEvent: append the
// same encoded bytes to a plain file in the same kind of directory and
// f.Sync() after each.
func BenchmarkRawAppendFsync(b *testing.B) {
	path := filepath.Join(b.TempDir(), "raw.log")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	rec := EncodeEvent(testEvent(1))
	b.SetBytes(int64(len(rec)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Write(rec); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify measures a full chain check of 1000 events.
func BenchmarkVerify(b *testing.B) {
	ctx := context.Background()
	db, _ := newTestDB(b)
	_, err := db.Update(ctx, func(tx *Tx) error {
		for i := 0; i < 1000; i++ {
			if _, err := tx.Append(testEvent(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r, err := db.Verify(ctx, ""); err != nil || !r.OK {
			b.Fatal(r, err)
		}
	}
}

// BenchmarkOwnWriteWatch is what WALChanged costs each of the DB's own
// writes (Update, heartbeat, meta): one stat(2) of the -wal before and one
// after; compare with BenchmarkAppendOneEvent, which includes it.
func BenchmarkOwnWriteWatch(b *testing.B) {
	db, _ := newTestDB(b)
	appendEvents(b, db, 2)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		db.beforeOwnWrite()
		db.afterOwnWrite()
	}
}

// BenchmarkWALCheck is what a watch's look at the write-ahead log costs
// after the DB wrote (WALChanged: the stat, then the committed frames'
// checksums walked, walIntact), with the log holding the frames of 10,
// 100 and 1,000 commits of one event since its last checkpoint (SQLite
// checkpoints at 1,000 pages; a station between commands).
func BenchmarkWALCheck(b *testing.B) {
	for _, commits := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("commits=%d", commits), func(b *testing.B) {
			db, path := newTestDB(b)
			if _, err := db.sql.Exec("PRAGMA wal_autocheckpoint = 0"); err != nil {
				b.Fatal(err)
			}
			appendEvents(b, db, commits)
			idx, _ := readWALIndex(path)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				db.wal.mu.Lock()
				db.wal.wrote = true
				db.wal.mu.Unlock()
				if db.WALChanged() {
					b.Fatal("told changed")
				}
			}
			b.ReportMetric(float64(idx.mxFrame), "frames")
		})
	}
}
