//go:build !nostation

package service

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/match"
)

// TestAnOperatorsPassphraseIsRefusedForAnInvitationSayingHowToMakeAKey: an
// operator's invitation on a match whose operator's credential is a
// passphrase (credential add --role operator --secret) is refused saying
// how to replace it with a key file, which an invitation can carry; before,
// the refusal asked for the credential's key file, which does not exist, and
// any key file given was "not the operator's credential of this match".
func TestAnOperatorsPassphraseIsRefusedForAnInvitationSayingHowToMakeAKey(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	app, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(1996, 2, 10, 19, 0, 0, 0, time.UTC)
	pin := "Mike Valvo's passphrase"
	arb := match.Actor{Role: match.RoleArbiter}
	if _, err := app.Do(ctx, match.Cmd{At: start, Actor: arb}, match.MatchNew{Title: "ACM Chess Challenge",
		Players: [2]string{"Garry Kasparov", "Deep Blue"}, Computer: "Deep Blue", White: "Deep Blue", PIN: pin}); err != nil {
		t.Fatal(err)
	}
	arb.PIN = pin
	if _, err := app.Do(ctx, match.Cmd{At: start.Add(time.Minute), Actor: arb}, match.CredentialAdd{Role: match.RoleOperator, Secret: "Hsu's passphrase"}); err != nil {
		t.Fatal(err)
	}
	app.DB().Close()
	keyFile := filepath.Join(t.TempDir(), "op.key")
	key, err := match.NewKeyFile()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, key, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		keyFile string
	}{
		{"without a key file it says how to make one", ""},
		{"with a key file it says the passphrase is to be replaced by it", keyFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := OperatorCredential(ctx, path, Global{DB: path, PIN: pin}, tc.keyFile, nil)
			var ke *OperatorKeyError
			if !errors.As(err, &ke) || ke.Kind != OperatorKeyPassphrase {
				t.Fatalf("err = %v, want the refusal of a passphrase (the console words it by its kind)", err)
			}
			for _, want := range []string{"is a passphrase, which an invitation cannot carry", "credential keygen FILE", "credential add --role operator --key-file FILE"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the refusal %q does not say %q", err, want)
				}
			}
		})
	}
}
