package cli

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"strings"

	"arbiter/match"
	"arbiter/service"
)

// caAnchor is what 'verify --ca' was given, as the fingerprint of the
// match's CA (branch hanchor): a fingerprint as verify and 'station
// serve' print it (16 to 64 hex digits, spaces ignored), or a file that
// holds the CA's certificate — its PEM (openssl's), a station's
// credentials (FILE.station/credentials.json) or an invitation.
func caAnchor(given string) (string, error) {
	if fp := strings.ToLower(strings.Join(strings.Fields(given), "")); len(fp) >= 16 && len(fp) <= 64 && strings.Trim(fp, "0123456789abcdef") == "" {
		return fp, nil
	}
	b, err := service.ReadRegularFile(given, "the match's CA certificate", 1<<20)
	if err != nil {
		return "", fmt.Errorf("--ca must be the fingerprint of the match's CA as 'station serve' and verify print it (16 to 64 hexadecimal digits), or a file that holds its certificate: %v", err)
	}
	if fp := caInFile(b); fp != "" {
		return fp, nil
	}
	return "", fmt.Errorf("--ca %s holds no CA certificate: give the CA's certificate (PEM), a station's credentials.json or an invitation, or the CA's fingerprint", given)
}

// caInFile is the fingerprint of the CA certificate b holds ("" for none):
// the first PEM certificate of b, or the "ca" of a station's credentials
// or of an invitation's (JSON, the certificate's PEM in base64).
func caInFile(b []byte) string {
	var j struct {
		CA          []byte `json:"ca"`
		Credentials struct {
			CA []byte `json:"ca"`
		} `json:"credentials"`
	}
	if json.Unmarshal(b, &j) == nil {
		switch {
		case len(j.CA) > 0:
			b = j.CA
		case len(j.Credentials.CA) > 0:
			b = j.Credentials.CA
		}
	}
	for rest := b; ; {
		var blk *pem.Block
		if blk, rest = pem.Decode(rest); blk == nil {
			return ""
		}
		if blk.Type == "CERTIFICATE" {
			return match.CertFingerprint(blk.Bytes)
		}
	}
}
