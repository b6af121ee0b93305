package match

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"arbiter/store"
)

// A command given at a station (docs/stations.md) is sent to the match's
// authority, which appends its events. The credential never crosses the
// network: where the command is given, the role's key is unlocked (a
// passphrase opens the sealed key of the credential in that station's
// replica; a key file is read) and signs the request; the authority checks
// the signature against the credential's public key in the record and runs
// the command as that authenticated actor. The request signature is kept
// beside the command's events (signatures row of kind "request", its
// fields in the row's Request column), so that verify re-checks it on
// every replica.

// SignedRequest is a command as its role signed it where it was given.
//
// Two versions are signed (docs/store.md, "What is signed"). A request of
// today (RequestVersion, 2) carries the command's value in its canonical
// encoding (EncodeCommand) and is signed over the request's own canonical
// JSON, {"version", "id", "from", "role", "signer", "instant", "seq",
// "head", "command": {"kind", …}}, which is also what the record keeps
// beside its events. A request of before (version 1, records written until
// issue 25) carried the command line's words and was signed over them; such
// records still verify.
type SignedRequest struct {
	ID     string // the command id (the stream's message id)
	From   string // the station where it was given
	Role   string // the role it is given in
	Signer string // whose credential signs: "arbiter", "operator", "player:NAME"
	AtNS   int64  // the instant stamped where it was given (match timeline)
	Seq    int64  // the last event of the sender's replica when it signed (0: none)
	Head   string // that event's hash
	// Command is the command's canonical encoding (EncodeCommand): a
	// request of version 2.
	Command json.RawMessage
	// Words are the command line's words of a request of version 1 (only
	// read from records written before issue 25).
	Words []string
	Sig   string

	pub string // the signer's public key, once checked against the record
}

// RequestVersion is the version of the requests signed today: over their
// canonical JSON, the command a value (issue 25).
const RequestVersion = 2

// requestJSON is the canonical JSON of a request of version 2, its members
// in this order.
type requestJSON struct {
	Version int             `json:"version"`
	ID      string          `json:"id"`
	From    string          `json:"from"`
	Role    string          `json:"role"`
	Signer  string          `json:"signer"`
	Instant string          `json:"instant"`
	Seq     int64           `json:"seq"`
	Head    string          `json:"head"`
	Command json.RawMessage `json:"command"`
	Sig     string          `json:"sig,omitempty"`
}

// requestV1JSON is how the record kept a request of version 1.
type requestV1JSON struct {
	ID     string   `json:"id"`
	From   string   `json:"from"`
	Role   string   `json:"role"`
	Signer string   `json:"signer"`
	AtNS   int64    `json:"at_ns"`
	Seq    int64    `json:"seq"`
	Head   string   `json:"head"`
	Words  []string `json:"words"`
	Sig    string   `json:"sig,omitempty"`
}

// Version is 2 for a request whose command is a value, 1 for one of words.
func (r SignedRequest) Version() int {
	if r.Words != nil && r.Command == nil {
		return 1
	}
	return RequestVersion
}

// MarshalJSON writes the request in its canonical JSON (its version's form).
func (r SignedRequest) MarshalJSON() ([]byte, error) {
	var v any = requestJSON{Version: RequestVersion, ID: r.ID, From: r.From, Role: r.Role, Signer: r.Signer,
		Instant: time.Unix(0, r.AtNS).UTC().Format(time.RFC3339Nano), Seq: r.Seq, Head: r.Head, Command: r.Command, Sig: r.Sig}
	if r.Version() == 1 {
		v = requestV1JSON{ID: r.ID, From: r.From, Role: r.Role, Signer: r.Signer, AtNS: r.AtNS, Seq: r.Seq, Head: r.Head, Words: r.Words, Sig: r.Sig}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads a request of either version.
func (r *SignedRequest) UnmarshalJSON(b []byte) error {
	var probe struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	if probe.Version == 0 {
		var v requestV1JSON
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		if v.Words == nil {
			v.Words = []string{}
		}
		*r = SignedRequest{ID: v.ID, From: v.From, Role: v.Role, Signer: v.Signer, AtNS: v.AtNS, Seq: v.Seq, Head: v.Head, Words: v.Words, Sig: v.Sig}
		return nil
	}
	var v requestJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v.Version != RequestVersion {
		return fmt.Errorf("request version %d", v.Version)
	}
	at, err := time.Parse(time.RFC3339Nano, v.Instant)
	if err != nil {
		return err
	}
	*r = SignedRequest{ID: v.ID, From: v.From, Role: v.Role, Signer: v.Signer, AtNS: at.UnixNano(), Seq: v.Seq, Head: v.Head,
		Command: v.Command, Sig: v.Sig}
	return nil
}

// RequestMessage is what a role signs for a command sent to the authority.
// Version 2: arbiter-request-v2 and the request's canonical JSON without
// its signature. Version 1 (before issue 25): arbiter-request-v1, the id,
// the sending station, the role, the signing credential, the stamped
// instant, the sender's head (seq, hash), the number of words and each word.
func (r SignedRequest) RequestMessage() []byte {
	if r.Version() == 1 {
		parts := [][]byte{[]byte("arbiter-request-v1"), []byte(r.ID), []byte(r.From), []byte(r.Role), []byte(r.Signer),
			i64(r.AtNS), i64(r.Seq), []byte(r.Head), i64(int64(len(r.Words)))}
		for _, w := range r.Words {
			parts = append(parts, []byte(w))
		}
		return fields(parts...)
	}
	u := r
	u.Sig = ""
	b, err := u.MarshalJSON()
	if err != nil {
		panic(err) // strings, integers and a command's JSON
	}
	return fields([]byte("arbiter-request-v2"), b)
}

// Sign signs the request with key (the signer's unlocked key).
func (r *SignedRequest) Sign(key ed25519.PrivateKey) { r.Sig = sign(key, r.RequestMessage()) }

// verify reports whether pub (hex) signed the request.
func (r SignedRequest) verify(pub string) bool { return verifySig(pub, r.Sig, r.RequestMessage()) }

// mayActAs reports whether the credential signer may give a command in role r
// now: the arbiter's in any role, the operator's and a player's in their own.
func (s *State) mayActAs(signer string, r Role) bool {
	return signer == "arbiter" || (r != RoleArbiter && signer == s.credentialID(r))
}

// CredentialFor is whose credential role r needs now besides the
// arbiter's: "operator", or "player:NAME" of the player who has that colour
// in the current game ("" for the arbiter and when there is no game).
func (s *State) CredentialFor(r Role) string {
	if r == RoleArbiter {
		return "arbiter"
	}
	return s.credentialID(r)
}

// BackoffUntil is the earliest instant the credential id may be tried
// again (zero: at once), as the authority reckons it from the record.
func (s *State) BackoffUntil(id string) time.Time { return s.backoffUntil(id) }

// BackoffAt is the end of the wait a try of credential id at instant at
// falls in (zero: none; a try before the last wrong attempt falls in none).
func (s *State) BackoffAt(id string, at time.Time) time.Time { return s.backoffAt(id, at) }

// Unlock returns the signing key if secret (or key) is this credential's:
// a passphrase opens the sealed key (argon2id, then AES-GCM), a key file's
// key is compared with the public key.
func (c *Credential) Unlock(secret string, key ed25519.PrivateKey) (ed25519.PrivateKey, bool) {
	return c.unlock(secret, key)
}

// NewCredential makes the credential of role ("arbiter", "operator" or
// "player" with name) from a passphrase (sealed here) or a key, and returns
// its unlocked key with it: a station makes a credential it hands out where
// the command is given, so that only the record's form of it is sent.
func NewCredential(role, name, secret string, key ed25519.PrivateKey) (*Credential, ed25519.PrivateKey, error) {
	return newCredential(role, name, secret, key)
}

// WrongCredential is the refusal of a wrong passphrase or key given where a
// station's command was given (the authority recorded the attempt): the
// same as a wrong credential given at the authority.
func (s *State) WrongCredential(id string, until time.Time) error {
	return withCode(CodeWrongCredential, forbid("wrong credential for the %s: the attempt was recorded, and the next one is possible at %s", credWord(id), s.Match.backoffEnd(until)))
}

// TooManyWrong is the refusal of a credential tried during its back-off.
func (s *State) TooManyWrong(id string, until time.Time) error {
	return withCode(CodeTooManyWrong, forbid("too many wrong credentials for the %s: try again at %s", credWord(id), s.Match.backoffEnd(until)))
}

// requestRow is the signatures row of a request signed by the credential
// with public key pub, covering the n events from seq on.
func requestRow(r *SignedRequest, pub string, seq int64, n int) store.Signature {
	f := *r
	f.Sig = ""
	b, err := f.MarshalJSON() // as signed: no HTML escaping
	if err != nil {
		panic(err) // strings and integers only
	}
	return store.Signature{Seq: seq, Kind: store.SigRequest, Count: int64(n), Cmd: r.ID, Signer: r.Signer, Station: r.From,
		Key: pub, Sig: r.Sig, Request: string(b)}
}

// requestOf reads a request row back: the request as signed, or a
// problem's code.
func requestOf(s store.Signature) (SignedRequest, Code) {
	var r SignedRequest
	if err := json.Unmarshal([]byte(s.Request), &r); err != nil {
		return r, CodeRequestUnreadable
	}
	if r.ID != s.Cmd || r.Signer != s.Signer || r.From != s.Station {
		return r, CodeRequestDisagrees
	}
	r.Sig = s.Sig
	return r, ""
}

// checkRequest checks a request row against the record before event index
// i (hashAt is the hash of the record's event seq): the sender's head it
// signed must be the record's event at that seq. It returns the problem
// at event index i, or nil.
func checkRequest(r SignedRequest, hashAt func(seq int64) string, i int) *badEvent {
	if r.Seq < 0 || r.Seq > int64(i) {
		return bad(i, CodeRequestReordered, r.Seq)
	}
	if r.Seq > 0 && hashAt(r.Seq) != r.Head {
		return bad(i, CodeRequestRewritten, r.Seq)
	}
	return nil
}

// checkSignedOn refuses a request signed at another station on a record
// that is not this one (CodeRequestOtherRecord): the event it names as its
// sender's last (seq, hash) must be this record's, as verify checks it
// afterwards (checkRequest). Before, the authority ran such a request — one
// the same key signed in another match (a key file kept for several
// matches, a practice match's record, whose rows keep every request whole),
// or one with a sender's event this record does not hold yet — and
// appended its events: the command was played, and then every replica's
// walk and verify found the record rewritten (record-check-request-rewritten).
// st is the record as the transaction reads it; a request signed on a
// record longer than it is refused too (the station catches up and decides
// again: a refusal is answered only once the stream ends where the record
// did).
func checkSignedOn(stx *store.Tx, st *State, r *SignedRequest) error {
	if r == nil {
		return nil
	}
	if r.Seq < 0 || r.Seq > st.Seq {
		return refuseAs(CodeRequestOtherRecord, r.Seq)
	}
	if r.Seq == 0 {
		return nil
	}
	hash := st.Head
	if r.Seq != st.Seq {
		var err error
		if hash, err = stx.HashAt(r.Seq); err != nil {
			return err
		}
	}
	if hash != r.Head {
		return refuseAs(CodeRequestOtherRecord, r.Seq)
	}
	return nil
}

// authenticateRemote checks a command given at another station: a wrong
// credential that station reports (recorded as auth.fail), or the request
// its role signed, against the credential's public key in the record. The
// back-off applies to both as to a credential given here.
func authenticateRemote(st *State, c Cmd, at time.Time) (authn, error) {
	an := authn{protected: true}
	id, given := "", ""
	if c.Tried != nil {
		id, given = c.Tried.Credential, c.Tried.Given
	} else {
		id, given = c.Signed.Signer, "signature"
		if c.Signed.Role != string(c.Role) {
			return an, forbid("the request was signed for the %s, not the %s: give it again", Role(c.Signed.Role), c.Role)
		}
	}
	if !st.mayActAs(id, c.Role) {
		return an, forbidAs(CodeNeedCredential, c.Role, credentialWord(st.credentialID(c.Role)))
	}
	cred := st.Credential(id)
	if cred == nil {
		return an, forbidAs(CodeNoCredential, credWord(id))
	}
	an.tried = []string{id}
	if until := st.backoffAt(id, at); at.Before(until) {
		return an, st.TooManyWrong(id, until)
	}
	if c.Tried != nil || !c.Signed.verify(cred.PublicKey) {
		if given != "passphrase" && given != "key" {
			given = "signature"
		}
		an.fail = &AuthFailPayload{Credential: id, Given: given}
		return an, nil
	}
	r := *c.Signed
	r.pub = cred.PublicKey
	an.req, an.signer, an.signerPub = &r, id, cred.PublicKey
	return an, nil
}

// registrationSignedBy checks that a new arbiter credential registered at
// another station signs its own registration (the request c.Signed, by the
// key of cred) and returns the request to keep beside it.
func registrationSignedBy(c Cmd, cred *Credential) (*SignedRequest, bool) {
	if c.Signed == nil || c.Signed.Signer != "arbiter" || !c.Signed.verify(cred.PublicKey) {
		return nil, false
	}
	r := *c.Signed
	r.pub = cred.PublicKey
	return &r, true
}

// checkMade checks a credential made at another station (NewCredential)
// before it is recorded: its role, its public key and, for a passphrase,
// the sealed key's fields (the record never holds anything else).
func checkMade(c *Credential, role, name string) error {
	bad := func() error {
		return refuseAs(CodeCredentialNotMadeHere)
	}
	if c.Role != role || c.Name != name {
		return bad()
	}
	if p, err := hexKey(c.PublicKey); err != nil || len(p) != ed25519.PublicKeySize {
		return bad()
	}
	switch c.Kind {
	case "key":
		if c.KDF != "" || c.Params != nil || c.Salt != "" || c.Verifier != "" || c.Sealed != "" {
			return bad()
		}
	case "passphrase":
		if c.KDF != "argon2id" || c.Params == nil || c.Params.Time < 1 || c.Params.Memory < 1 || c.Params.Threads < 1 ||
			c.Salt == "" || c.Verifier == "" || c.Sealed == "" {
			return bad()
		}
	default:
		return bad()
	}
	return nil
}

func hexKey(s string) ([]byte, error) { return hex.DecodeString(s) }

// requestCarriesKey reports whether a signed request registers the
// credential with public key pub (a 'credential add' given at another
// station carries the record's form of the new credential, made there: a
// CredentialAdd's Made, or in a request of version 1 a JSON word): a new
// arbiter key registered through another station must be the one the
// arbiter signed, not one the appending station put in its place.
func requestCarriesKey(r SignedRequest, pub string) bool {
	if r.Version() == 1 {
		for _, w := range r.Words {
			j := strings.IndexByte(w, '{')
			if j < 0 {
				continue
			}
			var c Credential
			if json.Unmarshal([]byte(w[j:]), &c) == nil && c.PublicKey == pub {
				return true
			}
		}
		return false
	}
	cmd, err := DecodeCommand(r.Command)
	add, ok := cmd.(CredentialAdd)
	return err == nil && ok && add.Made != nil && add.Made.PublicKey == pub
}
