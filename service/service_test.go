package service

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"arbiter/match"
)

func TestParseAdjustmentReadsTheThreeForms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want match.Adjustment
		ok   bool
	}{
		{"+5m", match.Adjustment{D: 5 * time.Minute}, true},
		{"-1m30s", match.Adjustment{D: -90 * time.Second}, true},
		{"=1:59:30.5", match.Adjustment{Set: true, D: time.Hour + 59*time.Minute + 30*time.Second + 500*time.Millisecond}, true},
		{"5m", match.Adjustment{}, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseAdjustment(tc.in)
			if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
				t.Errorf("ParseAdjustment(%q) = %+v, %v; want %+v, ok=%v", tc.in, got, err, tc.want, tc.ok)
			}
		})
	}
}

func TestReadingRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	if Writable(dir) {
		t.Fatal("a folder is taken for a record that can be written")
	}
	if _, err := OpenReadOnly(context.Background(), dir); err == nil {
		t.Fatal("a folder was opened as a record")
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("opening the folder left %d files in it", len(es))
	}
}

func TestContinueInOpensTheVerifiedCopy(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	app, err := Open(ctx, filepath.Join(dir, "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer app.DB().Close()
	next := filepath.Join(dir, "next.db")
	got, err := ContinueIn(ctx, app, next)
	if err != nil {
		t.Fatal(err)
	}
	defer got.DB().Close()
	if got.DB().Path() != next {
		t.Errorf("the new match is on %s, want %s", got.DB().Path(), next)
	}
	if _, err := ContinueIn(ctx, app, next); err == nil {
		t.Error("continuing into an existing file succeeded")
	} else if errors.Is(err, ErrDiskFull) {
		t.Errorf("unexpected disk-full error: %v", err)
	}
}
