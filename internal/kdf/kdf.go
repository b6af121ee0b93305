package kdf

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"sync"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's parameters.
type Params struct {
	Time    uint32 `json:"time"`
	Memory  uint32 `json:"memory_kib"`
	Threads uint8  `json:"threads"`
}

// Production costs about 85 ms per guess on the 2-core development VM (t=3,
// 32 MiB, one lane); the floor required is 50 ms.
var Production = Params{Time: 3, Memory: 32 * 1024, Threads: 1}

// Fast is for tests only: well under a millisecond.
var Fast = Params{Time: 1, Memory: 8, Threads: 1}

// Current is the cost used for new credentials.
var Current = Production

// Derived is what a passphrase yields under one salt and set of parameters.
type Derived struct {
	Seal     [32]byte // AES-256 key sealing the signing key
	Verifier [32]byte // stored in the record to check the passphrase
}

type cacheKey struct {
	salt, secret [32]byte
	p            Params
}

// cache remembers derivations that were checked against a stored verifier,
// so that a console re-checking a PIN it was given does not pay the cost
// again. Wrong passphrases are never cached.
var (
	cacheMu sync.Mutex
	cache   = map[cacheKey]Derived{}
)

func key(secret string, salt []byte, p Params) cacheKey {
	return cacheKey{salt: sha256.Sum256(salt), secret: sha256.Sum256([]byte(secret)), p: p}
}

// Derive runs argon2id (64 bytes of output: the seal key, then the verifier).
func Derive(secret string, salt []byte, p Params) Derived {
	out := argon2.IDKey([]byte(secret), salt, p.Time, p.Memory, p.Threads, 64)
	var d Derived
	copy(d.Seal[:], out[:32])
	copy(d.Verifier[:], out[32:])
	return d
}

// Check derives and compares with the stored verifier in constant time.
func Check(secret string, salt, verifier []byte, p Params) (Derived, bool) {
	k := key(secret, salt, p)
	cacheMu.Lock()
	d, ok := cache[k]
	cacheMu.Unlock()
	if ok && subtle.ConstantTimeCompare(d.Verifier[:], verifier) == 1 {
		return d, true
	}
	d = Derive(secret, salt, p)
	if subtle.ConstantTimeCompare(d.Verifier[:], verifier) != 1 {
		return Derived{}, false
	}
	cacheMu.Lock()
	cache[k] = d
	cacheMu.Unlock()
	return d, true
}

// Seal encrypts plain under key with AES-256-GCM: nonce || ciphertext.
func Seal(key [32]byte, plain, ad []byte) ([]byte, error) {
	g, err := gcm(key)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, g.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return g.Seal(nonce, nonce, plain, ad), nil
}

// Open reverses Seal.
func Open(key [32]byte, sealed, ad []byte) ([]byte, error) {
	g, err := gcm(key)
	if err != nil {
		return nil, err
	}
	if len(sealed) < g.NonceSize() {
		return nil, errors.New("kdf: sealed key too short")
	}
	return g.Open(nil, sealed[:g.NonceSize()], sealed[g.NonceSize():], ad)
}

func gcm(key [32]byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key[:])
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}
