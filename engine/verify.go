package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/store"
)

// Attested is an engine.move event as 'arbiter verify' checks a transcript
// against it: its number, its game and what it attests.
type Attested struct {
	Seq  int64
	Game int
	match.EngineTranscript
	// Where is where the bridge that wrote the transcript ran, as the
	// record's engine.start says (the station's name, "the record's own
	// machine"; "" when the record names no bridge: an older record).
	Where string
}

// TranscriptReport is what 'arbiter verify' says of the transcripts beside
// a record: each checked and the lines it found attested, the first line
// that differs from what the record attests (Problem, "" when none), and
// the transcripts named by the record that are not here.
type TranscriptReport struct {
	Checked []string
	Missing []string
	// Elsewhere says, of a missing transcript whose bridge the record
	// names (engine.start), at which station it ran ("the record's own
	// machine" for none): verify there checks it.
	Elsewhere map[string]string
	Problem   string        // in English (Why's)
	Why       *phrase.Error // the problem as a phrase, each face's words (nil when none)
}

// A transcript that does not hold what the record attests is said as a
// phrase, as a record that does not hold is (match/problems.go): its code
// and arguments below, its English en.json's under the code, de.json's in
// German (TestEveryTranscriptProblemHasItsWordsInBothDictionaries).
const (
	CodeTranscriptCutShort    match.Code = "engine-transcript-cut-short"
	CodeTranscriptLineDiffers match.Code = "engine-transcript-line-differs"
	CodeTranscriptDiffers     match.Code = "engine-transcript-differs"
)

var transcriptProblems = phrase.Table[match.Code]{
	CodeTranscriptCutShort:    "the transcript %s has %d lines, but engine.move event %d attests %d of them: it was cut short",
	CodeTranscriptLineDiffers: "line %d of the transcript %s differs from what engine.move event %d attests (%q)",
	CodeTranscriptDiffers:     "the transcript %s differs from what engine.move event %d attests in lines %d to %d (their SHA-256 is not the one recorded)",
}

// ProblemCodes lists the transcripts' problems.
func ProblemCodes() []match.Code { return transcriptProblems.Codes() }

// CheckTranscripts checks each transcript present in the engine's folder of
// the record db against the engine.move events that attest it (in record
// order): the SHA-256 of the file's first bytes up to each one's bestmove
// line must be the one recorded. The first that does not hold names the
// first line that differs (each event's short hashes of its new lines
// find it), or says the file is shorter than attested.
func CheckTranscripts(db string, moves []Attested) (TranscriptReport, error) {
	var rep TranscriptReport
	byFile := map[string][]Attested{}
	for _, m := range moves {
		byFile[m.File] = append(byFile[m.File], m)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, name := range files {
		path := filepath.Join(Dir(db), name)
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			rep.Missing = append(rep.Missing, path)
			if at := byFile[name][0].Where; at != "" {
				if rep.Elsewhere == nil {
					rep.Elsewhere = map[string]string{}
				}
				rep.Elsewhere[path] = at
			}
			continue
		}
		if err != nil {
			return rep, err
		}
		rep.Checked = append(rep.Checked, path)
		if p := checkTranscript(path, b, byFile[name]); p != nil && rep.Why == nil {
			rep.Why, rep.Problem = p, p.Error()
		}
	}
	return rep, nil
}

// checkTranscript checks one transcript's bytes against its attestations.
func checkTranscript(path string, b []byte, moves []Attested) *phrase.Error {
	// ends[i] is the offset after line i+1's newline
	var ends []int
	for i, c := range b {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	lineAt := func(n int) []byte { // line n (1-based) without its newline
		start := 0
		if n > 1 {
			start = ends[n-2]
		}
		return bytes.TrimSuffix(b[start:ends[n-1]], []byte("\n"))
	}
	good := 0 // lines known to be as attested
	for _, m := range moves {
		if m.Lines > len(ends) {
			return transcriptProblems.Refuse(CodeTranscriptCutShort, path, len(ends), m.Seq, m.Lines)
		}
		sum := sha256.Sum256(b[:ends[m.Lines-1]])
		if hex.EncodeToString(sum[:]) == m.SHA256 && int64(ends[m.Lines-1]) == m.Bytes {
			good = max(good, m.Lines)
			continue
		}
		for i, h := range m.LineHashes {
			n := m.From + i + 1
			if n > good && LineHash(lineAt(n)) != h {
				return transcriptProblems.Refuse(CodeTranscriptLineDiffers, n, path, m.Seq, string(lineAt(n)))
			}
		}
		return transcriptProblems.Refuse(CodeTranscriptDiffers, path, m.Seq, good+1, m.Lines)
	}
	return nil
}

// Attestations are the engine.move events of evs (a record's, in order)
// with what each attests, as CheckTranscripts takes them.
func Attestations(evs []store.Event) ([]Attested, error) {
	var moves []Attested
	where := map[string]string{} // the bridges' stations, by id
	for _, e := range evs {
		if e.Kind == match.KindEngineStart {
			var p match.EngineStartPayload
			if json.Unmarshal(e.Payload, &p) == nil {
				where[p.Bridge] = fmt.Sprint((&match.Bridge{EngineStartPayload: p}).Where())
			}
		}
		if e.Kind != match.KindEngineMove {
			continue
		}
		t, err := EventTranscript(e.Payload)
		if err != nil {
			return nil, fmt.Errorf("engine.move event %d cannot be read: %v", e.Seq, err)
		}
		a := Attested{Seq: e.Seq, Game: e.Game, EngineTranscript: t}
		for id, at := range where {
			if t.File == TranscriptName(e.Game, id) {
				a.Where = at
			}
		}
		moves = append(moves, a)
	}
	return moves, nil
}

// EventTranscript reads what an engine.move event's payload attests.
func EventTranscript(payload []byte) (match.EngineTranscript, error) {
	var p match.EngineMovePayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return match.EngineTranscript{}, err
	}
	return p.EngineTranscript, nil
}
