//go:build !nostation

package service

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"arbiter/station"
)

// An invitation is signed by the match's CA (whose key only the first
// station holds) over everything it says, so that 'station join' tells an
// invitation altered on its way (its contacts, its role, its certificate)
// from one made for another match, whose own CA signed it but whose record
// holders answer with this match's certificates, and says which in one
// sentence instead of retrying for ever (docs/stations.md, "Security on
// the LAN").

// invitationDomain starts the signed message.
const invitationDomain = "arbiter-invitation-v1\n"

// JoinDeadline bounds how long 'station join' tries the invitation's
// contacts before it says that no record holder answers.
const JoinDeadline = 15 * time.Second

// The ways an invitation is refused (InvitationError.Kind).
const (
	InvitationUnreadable = iota // not an invitation written by 'station invite'
	InvitationAltered           // changed since the match's CA signed it
	InvitationOtherMatch        // the record holders at its contacts are another match's
	InvitationNoAnswer          // no record holder answered at its contacts in time
)

// InvitationError refuses an invitation in one sentence.
type InvitationError struct {
	Kind     int
	Path     string
	Contacts []string
	Why      string
}

func (e *InvitationError) Error() string {
	switch e.Kind {
	case InvitationAltered:
		return fmt.Sprintf("the invitation %s has been altered since the arbiter wrote it (%s): ask him for a new one", e.Path, e.Why)
	case InvitationOtherMatch:
		return fmt.Sprintf("the invitation %s is from another match: the record holders at %s answer with certificates its CA did not sign; ask this match's arbiter for an invitation", e.Path, strings.Join(e.Contacts, ", "))
	case InvitationNoAnswer:
		return fmt.Sprintf("no record holder answers at %s within %.0f s: start the inviting station (or check the network) and join again", strings.Join(e.Contacts, ", "), JoinDeadline.Seconds())
	}
	return fmt.Sprintf("%s is not an invitation written by 'station invite'", e.Path)
}

// invitationMessage is what the CA signs: the invitation without its
// signature, as JSON.
func invitationMessage(inv Invitation) []byte {
	inv.Signature = nil
	b, _ := json.Marshal(inv)
	sum := sha256.Sum256(append([]byte(invitationDomain), b...))
	return sum[:]
}

// WriteInvitation signs inv with the match's CA key (beside the first
// station's record db) and writes it to out.
func WriteInvitation(db, out string, inv Invitation) error {
	keyPEM, err := ReadRegularFile(StationCAKeyPath(db), "the match's CA key", 64<<10)
	if err != nil {
		return refuse(CodeNotFirstStation)
	}
	kb, _ := pem.Decode(keyPEM)
	if kb == nil {
		return refuse(CodeCAKeyDamaged, StationCAKeyPath(db))
	}
	key, err := x509.ParseECPrivateKey(kb.Bytes)
	if err != nil {
		return refuse(CodeCAKeyUnreadable, StationCAKeyPath(db), err)
	}
	if inv.Signature, err = ecdsa.SignASN1(rand.Reader, key, invitationMessage(inv)); err != nil {
		return err
	}
	return WriteJSONFile(out, inv)
}

// ReadInvitation reads the invitation at path (a regular file, read
// without blocking) and checks it: the station's certificate is signed by
// the invitation's CA for its name and role, its key is the certificate's,
// and the CA signed everything the invitation says.
func ReadInvitation(path string) (*Invitation, error) {
	b, err := ReadRegularFile(path, "the invitation", 1<<20)
	if err != nil {
		return nil, err
	}
	var inv Invitation
	if err := json.Unmarshal(b, &inv); err != nil || inv.Name == "" || len(inv.Contacts) == 0 || len(inv.Credentials.CA) == 0 {
		return nil, &InvitationError{Kind: InvitationUnreadable, Path: path}
	}
	altered := func(why string) error { return &InvitationError{Kind: InvitationAltered, Path: path, Why: why} }
	cb, _ := pem.Decode(inv.Credentials.CA)
	if cb == nil {
		return nil, altered("its CA certificate is damaged")
	}
	ca, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, altered("its CA certificate is damaged")
	}
	pair, err := tls.X509KeyPair(inv.Credentials.Cert, inv.Credentials.Key)
	if err != nil {
		return nil, altered("its certificate and key do not belong together")
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return nil, altered("its certificate is damaged")
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, DNSName: station.TLSServerName, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		return nil, altered("its certificate is not signed by its CA")
	}
	if cert.Subject.CommonName != inv.Name || len(cert.Subject.OrganizationalUnit) != 1 || cert.Subject.OrganizationalUnit[0] != inv.Role {
		return nil, altered(fmt.Sprintf("it names the station %s (%s), its certificate %s (%s)", inv.Name, inv.Role, cert.Subject.CommonName, strings.Join(cert.Subject.OrganizationalUnit, ",")))
	}
	pub, ok := ca.PublicKey.(*ecdsa.PublicKey)
	if !ok || len(inv.Signature) == 0 || !ecdsa.VerifyASN1(pub, invitationMessage(inv), inv.Signature) {
		return nil, altered("its CA's signature does not cover what it says")
	}
	return &inv, nil
}

// CheckInvitationReaches connects to the invitation's contacts with its
// credentials, for up to JoinDeadline: nil once a record holder accepted
// the connection; an InvitationError at once when one answered with a
// certificate of another CA (or refused ours as another CA's), and when
// none answered in time.
func CheckInvitationReaches(ctx context.Context, path string, inv *Invitation) error {
	tlsc, err := inv.Credentials.TLSConfig()
	if err != nil {
		return &InvitationError{Kind: InvitationAltered, Path: path, Why: "its certificate cannot be used"}
	}
	ctx, cancel := context.WithTimeout(ctx, JoinDeadline)
	defer cancel()
	for {
		nc, err := nats.Connect(strings.Join(inv.Contacts, ","), nats.Name(inv.Name+"-join-check"), nats.Timeout(2*time.Second), nats.Secure(tlsc))
		if err == nil {
			nc.Close()
			return nil
		}
		if otherCA(err) {
			return &InvitationError{Kind: InvitationOtherMatch, Path: path, Contacts: inv.Contacts}
		}
		select {
		case <-ctx.Done():
			return &InvitationError{Kind: InvitationNoAnswer, Path: path, Contacts: inv.Contacts}
		case <-time.After(250 * time.Millisecond): // the next try at the contacts
		}
	}
}

// otherCA reports whether a connection failed because the two ends'
// certificates come from different CAs: ours did not verify the server's,
// or the server refused ours.
func otherCA(err error) bool {
	var unknown x509.UnknownAuthorityError
	var verify *tls.CertificateVerificationError
	if errors.As(err, &unknown) || errors.As(err, &verify) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "certificate signed by unknown authority") || strings.Contains(msg, "unknown certificate authority") ||
		strings.Contains(msg, "bad certificate")
}
