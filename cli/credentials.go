package cli

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"arbiter/match"
	"arbiter/service"
)

func init() {
	register(&command{name: "credential add", writes: true, roles: rolesArbiter,
		usage:   "credential add --role arbiter|operator|player [--player NAME] (--secret PASSPHRASE | --key-file FILE)",
		summary: "Hand out a credential: the operator's, a player's, or a new one of the arbiter's (on an unprotected match: the arbiter's, which protects it).",
		parse:   parseCredentialAdd, told: toldCredentialAdd})
	register(&command{name: "credential check", writes: true, roles: rolesAnyone,
		usage:   "credential check",
		summary: "Check the credential given (--pin, --secret or --key-file) as any command of the role would, doing nothing: a wrong one is recorded (auth.fail) and backs off like any other.",
		parse:   parseCredentialCheck, told: toldCredentialCheck})
	register(&command{name: "credential keygen", roles: rolesRead, usage: "credential keygen FILE",
		summary: "Write a new key file (an Ed25519 key, readable only by you) to give with --key-file instead of a passphrase.",
		run:     runCredentialKeygen})
	register(&command{name: "credential list", reads: true, roles: rolesRead, usage: "credential list",
		summary: "List the match's credentials by role with their key fingerprints (no secret is shown or stored).",
		run:     runCredentialList})
}

// loadKey reads the --key-file of the current line, once.
func (r *runner) loadKey() error {
	r.key = nil
	if r.g.KeyFile == "" {
		return nil
	}
	k, err := readKeyFile(r.g.KeyFile)
	if err != nil {
		return err
	}
	r.key = k
	return nil
}

func readKeyFile(path string) (ed25519.PrivateKey, error) { return service.ReadKeyFile(path) }

func parseCredentialAdd(r *runner, a *args) (match.Command, error) {
	role, _ := a.take("role")
	player, _ := a.take("player")
	secret, _ := a.take("secret")
	keyFile, _ := a.take("key-file")
	if err := a.done("credential add", 0); err != nil {
		return nil, err
	}
	if role == "" {
		return nil, fmt.Errorf("credential add needs --role arbiter, operator or player")
	}
	spec := match.CredentialAdd{Role: match.Role(strings.ToLower(role)), Player: player, Secret: secret}
	if keyFile != "" {
		k, err := readKeyFile(keyFile)
		if err != nil {
			return nil, err
		}
		spec.Key = k
	}
	return spec, nil
}

// toldCredentialAdd says whose credential was recorded, as which event,
// and the new key's fingerprint ("credential of the operator (passphrase)
// recorded as event 7; its key: a8633697 …"); before, the fingerprint alone.
func toldCredentialAdd(r *runner, res match.Result) {
	c, ok := res.Registered()
	if !ok || r.inPlay {
		return
	}
	e, ok := recordedEvent(res, match.KindCredentialAdd, nil)
	if !ok {
		return
	}
	whose := "the " + c.Role
	if c.Role == "player" {
		whose = "player " + c.Name
	}
	kind := c.Kind
	if kind == "key" {
		kind = "key file"
	}
	r.out("credential of %s (%s) %s; its key: %s\n", whose, kind, e.as(), match.HexBlocks(c.Fingerprint()))
}

// runCredentialCheck checks the credential given and writes nothing when
// it is right (or none is needed); a wrong one is recorded as auth.fail and
// backs off, as at the console's PIN prompt (match.App.CheckCredential). On
// a station's record it is the command a wrong credential given there is
// reported with (service.Link.CheckCredential).
func parseCredentialCheck(r *runner, a *args) (match.Command, error) {
	return match.CredentialCheck{}, a.done("credential check", 0)
}

func runCredentialKeygen(r *runner, a *args) error {
	if err := a.done("credential keygen", 1); err != nil {
		return err
	}
	if len(a.pos) != 1 {
		return fmt.Errorf("credential keygen needs the file to write")
	}
	path := a.pos[0]
	b, err := match.NewKeyFile()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("cannot create the folder for %s: %v", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if os.IsExist(err) {
			return fmt.Errorf("%s exists already: a key file is never overwritten, choose a new name", path)
		}
		return fmt.Errorf("cannot write the key file %s: %v", path, err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("cannot write the key file %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cannot write the key file %s: %v", path, err)
	}
	k, _ := match.ParseKeyFile(b)
	r.out("%s\n", match.HexBlocks(match.Fingerprint(hex.EncodeToString(k.Public().(ed25519.PublicKey)))))
	return nil
}

func runCredentialList(r *runner, a *args) error {
	if err := a.done("credential list", 0); err != nil {
		return err
	}
	st := r.app.State()
	if !st.Protected() {
		r.out("unprotected match: no credentials\n")
		if m := st.Match; m != nil && m.ID != "" {
			r.out("match id: %s\n", match.HexBlocks(m.ID))
		}
		return nil
	}
	for _, id := range []string{"arbiter", "operator"} {
		if c := st.Credential(id); c != nil {
			r.out("%-24s %-10s %s\n", id, c.Kind, match.HexBlocks(c.Fingerprint()))
		}
	}
	if m := st.Match; m != nil {
		for _, p := range m.Players {
			if c := st.Credential("player:" + p); c != nil {
				r.out("%-24s %-10s %s\n", "player "+p, c.Kind, match.HexBlocks(c.Fingerprint()))
			}
		}
	}
	for _, line := range keyHistory(st.ArbiterKeys()) {
		r.out("%s\n", line)
	}
	if m := st.Match; m != nil && m.ID != "" {
		r.out("match id: %s\n", match.HexBlocks(m.ID))
	}
	return nil
}

// exportSeal runs before an export: with the arbiter's credential it signs
// the chain's head; without one it writes nothing and says which head the
// arbiter signed last.
func (r *runner) exportSeal() (match.Seal, error) {
	// the same step as the console's exports (service.ExportSeal)
	s, signed, err := service.ExportSeal(r.ctx, r.app, r.cmd(), r.g.PIN != "" || (r.key != nil && r.g.Role == match.RoleArbiter))
	var nv *service.NotVerified
	switch {
	case errors.As(err, &nv):
		return match.Seal{}, fmt.Errorf("the record does not verify (%s), so no report can vouch for it: %s", nv.Why, brokenRecordAction)
	case err != nil:
		return s, err
	case signed:
		r.tell("the arbiter signed the head at event %d: %s (key %s)", s.HeadSeq, match.HexBlocks(s.Head), match.HexBlocks(s.ArbiterKey))
		return s, nil
	case !s.Signed:
		return s, nil // no arbiter key: nothing to name
	}
	if s.HeadSeq == 0 {
		r.tell("nothing signed (no --pin given): the arbiter has signed no head yet; an export given with --pin signs this one")
	} else {
		r.tell("nothing signed (no --pin given): the last head the arbiter signed is event %d: %s", s.HeadSeq, match.HexBlocks(s.Head))
	}
	return s, nil
}
