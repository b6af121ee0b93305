// Package kdf turns a passphrase into keys with argon2id: one key that seals
// a role's signing key (AES-256-GCM) and one verifier that is stored in the
// record. Nothing else derived from a passphrase is ever stored.
//
// The cost of one guess is set by Current. Production uses Production, whose
// cost was measured on the development machine (see docs/store.md); tests of
// Arbiter's packages switch to Fast in their TestMain, which only code inside
// this module can do (the package is internal). The parameters used are
// recorded with each credential, so a record made with other parameters is
// still checked with the ones it was made with.
package kdf
