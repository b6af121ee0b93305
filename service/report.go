package service

import (
	"bytes"
	"context"
	"errors"
	"strings"

	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/report"
)

// NotVerified is the refusal of a report on a record that does not verify:
// no report may vouch for it. Each face words it (the CLI names 'arbiter
// verify', the console its Reports menu) and says the record's problem, Why
// (match.RecordReport.Why), in its language.
type NotVerified struct{ Why *phrase.Error }

func (e *NotVerified) Error() string { return "the record does not verify (" + e.Why.Error() + ")" }

// ExportSeal is what an export does to the record before it is written
// (docs/store.md, "Signatures"): on a protected match, given the arbiter's
// credential (withCredential: the command carries it), the arbiter signs the
// chain's head (match.App.SignHead); without it nothing is written and the
// seal names the last head he signed. A record that does not verify is
// refused (NotVerified). signed reports whether this export signed a head.
func ExportSeal(ctx context.Context, app *match.App, c match.Cmd, withCredential bool) (seal match.Seal, signed bool, err error) {
	if p := app.Why(); p != nil {
		return match.Seal{}, false, &NotVerified{Why: p}
	}
	if app.State().ArbiterCredential() == nil || !withCredential {
		return app.Seal(), false, nil
	}
	s, err := app.SignHead(ctx, c)
	return s, err == nil, err
}

// ReportPDF is the match report as both faces export it (export pdf,
// Reports → Export PDF…), so that they are the same file: the whole record,
// every signature and every head the arbiter signed are checked first
// (match.VerifyRecord); each game's signature block carries that game's
// head with the arbiter's signature of it (report.SignedGameHeads) and the
// seal's key fingerprint (opts.Seal). It returns the PDF and the record's
// fingerprint (its head).
func ReportPDF(ctx context.Context, app *match.App, opts report.PDFOptions) ([]byte, string, error) {
	rep, err := match.VerifyRecord(ctx, app.DB(), "", "")
	if err != nil {
		return nil, "", err
	}
	if !rep.OK {
		return nil, "", &NotVerified{Why: rep.Why}
	}
	events, sigs, err := app.DB().Record(ctx)
	if err != nil {
		return nil, "", err
	}
	opts.Heads = report.SignedGameHeads(events, sigs, true)
	var buf bytes.Buffer
	if err := report.WritePDF(&buf, app.State(), rep.Head, opts); err != nil {
		// the user reads one sentence, without the package's prefix
		return nil, "", errors.New(strings.TrimPrefix(err.Error(), "report: "))
	}
	return buf.Bytes(), rep.Head, nil
}
