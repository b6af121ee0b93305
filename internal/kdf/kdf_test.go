package kdf

import (
	"bytes"
	"testing"
)

func TestKDF(t *testing.T) {
	salt := []byte("0123456789abcdef")
	d := Derive("the right passphrase", salt, Fast)
	t.Run("the right passphrase matches its verifier", func(t *testing.T) {
		if _, ok := Check("the right passphrase", salt, d.Verifier[:], Fast); !ok {
			t.Error("refused")
		}
	})
	t.Run("a wrong passphrase does not, even after the right one was cached", func(t *testing.T) {
		if _, ok := Check("the wrong passphrase", salt, d.Verifier[:], Fast); ok {
			t.Error("accepted")
		}
	})
	t.Run("another salt or other parameters give another verifier", func(t *testing.T) {
		if e := Derive("the right passphrase", []byte("fedcba9876543210"), Fast); e.Verifier == d.Verifier {
			t.Error("same verifier under another salt")
		}
		if e := Derive("the right passphrase", salt, Params{Time: 2, Memory: 8, Threads: 1}); e.Verifier == d.Verifier {
			t.Error("same verifier under other parameters")
		}
	})
	t.Run("the seal key and the verifier are different halves", func(t *testing.T) {
		if d.Seal == d.Verifier {
			t.Error("seal key equals verifier")
		}
	})
	t.Run("a sealed key opens only with its key and associated data", func(t *testing.T) {
		sealed, err := Seal(d.Seal, []byte("secret seed"), []byte("public"))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := Open(d.Seal, sealed, []byte("public")); err != nil || !bytes.Equal(got, []byte("secret seed")) {
			t.Errorf("open: %q %v", got, err)
		}
		if _, err := Open(d.Verifier, sealed, []byte("public")); err == nil {
			t.Error("opened with the wrong key")
		}
		if _, err := Open(d.Seal, sealed, []byte("other")); err == nil {
			t.Error("opened with other associated data")
		}
	})
	t.Run("production costs more than the test parameters", func(t *testing.T) {
		if Production.Time*Production.Memory < 64*1024 || Current != Production {
			t.Errorf("production %+v, current %+v", Production, Current)
		}
	})
}
