package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"arbiter/match"
)

// The transcript of a game (docs/engine.md): every line written to and read
// from the engine, in the order it was written or read, one line each in
// FILE.engine/game-N.log:
//
//	INSTANT<TAB>><TAB>LINE   what the bridge wrote
//	INSTANT<TAB><<TAB>LINE   what the engine wrote
//
// INSTANT is RFC 3339 UTC with milliseconds, on the match timeline; nothing
// else is written to the file. The file is only ever appended to (a bridge
// started again continues it), so each engine.move event's SHA-256 of the
// file's first bytes, up to its bestmove line, still holds afterwards.

// InstantLayout is how a transcript writes an instant.
const InstantLayout = "2006-01-02T15:04:05.000Z"

// Dir is the folder of a record's transcripts and the bridge's status.
func Dir(db string) string { return db + ".engine" }

// TranscriptName is the file name of game n's transcript written by the
// bridge whose id is bridge (engine.start): game-N.BRIDGE.log, so that two
// bridges of a match (one taken over from the other, at another station)
// never write, nor verify, one file as theirs. Records written before
// bridges were recorded named it game-N.log (bridge "").
func TranscriptName(game int, bridge string) string {
	if bridge == "" {
		return "game-" + strconv.Itoa(game) + ".log"
	}
	return "game-" + strconv.Itoa(game) + "." + bridge + ".log"
}

// mark is where a transcript stands after a line: the lines and bytes so
// far and the SHA-256 of those bytes.
type mark struct {
	lines int
	bytes int64
	sum   string
}

// transcript is one game's transcript, open for appending.
type transcript struct {
	mu     sync.Mutex
	f      *os.File
	name   string
	lines  int
	bytes  int64
	sum    hash.Hash
	short  []string  // each line's short hash (LineHash)
	last   time.Time // the last instant written
	failed error     // the first write that failed
}

// openTranscript opens (or creates) game's transcript in dir for
// appending, reading what a bridge before wrote into it.
func openTranscript(dir string, game int, bridge string) (*transcript, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, refuse(CodeFolderNotMade, dir, err)
	}
	name := TranscriptName(game, bridge)
	path := filepath.Join(dir, name)
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return nil, refuse(CodeTranscriptUnreadable, path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, refuse(CodeTranscriptNotOpened, path, err)
	}
	t := &transcript{f: f, name: name, sum: sha256.New()}
	if n := len(old); n > 0 && old[n-1] != '\n' {
		// a line cut short by a crash: it ends here, and no engine.move
		// attests it (each attests whole lines only)
		if _, err := f.Write([]byte("\n")); err != nil {
			f.Close()
			return nil, err
		}
		old = append(old, '\n')
	}
	t.sum.Write(old)
	t.bytes = int64(len(old))
	for _, l := range bytes.SplitAfter(old, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		t.lines++
		t.short = append(t.short, LineHash(bytes.TrimSuffix(l, []byte("\n"))))
		if at, err := time.Parse(InstantLayout, string(bytes.SplitN(l, []byte("\t"), 2)[0])); err == nil && at.After(t.last) {
			t.last = at
		}
	}
	return t, nil
}

// LineHash is a transcript line's short hash (without its newline): the
// first 8 hex digits of its SHA-256.
func LineHash(line []byte) string {
	s := sha256.Sum256(line)
	return hex.EncodeToString(s[:4])
}

// write appends one line said in direction dir ('>' or '<') at the
// instant at (the later of at and the last instant written, to the
// millisecond) and returns the transcript's mark after it and the instant
// written. A failed write is kept (failed) and reported by sync.
func (t *transcript) write(dir byte, line string, at time.Time) (mark, time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.writeLocked(dir, line, at)
}

func (t *transcript) writeLocked(dir byte, line string, at time.Time) (mark, time.Time) {
	at = at.UTC().Truncate(time.Millisecond)
	if at.Before(t.last) {
		at = t.last
	}
	t.last = at
	text := at.Format(InstantLayout) + "\t" + string(dir) + "\t" + line
	b := []byte(text + "\n")
	if _, err := t.f.Write(b); err != nil && t.failed == nil {
		t.failed = err
	}
	t.sum.Write(b)
	t.bytes += int64(len(b))
	t.lines++
	t.short = append(t.short, LineHash([]byte(text)))
	return mark{lines: t.lines, bytes: t.bytes, sum: hex.EncodeToString(t.sum.Sum(nil))}, at
}

// sync makes every line written so far durable (before an engine.move
// attests them).
func (t *transcript) sync() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.failed != nil {
		return refuse(CodeTranscriptNotWritten, t.name, t.failed)
	}
	return t.f.Sync()
}

// attest is what an engine.move records of the transcript up to m, the
// lines after from being new since the game's previous engine.move.
func (t *transcript) attest(m mark, from int) match.EngineTranscript {
	t.mu.Lock()
	defer t.mu.Unlock()
	if from < 0 || from >= m.lines {
		from = 0
	}
	return match.EngineTranscript{File: t.name, Lines: m.lines, Bytes: m.bytes, SHA256: m.sum, From: from,
		LineHashes: append([]string(nil), t.short[from:m.lines]...)}
}

func (t *transcript) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.f.Sync()
	t.f.Close()
}
