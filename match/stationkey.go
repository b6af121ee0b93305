package match

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"slices"

	"arbiter/store"
)

// Station keys certified by the match's CA (branch hcert; docs/stations.md,
// "Whose key a system event carries").
//
// An event recorded without a command's signature (a station's own event,
// a recovery note, a suspension, a wrong credential's auth.fail) carries
// only the signature of the station that appended it. Until branch hcert
// that station key was made afresh by each process and certified by
// nothing, so whoever could write into a station's stream (any record
// holder's machine) could add such an event under a key of his own and
// every station and verify took it. Now a station that has its
// credentials (the match's CA, its certificate and key: every station
// served by 'station serve', 'station join' or the console) signs the
// record with a key derived from its certificate's key — the same in every
// run of the station — and each claim of authority carries the station's
// certificate and the certificate key's signature of that key
// (StationCertificate). The first claim that carries one also carries the
// CA's certificate, which anchors the record's CA from there on: every
// later claim's certificate must be signed by it. From that claim on an
// event without a command's signature is taken only if it is signed by the
// key the latest claim certified, the authority's; a claim only if its own
// certificate, of a record holder of the name it claims for, certifies
// the key that signs it. A record whose claims carry no certificate (made
// before branch hcert, or by stations started without credentials) is
// checked as before.

// KindStationClaim is a station's claim of authority (station.KindClaim):
// {"station": NAME, "epoch": N, and the StationCertificate's fields}.
const KindStationClaim = StationKindPrefix + "claim"

// StationCertificate is what a claim carries to certify the key its
// station signs the record with.
type StationCertificate struct {
	// CA is the match's CA certificate (DER, base64): the first claim
	// that carries one anchors the record's CA.
	CA string `json:"ca,omitempty"`
	// Cert is the station's certificate (DER, base64), signed by the CA,
	// its common name the station's name, its organisational unit its role.
	Cert string `json:"cert,omitempty"`
	// Key is the station's key (ed25519, hex) that signs the events it
	// appends.
	Key string `json:"key,omitempty"`
	// KeySig is the certificate key's signature (ECDSA, ASN.1, hex) of
	// StationKeyMessage(station, Key).
	KeySig string `json:"key_sig,omitempty"`
}

// StationKeyMessage is what a station's certificate key signs to certify
// its record key: the station's name and the key (hex).
func StationKeyMessage(station, key string) []byte {
	return fields([]byte("arbiter-station-key-v1"), []byte(station), []byte(key))
}

// stationClaim is a claim's payload as the record check reads it.
type stationClaim struct {
	Station string `json:"station"`
	StationCertificate
}

// CertifyStationKey is the record key of the station name whose
// credentials are caPEM, certPEM and keyPEM (station.Credentials), and the
// certificate its claims carry. The key is derived from the certificate's
// key (HKDF-SHA-256), so that the station signs with the same key in every
// run: an authority restarted is still the one its claim certified.
func CertifyStationKey(caPEM, certPEM, keyPEM []byte, name string) (ed25519.PrivateKey, StationCertificate, error) {
	der := func(b []byte) ([]byte, error) {
		blk, _ := pem.Decode(b)
		if blk == nil {
			return nil, errors.New("not PEM")
		}
		return blk.Bytes, nil
	}
	ca, err := der(caPEM)
	if err != nil {
		return nil, StationCertificate{}, err
	}
	cert, err := der(certPEM)
	if err != nil {
		return nil, StationCertificate{}, err
	}
	kder, err := der(keyPEM)
	if err != nil {
		return nil, StationCertificate{}, err
	}
	ck, err := x509.ParseECPrivateKey(kder)
	if err != nil {
		return nil, StationCertificate{}, err
	}
	seed, err := hkdf.Key(sha256.New, kder, nil, "arbiter-station-record-key-v1", ed25519.SeedSize)
	if err != nil {
		return nil, StationCertificate{}, err
	}
	k := ed25519.NewKeyFromSeed(seed)
	pub := pubHex(k)
	h := sha256.Sum256(StationKeyMessage(name, pub))
	sig, err := ecdsa.SignASN1(rand.Reader, ck, h[:])
	if err != nil {
		return nil, StationCertificate{}, err
	}
	return k, StationCertificate{CA: base64.StdEncoding.EncodeToString(ca), Cert: base64.StdEncoding.EncodeToString(cert),
		Key: pub, KeySig: hex.EncodeToString(sig)}, nil
}

// UseStationKey makes k the key that signs the events this App appends
// (CertifyStationKey), before it appends any.
func (a *App) UseStationKey(k ed25519.PrivateKey) { a.station = k }

// holderRoles are the roles whose stations hold the record and so may
// claim authority.
var holderRoles = []string{"organiser", "display"}

// stationKeys is what the record check knows of the stations' keys at an
// event: the match's CA (the first claim that carries one) and the
// station the latest claim names, with the key it certified.
type stationKeys struct {
	ca        string // DER, base64 ("": no claim has certified a key: checked as before)
	caAt      int64  // the seq of the claim that carried it
	authority string // the station the latest claim names
	key       string // the key that claim certified (hex; "" for none)
}

// station checks the event at index i, which carries no command's
// signature (row is its station signature; signed: the match is
// protected, so it has one): a claim certifies its station's key, any
// other event must be signed by the authority's certified key.
func (k *recordCheck) station(i int, e store.Event, row store.Signature, signed bool) *badEvent {
	if e.Kind == KindStationClaim && e.Role == string(RoleSystem) {
		return k.claim(i, e, row, signed)
	}
	if k.sk.ca == "" || !signed || row.Key == k.sk.key {
		return nil
	}
	return bad(i, CodeSystemNotAuthority, k.sk.authority)
}

// claim checks a claim of authority and notes the station and key it
// certifies: once the record has a CA, the claim must carry its station's
// certificate, of a record holder named as the claim names it and signed
// by the CA, which certifies the key that signs the claim.
func (k *recordCheck) claim(i int, e store.Event, row store.Signature, signed bool) *badEvent {
	var p stationClaim
	json.Unmarshal(e.Payload, &p) // a payload that is not a claim's certifies nothing
	ca := k.sk.ca
	if ca == "" {
		ca = p.CA
	}
	if ca == "" {
		k.sk.authority, k.sk.key = p.Station, "" // no key certified yet: as before branch hcert
		return nil
	}
	if p.Key == "" || (signed && row.Key != p.Key) || (k.crypto(e.Seq) && !certifies(ca, p)) {
		return bad(i, CodeStationUncertified, p.Station)
	}
	if k.sk.ca == "" {
		k.sk.ca, k.sk.caAt = ca, e.Seq
	}
	k.sk.authority, k.sk.key = p.Station, p.Key
	return nil
}

// certifies reports whether the claim p carries a certificate signed by
// the CA ca, of a record holder named as p names its station, whose key
// signed p's key. The certificates' periods of validity are not held
// against the record's instants: a record is read years after its match,
// and a match's timeline need not be any machine's wall clock (the
// certificate is checked at its own first instant, within its CA's).
func certifies(ca string, p stationClaim) bool {
	caDER, err1 := base64.StdEncoding.DecodeString(ca)
	certDER, err2 := base64.StdEncoding.DecodeString(p.Cert)
	sig, err3 := hex.DecodeString(p.KeySig)
	key, err4 := hex.DecodeString(p.Key)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil || len(key) != ed25519.PublicKeySize {
		return false
	}
	root, err := x509.ParseCertificate(caDER)
	if err != nil {
		return false
	}
	cert, err := x509.ParseCertificate(certDER)
	if err != nil || cert.Subject.CommonName != p.Station || !slices.ContainsFunc(cert.Subject.OrganizationalUnit, func(r string) bool { return slices.Contains(holderRoles, r) }) {
		return false
	}
	roots := x509.NewCertPool()
	roots.AddCert(root)
	if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, CurrentTime: cert.NotBefore, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}}); err != nil {
		return false
	}
	pub, ok := cert.PublicKey.(*ecdsa.PublicKey)
	h := sha256.Sum256(StationKeyMessage(p.Station, p.Key))
	return ok && ecdsa.VerifyASN1(pub, h[:], sig)
}
