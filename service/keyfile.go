package service

import (
	"crypto/ed25519"
	"fmt"
	"os"
	"runtime"

	"arbiter/match"
)

// ReadKeyFile reads a credential's key file (--key-file FILE, or the
// operator's key an invitation brought to a station): it must be readable
// only by its owner, and hold a key written by 'credential keygen'.
func ReadKeyFile(path string) (ed25519.PrivateKey, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the key file %s: %v", path, err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("the key file %s can be read by others: make it private with 'chmod 600 %s' (and make a new key if others may have read it)", path, path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the key file %s: %v", path, err)
	}
	k, err := match.ParseKeyFile(b)
	if err != nil {
		return nil, err
	}
	return k, nil
}
