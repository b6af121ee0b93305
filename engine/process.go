package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// SplitCommand splits --cmd "PROGRAM [ARGS]" into words: spaces separate
// them, a part in double or single quotes is one word with its spaces, and
// a backslash is an ordinary character (a Windows path such as
// C:\Engines\stockfish.exe needs no escaping). A --cmd that names an
// existing file whole — a path with spaces, unquoted — is that program
// alone.
func SplitCommand(s string) ([]string, error) {
	if st, err := os.Stat(s); err == nil && !st.IsDir() {
		return []string{s}, nil
	}
	var words []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, refuse(CodeUnterminatedQuote, s, string(quote))
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, refuse(CodeNoCommand)
	}
	return words, nil
}

// line is one line the engine wrote, as the transcript holds it: its
// instant and the transcript's mark after it.
type line struct {
	text string
	at   time.Time
	mark mark
	read time.Time // when it was read, on this process's clock
}

// process is a running engine: its input, its lines (each written to the
// transcript as it is read), and its end.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	t      *transcript
	now    func() time.Time
	lines  chan line
	exited chan struct{} // closed when the process has ended and its output is read
	err    error         // how it ended (read after exited)
	pid    int
	wmu    sync.Mutex
}

// writeTimeout bounds a write to the engine's input: an engine that reads
// nothing more (hung) makes the write fail instead of blocking the bridge.
const writeTimeout = time.Second

// start runs the engine argv with its lines going to t on the instants of
// now; its standard error goes to errOut.
func start(argv []string, t *transcript, now func() time.Time, errOut io.Writer) (*process, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdin = inR
	out, err := cmd.StdoutPipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stderr = errOut
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		return nil, refuse(CodeCannotStart, argv[0], err)
	}
	inR.Close()
	p := &process{cmd: cmd, stdin: inW, t: t, now: now, lines: make(chan line, 1024), exited: make(chan struct{}), pid: cmd.Process.Pid}
	go p.read(out)
	return p, nil
}

// read takes the engine's lines into the transcript, in order, each with
// the instant it was read, until the engine's output ends; then it waits
// for the process.
func (p *process) read(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		text := strings.TrimRight(sc.Text(), "\r")
		read := time.Now()
		m, at := p.t.write('<', text, p.now())
		p.lines <- line{text: text, at: at, mark: m, read: read}
	}
	p.err = p.cmd.Wait()
	p.stdin.Close()
	close(p.lines)
	close(p.exited)
}

// send writes one line to the engine at the instant now (the transcript
// first, with the instant, then the engine).
func (p *process) send(text string) (time.Time, error) {
	return p.sendAt(time.Time{}, func(at time.Time) string { return text })
}

// sendAt writes the line made for the instant it is written (a go line
// carries the clocks as they stand then), an instant to the millisecond
// and never before floor (the record's last event: no reading precedes
// what it reads). The instant is taken under the transcript's lock, so the
// transcript's instants never run back.
func (p *process) sendAt(floor time.Time, make func(at time.Time) string) (time.Time, error) {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	p.t.mu.Lock()
	at := p.now().UTC().Truncate(time.Millisecond)
	if at.Before(p.t.last) {
		at = p.t.last
	}
	if f := floor.UTC(); at.Before(f) {
		at = f.Truncate(time.Millisecond)
		if at.Before(f) {
			at = at.Add(time.Millisecond)
		}
	}
	text := make(at)
	_, at = p.t.writeLocked('>', text, at)
	p.t.mu.Unlock()
	p.stdin.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, err := io.WriteString(p.stdin, text+"\n")
	return at, err
}

// kill ends the process at once and waits until it has ended, its lines
// read (into the transcript) and dropped.
func (p *process) kill() {
	p.cmd.Process.Kill()
	p.drain(nil)
}

// drain drops the engine's lines until its output ends, or until timeout
// fires (nil: never); it reports whether the process ended.
func (p *process) drain(timeout <-chan time.Time) bool {
	for {
		select {
		case _, ok := <-p.lines:
			if !ok {
				<-p.exited
				return true
			}
		case <-timeout:
			return false
		}
	}
}

// quit asks the engine to end ("quit") and kills it if it has not within
// a second.
func (p *process) quit() {
	p.send("quit")
	if !p.drain(time.After(time.Second)) {
		p.kill()
	}
}

// refused says, in words for a technical fault, why the engine did not
// take the line text (the write's err): an engine that ended (killed,
// crashed) closed its input, and a write can fail before its end is read,
// so it waits up to writeTimeout for the end and says how the engine ended;
// an engine that runs on without taking its input "did not take the line".
// Before, an engine killed while the bridge pinged it was recorded as one
// that "did not take the line isready (write |1: broken pipe)" (seen under
// load in the fault tests).
func (p *process) refused(text string, err error) string {
	select {
	case <-p.exited:
		return p.ended()
	case <-time.After(writeTimeout):
		return "did not take the line " + text + " (" + err.Error() + ")"
	}
}

// ended says how the process ended, in words for a technical fault.
func (p *process) ended() string {
	var ee *exec.ExitError
	switch {
	case p.err == nil:
		return "exited with status 0"
	case errors.As(p.err, &ee) && ee.Exited():
		return fmt.Sprintf("exited with status %d", ee.ExitCode())
	case errors.As(p.err, &ee):
		return "was killed (" + ee.String() + ")"
	}
	return "ended (" + p.err.Error() + ")"
}
