package match

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"arbiter/scoresheet"
	"arbiter/store"
)

// Command is one of the closed set of commands that write to the record:
// one type per writing command of the command line (docs/cli.md), with
// named fields, in the manner of benbjohnson/wtf's DialUpdate and net/http's
// Request — the same value whichever face builds it (the command line from
// its words, the console from its dialogs and keys) and, in a later step,
// on the wire between stations. [App.Do] runs it.
//
// A command's fields are checked by Validate, which needs nothing but the
// value (texts, choices, ranges); Do runs Validate in the command's
// transaction, after the credentials were checked, so a face may call it
// earlier to refuse a form before it is given, and is refused the same way
// if it does not. Whatever depends on the match (whose turn it is, which
// game is in progress) is judged by Do alone.
//
// Every command has one canonical JSON encoding, {"kind": KIND, …its
// fields}, written by [EncodeCommand] and read by [DecodeCommand].
type Command interface {
	// Kind names the command on the wire: "move", "game.start", …
	Kind() string
	// Validate checks the fields alone.
	Validate() error
	// run builds the command's events on the transaction's copy of the
	// state; what it tells beyond its events goes into res.
	run(t *tx, res *Result) error
}

// preparer is a command with work to do before its transaction: a new
// credential is made (argon2id is slow on purpose), or a refusal is given
// without one. It returns the function the transaction runs, or nil when
// there is nothing to run (st is the state as the App last read it).
type preparer interface {
	prepare(st *State, by Cmd) (func(t *tx, res *Result) error, error)
}

// Do runs a command given by (who and when) in one transaction: the
// credentials are checked, the command is validated and judged on the
// state, and its events are appended and signed, or nothing is written
// (a wrong credential excepted: it is recorded as auth.fail, and the
// command refused). It returns what the command did, never a sentence:
// each face words the result and a refusal (a [Code] and its arguments)
// itself.
func (a *App) Do(ctx context.Context, by Cmd, c Command) (Result, error) {
	if c == nil {
		return Result{}, refuseAs(CodeNoCommand)
	}
	run := c.run
	if p, ok := c.(preparer); ok {
		f, err := p.prepare(a.State(), by)
		if err != nil || f == nil {
			return Result{}, err
		}
		run = f
	}
	var res Result
	var last *tx
	_, clockOnly := c.(clockBounded)
	err := a.doBounded(ctx, by, clockOnly, func(t *tx) error {
		res, last = Result{}, t
		return run(t, &res)
	})
	if err != nil {
		return Result{}, err
	}
	if last != nil {
		// the transaction's events, as stored: the tx is this call's
		// alone and dropped here, so they are handed over, not copied
		// (docs/performance.md, "Move and commit, thirteenth pass")
		res.Events = slices.Clip(last.events)
	}
	return res, nil
}

// Result is what a command did: the events it appended, as the record
// holds them (numbered and hashed), and what a face shows of them, read
// from those events by its methods — so that a face words the outcome of a
// command run here and of one run by another station's authority alike
// ([ResultOf]). Correction is the one figure no event holds (the working
// of each reading).
type Result struct {
	Events     []store.Event
	Correction *CorrectResult
}

// ResultOf is the result of a command from the events it appended (as a
// station's record holds them once the authority committed it).
func ResultOf(evs []store.Event) Result { return Result{Events: slices.Clone(evs)} }

// event decodes the payload of the command's last event of kind into p.
func (r Result) event(kind string, p any) (store.Event, bool) {
	for i := len(r.Events) - 1; i >= 0; i-- {
		if e := r.Events[i]; e.Kind == kind {
			return e, json.Unmarshal(e.Payload, p) == nil
		}
	}
	return store.Event{}, false
}

// Ended is the game end the command caused.
func (r Result) Ended() (EndPayload, bool) {
	var p EndPayload
	_, ok := r.event(KindGameEnd, &p)
	return p, ok
}

// Moved is the move the command recorded and whether it ended the game.
func (r Result) Moved() (MoveResult, bool) {
	var p MovePayload
	if _, ok := r.event(KindMove, &p); !ok {
		return MoveResult{}, false
	}
	res := MoveResult{SAN: p.SAN}
	if end, ok := r.Ended(); ok {
		res.Ended, res.Result = true, end.Result
	}
	return res, true
}

// Verdict is the ruling on a fallen flag the command recorded (Articles
// 6.3, 6.8, 6.9 and 6.11).
func (r Result) Verdict() (FlagVerdict, bool) {
	var p FlagPayload
	if _, ok := r.event(KindFlag, &p); !ok {
		return FlagVerdict{}, false
	}
	v := FlagVerdict{Reason: p.Reason, Why: p.Why}
	if s, err := sideOf(p.Side); err == nil {
		v.Side = s
	}
	if t, err := time.Parse(time.RFC3339Nano, p.FellAt); err == nil {
		v.FellAt = t
	}
	for _, x := range []scoresheet.Verdict{scoresheet.CannotMate, scoresheet.MatePossible} {
		if p.Verdict == x.String() {
			v.Verdict = x
		}
	}
	if end, ok := r.Ended(); ok {
		v.Result = end.Result
	}
	return v, true
}

// Ruling is the ruling on a claim of a draw the command recorded.
func (r Result) Ruling() (ClaimResult, bool) {
	var p ClaimPayload
	if _, ok := r.event(KindClaim, &p); !ok {
		return ClaimResult{}, false
	}
	return ClaimResult{Valid: p.Valid, Ruling: p.Ruling, Why: p.Why}, true
}

// Corrected is what a position reset the command made did: the figures it
// worked with when the command ran here (Result.Correction), else what its
// events hold — the plies struck out and the recovery bonus (the working of
// each reading and the options are not recorded).
func (r Result) Corrected() (CorrectResult, bool) {
	if r.Correction != nil {
		return *r.Correction, true
	}
	var p CorrectPayload
	if _, ok := r.event(KindCorrect, &p); !ok || len(p.Struck) == 0 {
		return CorrectResult{}, false
	}
	res := CorrectResult{Options: CorrectionOptions{Ply: p.Ply, Mistake: p.Struck[0], Struck: p.Struck}}
	var adj AdjustPayload
	if e, ok := r.event(KindAdjust, &adj); ok && e.Kind == KindAdjust {
		if s, err := sideOf(adj.Side); err == nil {
			res.Bonus = time.Duration(adj.MS)*time.Millisecond + time.Duration(adj.NS)
			res.BonusSide = s
		}
	}
	return res, true
}

// Logged is the incident the command logged, with the instant it was
// logged at (a setup card is printed for that instant: SetupCard).
func (r Result) Logged() (IncidentPayload, time.Time, bool) {
	var p IncidentPayload
	e, ok := r.event(KindIncident, &p)
	return p, e.At, ok
}

// Registered is the credential the command handed out (the record's form:
// its public key, no secret).
func (r Result) Registered() (*Credential, bool) {
	var c Credential
	if _, ok := r.event(KindCredentialAdd, &c); !ok || c.PublicKey == "" {
		return nil, false
	}
	return &c, true
}

// SetupCard is the setup card (rule 12) of a setup incident the command
// logged, as the game stood in st at the incident's instant; ok is false
// for any other command.
func (r Result) SetupCard(st *State, tr func(string) string) (card string, ok bool) {
	inc, at, ok := r.Logged()
	if !ok || inc.Kind != IncidentSetup || st.Match == nil {
		return "", false
	}
	g := st.Game(r.Events[len(r.Events)-1].Game)
	if g == nil {
		return "", false
	}
	return SetupCard(g, st.Match, at, tr), true
}

// commandKinds decodes each command by its kind: the closed set.
var commandKinds = map[string]func(b []byte) (Command, error){
	"match.new":        decodeAs[MatchNew],
	"game.schedule":    decodeAs[GameSchedule],
	"game.start":       decodeAs[GameStart],
	"game.postpone":    decodeAs[GamePostpone],
	"move":             decodeAs[Move],
	"press":            decodeAs[Press],
	"pause":            decodeAs[Pause],
	"resume":           decodeAs[Resume],
	"adjust":           decodeAs[Adjust],
	"draw.offer":       decodeAs[DrawOffer],
	"draw.accept":      decodeAs[DrawAccept],
	"draw.decline":     decodeAs[DrawDecline],
	"resign":           decodeAs[Resign],
	"result":           decodeAs[Decide],
	"incident":         decodeAs[LogIncident],
	"flag":             decodeAs[Flag],
	"correct":          decodeAs[Correct],
	"amend":            decodeAs[Amend],
	"claim":            decodeAs[Claim],
	"forfeit":          decodeAs[Forfeit],
	"arrive":           decodeAs[Arrive],
	"credential.add":   decodeAs[CredentialAdd],
	"credential.check": decodeAs[CredentialCheck],
	"engine.move":      decodeAs[EngineMove],
	"engine.start":     decodeAs[EngineStart],
	"engine.stop":      decodeAs[EngineStop],
}

// CommandKinds lists the kinds of command, sorted.
func CommandKinds() []string {
	ks := make([]string, 0, len(commandKinds))
	for k := range commandKinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// EncodeCommand writes the canonical encoding of c: one JSON object whose
// first member is "kind", followed by the command's fields in the order of
// its type, without spaces, absent fields left out (so that the same
// command is always the same bytes, which a station will sign). Secrets
// (a passphrase, a key) are never encoded.
func EncodeCommand(c Command) ([]byte, error) {
	if c == nil {
		return nil, errors.New("match: no command to encode")
	}
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return nil, fmt.Errorf("match: encode %s: %w", c.Kind(), err)
	}
	fields := bytes.TrimSpace(body.Bytes())
	kind, _ := json.Marshal(c.Kind())
	out := append([]byte(`{"kind":`), kind...)
	if inner := fields[1 : len(fields)-1]; len(inner) > 0 {
		out = append(append(out, ','), inner...)
	}
	return append(out, '}'), nil
}

// DecodeCommand reads a command from its JSON encoding (members in any
// order): its kind must be one of CommandKinds and every other member one
// of that command's fields. It checks the form only; Do validates the
// fields and judges the command.
func DecodeCommand(b []byte) (Command, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil || members == nil {
		return nil, refuseAs(CodeNotAnObject)
	}
	var kind string
	if raw, ok := members["kind"]; !ok || json.Unmarshal(raw, &kind) != nil {
		return nil, refuseAs(CodeNoCommandKind)
	}
	decode, ok := commandKinds[kind]
	if !ok {
		return nil, refuseAs(CodeNotACommandKind, kind)
	}
	delete(members, "kind")
	rest, err := json.Marshal(members)
	if err != nil {
		return nil, refuseAs(CodeNotAnObject)
	}
	return decode(rest)
}

// DecodeCanonical reads a command that must be in its canonical encoding
// (a station's request, signed over these bytes): decoded and encoded
// again, it must give the same bytes, so that the record keeps one
// encoding of each command.
func DecodeCanonical(b []byte) (Command, error) {
	if len(b) == 0 {
		return nil, refuseAs(CodeNoCommand)
	}
	c, err := DecodeCommand(b)
	if err != nil {
		return nil, err
	}
	if again, err := EncodeCommand(c); err != nil || !bytes.Equal(again, b) {
		return nil, refuseAs(CodeNotCanonical, c.Kind())
	}
	return c, nil
}

// ParseRole reads a role a command may be given in (arbiter, operator,
// white, black), as sent by another station.
func ParseRole(s string) (Role, error) {
	switch r := Role(s); r {
	case RoleArbiter, RoleOperator, RoleWhite, RoleBlack:
		return r, nil
	}
	return "", refuseAs(CodeNotARole, s)
}

// decodeAs reads the fields of a command of type C, refusing a member
// that is none of them.
func decodeAs[C Command](b []byte) (Command, error) {
	var c C
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, refuseAs(CodeMalformedCommand, c.Kind(), err.Error())
	}
	return c, nil
}

// clockBounded is a command bounded by its game's clock only (a press, a
// move: tx.clockBound), never by the record's time (docs/stations.md): a
// system event recorded meanwhile neither refuses nor moves it.
type clockBounded interface{ clockBound() }

func (Move) clockBound()  {}
func (Press) clockBound() {}
