package station

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Mutual TLS between stations from a per-match certificate authority. The
// first station makes the CA; every invitation carries the CA's
// certificate and a certificate for the invited station: its name as the
// common name, its role as the organisational unit and as the e-mail
// address ROLE@station.arbiter, by which the server maps the connection to
// the role's user and permissions (TLS map). A machine with another CA's
// certificate cannot connect or route.

// TLSServerName is the name every station's certificate carries and every
// connection verifies (stations are reached by address; the CA is what is
// trusted).
const TLSServerName = "arbiter-station"

// Credentials are a station's certificate and key and the match's CA, PEM.
type Credentials struct {
	CA   []byte `json:"ca"`
	Cert []byte `json:"cert"`
	Key  []byte `json:"key"`
}

// NewCA makes the match's certificate authority (ECDSA P-256, 10 years).
func NewCA(match string) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "Arbiter match CA: " + match, Organization: []string{"Arbiter"}},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().AddDate(10, 0, 0),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		panic(err)
	}
	return n
}

// Issue makes a station's credentials, signed by the CA.
func Issue(caCertPEM, caKeyPEM []byte, name, role string) (Credentials, error) {
	caCert, caKey, err := parseCA(caCertPEM, caKeyPEM)
	if err != nil {
		return Credentials{}, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return Credentials{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:   serial(),
		Subject:        pkix.Name{CommonName: name, OrganizationalUnit: []string{role}, Organization: []string{"Arbiter"}},
		NotBefore:      time.Now().Add(-time.Hour),
		NotAfter:       time.Now().AddDate(2, 0, 0),
		KeyUsage:       x509.KeyUsageDigitalSignature,
		ExtKeyUsage:    []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		DNSNames:       []string{TLSServerName},
		EmailAddresses: []string{role + "@station.arbiter"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		return Credentials{}, err
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return Credentials{}, err
	}
	return Credentials{CA: caCertPEM, Cert: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		Key: pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})}, nil
}

func parseCA(certPEM, keyPEM []byte) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	cb, _ := pem.Decode(certPEM)
	kb, _ := pem.Decode(keyPEM)
	if cb == nil || kb == nil {
		return nil, nil, refuse(CodeCADamaged)
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, nil, refuse(CodeCAUnreadable, err)
	}
	key, err := x509.ParseECPrivateKey(kb.Bytes)
	if err != nil {
		return nil, nil, refuse(CodeCAKeyDamaged, err)
	}
	return cert, key, nil
}

// TLSConfig is the mutual-TLS configuration of a station: its certificate,
// and the match's CA for both directions.
func (c Credentials) TLSConfig() (*tls.Config, error) {
	pair, err := tls.X509KeyPair(c.Cert, c.Key)
	if err != nil {
		return nil, refuse(CodeCertificateDamaged, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(c.CA) {
		return nil, refuse(CodeCACertificateDamaged)
	}
	return &tls.Config{
		Certificates: []tls.Certificate{pair},
		RootCAs:      pool,
		ClientCAs:    pool,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ServerName:   TLSServerName,
		MinVersion:   tls.VersionTLS12,
	}, nil
}

// RoleUsers are the server's users, one per role, mapped from the
// certificate's e-mail address. Record holders may do everything the
// station does; the operator's laptop may read the stream, send the
// operator's commands and ask the time; the mirror may only read.
func RoleUsers() []*server.User {
	read := []string{
		SubjectBeat, SubjectTime,
		"$JS.API.INFO", "$JS.API.STREAM.INFO." + StreamName,
		"$JS.API.CONSUMER.CREATE." + StreamName, "$JS.API.CONSUMER.CREATE." + StreamName + ".>",
		"$JS.API.CONSUMER.DELETE." + StreamName + ".>", "$JS.API.CONSUMER.INFO." + StreamName + ".>",
		"$JS.API.CONSUMER.MSG.NEXT." + StreamName + ".>", "$JS.ACK." + StreamName + ".>", "$JS.FC.>",
		// the arbiter's head signatures, read like the events
		"$JS.API.STREAM.INFO." + HeadsStreamName,
		"$JS.API.CONSUMER.CREATE." + HeadsStreamName, "$JS.API.CONSUMER.CREATE." + HeadsStreamName + ".>",
		"$JS.API.CONSUMER.DELETE." + HeadsStreamName + ".>", "$JS.API.CONSUMER.INFO." + HeadsStreamName + ".>",
		"$JS.API.CONSUMER.MSG.NEXT." + HeadsStreamName + ".>", "$JS.ACK." + HeadsStreamName + ".>",
	}
	client := func(extra ...string) *server.Permissions {
		return &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: append(append([]string{}, read...), extra...)},
			Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX.>", SubjectBeat, SubjectPing + ".>"}},
			// answering a record holder's round-trip measurement (arb.ping.NAME)
			Response: &server.ResponsePermission{MaxMsgs: 1, Expires: 5 * time.Second},
		}
	}
	return []*server.User{
		{Username: "organiser@station.arbiter"},
		{Username: "display@station.arbiter"},
		{Username: "operator@station.arbiter", Permissions: client(SubjectCommands + ".operator")},
		{Username: "mirror@station.arbiter", Permissions: client()},
	}
}

// CommandRoles are the roles a station of this role may give commands in.
func CommandRoles(stationRole string) []string {
	switch stationRole {
	case "organiser", "display":
		return []string{"arbiter", "operator", "white", "black"}
	case "operator":
		return []string{"operator"}
	}
	return nil
}
