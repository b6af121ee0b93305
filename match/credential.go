package match

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"arbiter/internal/kdf"
	"arbiter/internal/phrase"
	"arbiter/store"
)

// Event kinds of the credential model (docs/store.md, "Credentials").
const (
	KindCredentialAdd = "credential.add" // game 0; payload Credential
	KindAuthFail      = "auth.fail"      // game 0; payload AuthFailPayload
)

// MinSecret is the shortest passphrase accepted for a credential.
const MinSecret = 10

// Credential is a role's credential as recorded: its public signing key and,
// for a passphrase, the argon2id salt, parameters and verifier and the
// signing key sealed under the argon2id-derived key. The passphrase itself
// is never recorded.
type Credential struct {
	Role      string      `json:"role"`           // "arbiter", "operator" or "player"
	Name      string      `json:"name,omitempty"` // the player, for role "player"
	Kind      string      `json:"kind"`           // "passphrase" or "key" (a key file)
	KDF       string      `json:"kdf,omitempty"`  // "argon2id"
	Params    *kdf.Params `json:"params,omitempty"`
	Salt      string      `json:"salt,omitempty"`
	Verifier  string      `json:"verifier,omitempty"`
	Sealed    string      `json:"sealed_key,omitempty"` // AES-256-GCM: nonce || ciphertext of the Ed25519 seed
	PublicKey string      `json:"public_key"`           // Ed25519, hex
}

// AuthFailPayload records a wrong credential: the event's role and actor are
// who tried; Credential is whose credential was tried.
type AuthFailPayload struct {
	Credential string `json:"credential"` // "arbiter", "operator", "player:NAME"
	Given      string `json:"given"`      // "passphrase" or "key"
}

// ID names whose credential it is: "arbiter", "operator" or "player:NAME".
func (c *Credential) ID() string {
	if c.Role == "player" {
		return "player:" + c.Name
	}
	return c.Role
}

// Fingerprint is the SHA-256 of the public key, 64 hex digits.
func (c *Credential) Fingerprint() string { return Fingerprint(c.PublicKey) }

// Fingerprint of a hex public key: hex(SHA-256(key bytes)).
func Fingerprint(pubHex string) string {
	b, err := hex.DecodeString(pubHex)
	if err != nil {
		return ""
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// unlock returns the signing key if secret (or key) is this credential's.
func (c *Credential) unlock(secret string, key ed25519.PrivateKey) (ed25519.PrivateKey, bool) {
	pub, err := hex.DecodeString(c.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return nil, false
	}
	if key != nil {
		got := key.Public().(ed25519.PublicKey)
		return key, subtle.ConstantTimeCompare(got, pub) == 1
	}
	if c.Kind != "passphrase" || c.Params == nil {
		return nil, false
	}
	salt, err1 := hex.DecodeString(c.Salt)
	ver, err2 := hex.DecodeString(c.Verifier)
	sealed, err3 := hex.DecodeString(c.Sealed)
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, false
	}
	d, ok := kdf.Check(secret, salt, ver, *c.Params)
	if !ok {
		return nil, false
	}
	seed, err := kdf.Open(d.Seal, sealed, pub)
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, false
	}
	k := ed25519.NewKeyFromSeed(seed)
	if subtle.ConstantTimeCompare(k.Public().(ed25519.PublicKey), pub) != 1 {
		return nil, false
	}
	return k, true
}

// newCredential makes the credential of role (name: the player) from a
// passphrase or a key; it returns the unlocked signing key with it.
func newCredential(role, name, secret string, key ed25519.PrivateKey) (*Credential, ed25519.PrivateKey, error) {
	c := &Credential{Role: role, Name: name}
	if key != nil {
		c.Kind = "key"
		c.PublicKey = hex.EncodeToString(key.Public().(ed25519.PublicKey))
		return c, key, nil
	}
	if utf8.RuneCountInString(secret) < MinSecret {
		return nil, nil, refuseAs(CodePassphraseTooShort, MinSecret)
	}
	if !utf8.ValidString(secret) {
		return nil, nil, refuseAs(CodePassphraseNotUTF8)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("match: key: %w", err)
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return nil, nil, fmt.Errorf("match: salt: %w", err)
	}
	p := kdf.Current
	d := kdf.Derive(secret, salt, p)
	pub := priv.Public().(ed25519.PublicKey)
	sealed, err := kdf.Seal(d.Seal, priv.Seed(), pub)
	if err != nil {
		return nil, nil, fmt.Errorf("match: seal key: %w", err)
	}
	c.Kind, c.KDF, c.Params = "passphrase", "argon2id", &p
	c.Salt, c.Verifier, c.Sealed = hex.EncodeToString(salt), hex.EncodeToString(d.Verifier[:]), hex.EncodeToString(sealed)
	c.PublicKey = hex.EncodeToString(pub)
	return c, priv, nil
}

// KeyFileHeader starts a key file; the rest of its line is the Ed25519 seed in hex.
const KeyFileHeader = "arbiter-key-v1"

// NewKeyFile returns the contents of a new key file.
func NewKeyFile() ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	return []byte(KeyFileHeader + " " + hex.EncodeToString(priv.Seed()) + "\n"), nil
}

// ParseKeyFile reads a key file made by NewKeyFile.
func ParseKeyFile(b []byte) (ed25519.PrivateKey, error) {
	f := strings.Fields(string(b))
	if len(f) != 2 || f[0] != KeyFileHeader {
		return nil, refuseAs(CodeNotAKeyFile)
	}
	seed, err := hex.DecodeString(f[1])
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, refuseAs(CodeKeyFileDamaged)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// authState is the credentials and the recent wrong attempts, rebuilt from
// the log. Its maps are never changed in place (states share them).
type authState struct {
	Creds map[string]*Credential  // by Credential.ID()
	Fails map[string]failureCount // by credential ID: wrong attempts since that role last acted
	// ArbiterKeys are the arbiter's keys in the order registered: the
	// first (match.new's, or the credential that protected the match) and
	// every rotation after it. Never changed in place.
	ArbiterKeys []ArbiterKey
}

// ArbiterKey is one of the arbiter's keys as the record registers it: the
// first anchors the record ('verify --key'); each later one is a rotation,
// signed by the key it replaces (docs/store.md, "Credentials").
type ArbiterKey struct {
	Seq       int64  // the event that registers it (match.new or credential.add)
	Kind      string // the event's kind
	PublicKey string // Ed25519, hex
}

// Fingerprint is the SHA-256 of the key, 64 hex digits.
func (k ArbiterKey) Fingerprint() string { return Fingerprint(k.PublicKey) }

type failureCount struct {
	N    int
	Last time.Time
}

// withCred registers c, registered by event e.
func (a authState) withCred(c *Credential, e store.Event) authState {
	m := map[string]*Credential{}
	for k, v := range a.Creds {
		m[k] = v
	}
	m[c.ID()] = c
	a.Creds = m
	if c.Role == "arbiter" {
		a.ArbiterKeys = append(a.ArbiterKeys[:len(a.ArbiterKeys):len(a.ArbiterKeys)], ArbiterKey{Seq: e.Seq, Kind: e.Kind, PublicKey: c.PublicKey})
	}
	return a
}

func (a authState) withFail(id string, at time.Time) authState {
	m := map[string]failureCount{}
	for k, v := range a.Fails {
		m[k] = v
	}
	f := m[id]
	f.N++
	f.Last = at
	m[id] = f
	a.Fails = m
	return a
}

func (a authState) clearFails(ids ...string) authState {
	touched := false
	for _, id := range ids {
		if _, ok := a.Fails[id]; ok {
			touched = true
		}
	}
	if !touched {
		return a
	}
	m := map[string]failureCount{}
	for k, v := range a.Fails {
		m[k] = v
	}
	for _, id := range ids {
		delete(m, id)
	}
	a.Fails = m
	return a
}

// Protected reports whether the match has an arbiter credential (or a PIN
// of an older record).
func (s *State) Protected() bool {
	return s.Auth.Creds["arbiter"] != nil || (s.Match != nil && s.Match.PINHash != "")
}

// ArbiterCredential is the arbiter's credential, nil if the match is unprotected.
func (s *State) ArbiterCredential() *Credential { return s.Auth.Creds["arbiter"] }

// ArbiterKeys are the arbiter's keys in the order registered: the first,
// which anchors the record, then each rotation (none: unprotected).
func (s *State) ArbiterKeys() []ArbiterKey { return s.Auth.ArbiterKeys }

// Credential returns the credential with the given ID, or nil.
func (s *State) Credential(id string) *Credential { return s.Auth.Creds[id] }

// credentialID is whose credential a role needs now: the operator's, or the
// player's who has that colour in the current game.
func (s *State) credentialID(r Role) string {
	switch r {
	case RoleArbiter, RoleOperator:
		return string(r)
	case RoleWhite, RoleBlack:
		g := s.CurrentGame()
		if g == nil {
			return ""
		}
		return "player:" + s.actorName(r, g.Number)
	}
	return ""
}

// Backoff is the wait after n consecutive wrong credentials: 1 s after the
// first, doubling with each further one, at most one hour.
func Backoff(n int) time.Duration {
	if n <= 0 {
		return 0
	}
	d := time.Second
	for i := 1; i < n && d < time.Hour; i++ {
		d *= 2
	}
	if d > time.Hour {
		d = time.Hour
	}
	return d
}

// backoffUntil is the earliest instant the credential id may be tried again.
func (s *State) backoffUntil(id string) time.Time {
	f, ok := s.Auth.Fails[id]
	if !ok {
		return time.Time{}
	}
	return f.Last.Add(Backoff(f.N))
}

// backoffAt is the end of the wait a try of credential id at instant at
// falls in (zero: none): a command given before the last wrong attempt —
// a press stamped at a station and delivered after it — was not given
// during the wait, so the attempt neither refuses nor moves it.
func (s *State) backoffAt(id string, at time.Time) time.Time {
	if f, ok := s.Auth.Fails[id]; !ok || at.Before(f.Last) {
		return time.Time{}
	}
	return s.backoffUntil(id)
}

func applyCredentialAdd(s *State, e store.Event) error {
	var c Credential
	if err := decode(e, &c); err != nil {
		return err
	}
	s.Auth = s.Auth.withCred(&c, e)
	if c.Role == "arbiter" {
		s.ownMatch().Credential = &c
	}
	return nil
}

func applyAuthFail(s *State, e store.Event) error {
	var p AuthFailPayload
	if err := decode(e, &p); err != nil {
		return err
	}
	s.Auth = s.Auth.withFail(p.Credential, e.At)
	return nil
}

// noteActed clears the wrong attempts of the role that acted in e.
func (s *State) noteActed(e store.Event) {
	if len(s.Auth.Fails) == 0 || e.Kind == KindAuthFail {
		return
	}
	switch Role(e.Role) {
	case RoleArbiter:
		s.Auth = s.Auth.clearFails("arbiter")
	case RoleOperator:
		s.Auth = s.Auth.clearFails("operator")
	case RoleWhite, RoleBlack:
		s.Auth = s.Auth.clearFails("player:" + e.Actor)
	}
}

// authn is the outcome of checking the credentials a command was given.
type authn struct {
	protected bool
	legacy    bool               // an older record's SHA-256 PIN: checked, nothing signed
	signer    string             // the credential that signs the command
	signerPub string             // its public key (hex), to notice a change meanwhile
	key       ed25519.PrivateKey // the signing key
	arbiter   ed25519.PrivateKey // the arbiter's key, when his credential was given (signs heads)
	req       *SignedRequest     // a command given at another station, its signature checked
	fail      *AuthFailPayload   // a wrong credential was given
	tried     []string           // the credentials given (their back-off is checked again inside the transaction)
	err       error              // the refusal when none was given
}

// authenticate checks the credentials of c against st, before the write
// transaction (argon2id is slow on purpose; the lock is not held meanwhile).
func authenticate(st *State, c Cmd, at time.Time) (authn, error) {
	var an authn
	if st.Match == nil {
		return an, nil
	}
	an.protected = st.Protected()
	if !an.protected || c.Role == RoleSystem {
		return an, nil // the system's own events (recovery) need no credential
	}
	if st.ArbiterCredential() == nil { // an older record: a SHA-256 PIN guards the arbiter only
		an.legacy = true
		if c.Role != RoleArbiter {
			return an, nil
		}
		if st.Match.CheckPIN(c.PIN) {
			return an, nil
		}
		if c.PIN == "" {
			an.err = forbidAs(CodeNeedPIN)
			return an, nil
		}
		an.fail = &AuthFailPayload{Credential: "arbiter", Given: "passphrase"}
		return an, nil
	}
	if c.Tried != nil || c.Signed != nil {
		return authenticateRemote(st, c, at)
	}
	pin, secret, key := c.PIN, c.Secret, c.Key
	if c.Role == RoleArbiter && pin == "" {
		pin, secret = secret, ""
	}
	var arbKey ed25519.PrivateKey
	if c.Role == RoleArbiter && key != nil {
		arbKey, key = key, nil
	}
	ownID := st.credentialID(c.Role)
	tries := []string{}
	if pin != "" || arbKey != nil {
		tries = append(tries, "arbiter")
	}
	if c.Role != RoleArbiter && (secret != "" || key != nil) {
		tries = append(tries, ownID)
	}
	an.tried = tries
	for _, id := range tries {
		if until := st.backoffAt(id, at); at.Before(until) {
			return an, st.TooManyWrong(id, until)
		}
	}
	given := func(k ed25519.PrivateKey) string {
		if k != nil {
			return "key"
		}
		return "passphrase"
	}
	if pin != "" || arbKey != nil {
		k, ok := st.ArbiterCredential().unlock(pin, arbKey)
		if !ok {
			an.fail = &AuthFailPayload{Credential: "arbiter", Given: given(arbKey)}
			return an, nil
		}
		an.arbiter, an.key, an.signer = k, k, "arbiter"
	}
	if c.Role != RoleArbiter && (secret != "" || key != nil) {
		cred := st.Credential(ownID)
		if cred == nil {
			return an, forbidAs(CodeNoCredential, credWord(ownID))
		}
		k, ok := cred.unlock(secret, key)
		if !ok {
			an.fail = &AuthFailPayload{Credential: ownID, Given: given(key)}
			return an, nil
		}
		an.key, an.signer = k, ownID
	}
	if an.key == nil {
		if c.Role == RoleArbiter {
			an.err = forbidAs(CodeNeedPINOrKey)
		} else {
			an.err = forbidAs(CodeNeedCredential, c.Role, credentialWord(ownID))
		}
		return an, nil
	}
	an.signerPub = hex.EncodeToString(an.key.Public().(ed25519.PublicKey))
	return an, nil
}

// credWord names a credential ID in a sentence: "arbiter", "operator", "player Deep Blue".
func credWord(id string) any {
	if name, ok := strings.CutPrefix(id, "player:"); ok {
		return phrase.Errorf("player %s", name)
	}
	return Role(id)
}

// UnprotectedWarning is said at every arbiter action on a match without an
// arbiter credential.
func UnprotectedWarning() error {
	return refuseAs(CodeUnprotected)
}

// CredentialAdd records a credential the arbiter hands out ('credential
// add'): the operator's or a player's, or a new one of his own. On an
// unprotected match only the arbiter's can be added (which protects the
// match from then on). The new credential is given as a passphrase
// (Secret), a key file's key (Key), or as made where a station's command
// was given (Made): only the last is ever encoded.
type CredentialAdd struct {
	Role   Role               `json:"role"`             // arbiter, operator, or player (white/black) with Player
	Player string             `json:"player,omitempty"` // the player's name (role "player")
	Secret string             `json:"-"`                // a passphrase of at least MinSecret characters
	Key    ed25519.PrivateKey `json:"-"`
	// Made is the credential as made where a station's command was given
	// (NewCredential): the record's form only, no passphrase or key.
	Made *Credential `json:"credential,omitempty"`
}

func (CredentialAdd) Kind() string { return "credential.add" }

// Validate checks that one credential is given for a role that takes one.
func (spec CredentialAdd) Validate() error {
	_, _, err := spec.roleAndName()
	return err
}

// roleAndName is the role and name the new credential is made for.
func (spec CredentialAdd) roleAndName() (role, name string, err error) {
	if n := btoi(spec.Secret != "") + btoi(spec.Key != nil) + btoi(spec.Made != nil); n != 1 {
		return "", "", refuseAs(CodeCredentialOneOf)
	}
	switch spec.Role {
	case RoleArbiter, RoleOperator:
		if spec.Player != "" {
			return "", "", refuseAs(CodePlayerCredentialNeedsRole)
		}
		return string(spec.Role), "", nil
	case "player", RoleWhite, RoleBlack:
		return "player", spec.Player, nil
	}
	return "", "", refuseAs(CodeNotACredentialRole, string(spec.Role))
}

func (spec CredentialAdd) run(t *tx, res *Result) error {
	f, err := spec.prepare(t.st, t.cmd)
	if err != nil {
		return err
	}
	return f(t, res)
}

// prepare makes the new credential before the transaction (a passphrase's
// argon2id is slow on purpose); only the arbiter hands one out.
func (spec CredentialAdd) prepare(_ *State, c Cmd) (func(t *tx, res *Result) error, error) {
	if c.Role != RoleArbiter {
		return nil, forbidAs(CodeCredentialAddNeedsArbiter, c.Role)
	}
	role, name, err := spec.roleAndName()
	if err != nil {
		return nil, err
	}
	var cred *Credential
	var key ed25519.PrivateKey
	if spec.Made != nil {
		cred, err = spec.Made, checkMade(spec.Made, role, name)
	} else {
		cred, key, err = newCredential(role, name, spec.Secret, spec.Key)
	}
	if err != nil {
		return nil, err
	}
	return func(t *tx, _ *Result) error {
		m, err := t.match()
		if err != nil {
			return err
		}
		if role == "player" && name != m.Players[0] && name != m.Players[1] {
			return refuseAs(CodeCredentialNotAPlayer, name, m.Players[0], m.Players[1])
		}
		if role == "operator" && m.Computer == "" {
			return refuseAs(CodeNoOperatorCredential)
		}
		if !t.st.Protected() {
			if role != "arbiter" {
				return refuseAs(CodeProtectFirst)
			}
			if key == nil {
				// made at another station: its request, signed there by the new key
				req, ok := registrationSignedBy(c, cred)
				if !ok {
					return refuseAs(CodeRegistrationUnsigned)
				}
				t.signer, t.signReq = "arbiter", req
				return t.emit(0, KindCredentialAdd, cred)
			}
			t.signWith("arbiter", key, true) // the new key signs its own registration
		} else if t.st.ArbiterCredential() == nil {
			return refuseAs(CodeOlderPIN)
		}
		return t.emit(0, KindCredentialAdd, cred)
	}, nil
}

// credential is the arbiter's credential of a new match (nil: unprotected).
func (spec MatchNew) credential() (*Credential, ed25519.PrivateKey, error) {
	if spec.PIN == "" && spec.ArbiterKey == nil {
		return nil, nil, nil
	}
	if spec.PIN != "" && spec.ArbiterKey != nil {
		return nil, nil, refuseAs(CodePINOrKeyNotBoth)
	}
	return newCredential("arbiter", "", spec.PIN, spec.ArbiterKey)
}

// Protected reports whether the match has an arbiter credential (or an
// older record's PIN).
func (m *Match) Protected() bool { return m.Credential != nil || m.PINHash != "" }

// CredentialCheck checks the credentials it is given with as any command of
// that role would ('credential check'), and writes nothing when they are
// right (or the match is unprotected). A wrong credential is recorded and
// backs off like any other (a console's PIN prompt uses this, so guessing
// there is no cheaper).
type CredentialCheck struct{}

func (CredentialCheck) Kind() string { return "credential.check" }

// Validate has nothing to check.
func (CredentialCheck) Validate() error { return nil }

func (CredentialCheck) run(*tx, *Result) error { return nil }

// prepare runs nothing on a match that needs no credential.
func (CredentialCheck) prepare(st *State, _ Cmd) (func(t *tx, res *Result) error, error) {
	if st.Match == nil || !st.Protected() {
		return nil, nil
	}
	return func(*tx, *Result) error { return nil }, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
