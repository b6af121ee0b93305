package station

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"arbiter/match"
	"arbiter/store"
)

// preparedCase is a replica that holds a record but its last command, and
// that command's stream messages.
type preparedCase struct {
	rep  *Replica
	db   *store.DB
	path string
	last []StreamMsg
	seq  uint64 // the record's last event before the command
}

// streamOf is a record's commands as the stream carries them (command id
// "c<i>"): their messages, in order.
func streamOf(t *testing.T, db *store.DB) [][]StreamMsg {
	t.Helper()
	evs, sigs, err := db.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out [][]StreamMsg
	for i, cmd := range commandsOf(evs, sigs) {
		id := fmt.Sprintf("c%d", i)
		var ms []StreamMsg
		for j, data := range encodeEvents(id, cmd, sigs) {
			ms = append(ms, StreamMsg{Seq: uint64(cmd[j].Seq), ID: id, Data: data})
		}
		out = append(out, ms)
	}
	return out
}

// newPreparedCase makes a record with a match, a game and a move, and a
// replica of another record that applied all of it from its stream but
// the move.
func newPreparedCase(t *testing.T) *preparedCase {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	newRecord(t, src)
	sdb := openDB(t, src)
	app, err := match.New(ctx, sdb)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().UTC()
	if _, err := app.Do(ctx, match.Cmd{At: at, Actor: match.Actor{Role: match.RoleArbiter}}, match.GameStart{Game: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Do(ctx, match.Cmd{At: at.Add(time.Second), Actor: match.Actor{Role: match.RoleWhite}}, match.Move{Input: "e4"}); err != nil {
		t.Fatal(err)
	}
	cmds := streamOf(t, sdb)
	c := &preparedCase{path: filepath.Join(dir, "laptop.db")}
	c.db = openDB(t, c.path)
	if c.rep, err = NewReplica(ctx, c.db, nil); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range cmds[:len(cmds)-1] {
		for _, m := range cmd {
			if err := c.rep.Apply(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	c.last = cmds[len(cmds)-1]
	c.seq, _ = c.rep.Head()
	return c
}

func (c *preparedCase) raw() [][]byte {
	var out [][]byte
	for _, m := range c.last {
		out = append(out, m.Data)
	}
	return out
}

// prepare starts Prepare and returns its outcome's channel once the
// transaction waits for the stream (false at once when it prepared
// nothing).
func (c *preparedCase) prepare(t *testing.T, ctx context.Context, raw [][]byte) <-chan bool {
	t.Helper()
	out := make(chan bool, 1)
	go func() { out <- c.rep.Prepare(ctx, raw) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.rep.mu.Lock()
		p := c.rep.prep
		c.rep.mu.Unlock()
		if p != nil {
			select {
			case <-p.held:
				return out
			case <-p.done:
				return out
			case <-time.After(10 * time.Second):
				t.Fatal("the prepared transaction never waited for the stream")
			}
		}
		select {
		case ok := <-out:
			out <- ok
			return out
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("nothing prepared")
		}
		time.Sleep(time.Millisecond) // polled: Prepare registers without a signal
	}
}

// seen is the record's last event as an outside reader of the file sees it.
func (c *preparedCase) seen(t *testing.T) int64 {
	t.Helper()
	ro, err := store.OpenReadOnly(context.Background(), c.path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	seq, _, err := ro.Head(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return seq
}

// streamDelivers applies the stream's messages of the command (c.last)
// at the replica, as its consumer would.
func (c *preparedCase) streamDelivers(t *testing.T, ctx context.Context) {
	t.Helper()
	for _, m := range c.last {
		if err := c.rep.Apply(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
}

// takesTheStreams checks that the record ends with the stream's messages,
// byte for byte as they decode, under the stream's command id.
func (c *preparedCase) takesTheStreams(t *testing.T) {
	t.Helper()
	last := c.last[len(c.last)-1]
	if seq, _ := c.rep.Head(); seq != last.Seq {
		t.Fatalf("the replica is at %d, want %d", seq, last.Seq)
	}
	if got := c.seen(t); got != int64(last.Seq) {
		t.Fatalf("the file ends at %d, want %d", got, last.Seq)
	}
	if _, s, ok := c.rep.IDSeqs(last.ID); !ok || s != last.Seq {
		t.Fatalf("command %s not held at %d: %d %v", last.ID, last.Seq, s, ok)
	}
	evs, sigs, err := c.db.Record(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range c.last {
		_, want, _ := decodeEvent(m.Data)
		if got := encodeEvents(m.ID, evs[m.Seq-1:m.Seq], sigs); !bytes.Equal(got[0], m.Data) {
			t.Fatalf("event %d is %s, the stream's %s (want %+v)", m.Seq, got[0], m.Data, want)
		}
	}
	if err := c.rep.Alarm(); err != nil {
		t.Fatal(err)
	}
}

func TestTheSendersRecordPreparesItsCommandAndCommitsItOnlyOnTheStreamsBytes(t *testing.T) {
	ctx := context.Background()
	t.Run("a prepared command is held unseen until the stream delivers the same bytes, then committed by the prepared transaction", func(t *testing.T) {
		c := newPreparedCase(t)
		done := c.prepare(t, ctx, c.raw())
		if seq, _ := c.rep.Head(); seq != c.seq {
			t.Fatalf("the replica moved to %d before the stream delivered", seq)
		}
		if got := c.seen(t); got != int64(c.seq) {
			t.Fatalf("an outside reader sees event %d before the stream delivered (the record ended at %d)", got, c.seq)
		}
		c.streamDelivers(t, ctx)
		if !<-done {
			t.Fatal("the prepared transaction did not commit")
		}
		if n := c.rep.preparedCommits.Load(); n != 1 {
			t.Fatalf("%d commands committed from a prepared transaction, want 1", n)
		}
		c.takesTheStreams(t)
	})
	altered := []struct {
		name string
		raw  func(c *preparedCase) [][]byte
	}{
		{"the same events under another command id", func(c *preparedCase) [][]byte {
			return [][]byte{bytes.Replace(c.last[0].Data, []byte(`"`+c.last[0].ID+`"`), []byte(`"other"`), 1)}
		}},
		{"the same JSON with a space more", func(c *preparedCase) [][]byte {
			return [][]byte{append([]byte{' '}, c.last[0].Data...)}
		}},
	}
	for _, a := range altered {
		t.Run("a prepared event that is not the stream's bytes ("+a.name+") is rolled back and the stream's is taken", func(t *testing.T) {
			c := newPreparedCase(t)
			raw := a.raw(c)
			if bytes.Equal(raw[0], c.last[0].Data) {
				t.Fatal("not altered")
			}
			done := c.prepare(t, ctx, raw)
			c.streamDelivers(t, ctx)
			if <-done {
				t.Fatal("the altered prepared transaction committed")
			}
			if n := c.rep.preparedCommits.Load(); n != 0 {
				t.Fatalf("%d commands committed from a prepared transaction, want 0", n)
			}
			c.takesTheStreams(t)
		})
	}
	t.Run("a stop while prepared rolls back and leaves the record to the stream", func(t *testing.T) {
		c := newPreparedCase(t)
		old := prepWait
		prepWait = time.Hour // only the stop ends the wait
		defer func() { prepWait = old }()
		sctx, stop := context.WithCancel(ctx)
		done := c.prepare(t, sctx, c.raw())
		stop()
		select {
		case ok := <-done:
			if ok {
				t.Fatal("committed without the stream")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the prepared transaction outlived the stop")
		}
		if seq, _ := c.rep.Head(); seq != c.seq {
			t.Fatalf("the replica moved to %d without the stream", seq)
		}
		if got := c.seen(t); got != int64(c.seq) {
			t.Fatalf("the file ends at %d without the stream, want %d", got, c.seq)
		}
		c.streamDelivers(t, ctx)
		c.takesTheStreams(t)
	})
	t.Run("a prepared transaction the stream does not confirm within its wait is rolled back", func(t *testing.T) {
		c := newPreparedCase(t)
		old := prepWait
		prepWait = time.Millisecond
		defer func() { prepWait = old }()
		if <-c.prepare(t, ctx, c.raw()) {
			t.Fatal("committed without the stream")
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			c.rep.mu.Lock()
			p := c.rep.prep
			c.rep.mu.Unlock()
			if p == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the prepared transaction outlived its wait")
			}
			time.Sleep(time.Millisecond)
		}
		if got := c.seen(t); got != int64(c.seq) {
			t.Fatalf("the file ends at %d without the stream, want %d", got, c.seq)
		}
		c.streamDelivers(t, ctx)
		c.takesTheStreams(t)
	})
	t.Run("a stream message that comes first leaves nothing to prepare", func(t *testing.T) {
		c := newPreparedCase(t)
		c.streamDelivers(t, ctx)
		if c.rep.Prepare(ctx, c.raw()) {
			t.Fatal("prepared a command the record holds")
		}
		c.takesTheStreams(t)
	})
}

func TestTheAuthoritySendsPreparedEventsOnlyToAPrepInbox(t *testing.T) {
	for _, tc := range []struct {
		to   string
		want bool
	}{
		{PrepPrefix + "abc123", true},
		{"", false},
		{SubjectEvents, false},
		{"_INBOX.abc", false},
		{PrepPrefix, false},
		{PrepPrefix + "a.b", false},
		{PrepPrefix + "*", false},
		{PrepPrefix + ">", false},
		{PrepPrefix + "a b", false},
	} {
		t.Run(fmt.Sprintf("%q is taken: %v", tc.to, tc.want), func(t *testing.T) {
			if got := prepInbox(tc.to); got != tc.want {
				t.Fatalf("prepInbox(%q) = %v", tc.to, got)
			}
		})
	}
}

// A command given at the laptop is committed on its record by the
// transaction it prepared from the authority's events.
func TestALaptopsCommandIsCommittedFromItsPreparedTransaction(t *testing.T) {
	dir := t.TempDir()
	s, _ := startFirst(t, dir)
	laptop, err := Start(context.Background(), Config{Name: "laptop", Role: "operator", DB: openDB(t, filepath.Join(dir, "l.db")), Dial: []string{s.Engine().ClientURL()}})
	if err != nil {
		t.Fatal(err)
	}
	defer laptop.Stop()
	submit(t, s, req("arbiter", match.GameStart{Game: 1}))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	for i := 0; i < 12; i += 2 {
		submit(t, s, req("white", match.Move{Input: moves[i%4]}))
		r := submit(t, laptop, req("operator", match.Move{Input: moves[(i+1)%4]}))
		if err := laptop.Replica().WaitSeq(ctx, r.Seq); err != nil {
			t.Fatal(err)
		}
	}
	if n := laptop.Replica().preparedCommits.Load(); n == 0 {
		t.Fatal("none of the laptop's six commands was committed from its prepared transaction")
	}
	if err := laptop.Replica().Alarm(); err != nil {
		t.Fatal(err)
	}
	verifyHead(t, laptop.Config().DB)
}
