package report

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"arbiter/match"
	"arbiter/store"
)

// PDFOptions choose the paper, the language and the games of a PDF report.
type PDFOptions struct {
	Paper string // "a4" or "letter"; "" by the match's zone (DefaultPaper)
	Lang  string // "en" (default) or "de"
	Game  int    // 0: every game started so far; N: only game N
	// Heads are each game's chain head (GameHeads), printed in its signature
	// block; a game without one gets none.
	Heads map[int]GameHead
	// Seal is the record's seal (match.App.Seal or match.VerifyRecord): on
	// the cover an unprotected match says so, and each game's signature
	// block prints the arbiter's key fingerprint. Nil takes what the state
	// knows: whether the match is protected and the arbiter's key.
	Seal *match.Seal
}

// GameHead is the head of the record's hash chain at a game's last event:
// what the signatures under that game's scoresheet sign.
type GameHead struct {
	Seq  int64
	Hash string
	// Signed is the signature over the head when the record has one (issue
	// "Who did what…": signed heads, hex); "" prints that the head is not
	// signed. SignedGameHeads fills it from the record's signatures.
	Signed string
	// Key is the fingerprint of the key that made Signed ("" prints the
	// arbiter's key of the seal).
	Key string
	// Verified says Signed was checked against the arbiter's key
	// (match.VerifyRecord); a signature not checked is printed as such.
	Verified bool
}

// SignedGameHeads is each game's chain head (GameHeads) with the
// arbiter's signature of it, where he signed exactly that head (at the
// game's end, or at an export given with his credential right after it).
// verified says the caller checked every head signature of the record
// (match.VerifyRecord returned OK).
func SignedGameHeads(events []store.Event, sigs []store.Signature, verified bool) map[int]GameHead {
	heads := GameHeads(events)
	signed := map[int64]store.Signature{}
	for _, s := range sigs {
		if s.Kind == store.SigHead {
			signed[s.Seq] = s
		}
	}
	for g, h := range heads {
		if s, ok := signed[h.Seq]; ok {
			h.Signed, h.Key, h.Verified = s.Sig, match.Fingerprint(s.Key), verified
		}
		heads[g] = h
	}
	return heads
}

// GameHeads is each game's chain head: the seq and hash of the last event
// recorded for that game, from the events of the record in order.
func GameHeads(events []store.Event) map[int]GameHead {
	heads := map[int]GameHead{}
	for _, e := range events {
		if e.Game > 0 {
			heads[e.Game] = GameHead{Seq: e.Seq, Hash: e.Hash}
		}
	}
	return heads
}

// WritePDF writes the match report of st as a PDF to w. head is the record's
// fingerprint (the hash-chain head as printed by "arbiter verify"); it is
// printed in the appendix with the command that checks it.
func WritePDF(w io.Writer, st *match.State, head string, opts PDFOptions) error {
	size, lang, games, err := pdfChoices(st, opts)
	if err != nil {
		return err
	}
	t := newTr(lang, st.Match)
	r := newRenderer(st, t, size)
	r.heads, r.head = opts.Heads, head
	if opts.Seal != nil {
		r.seal = *opts.Seal
	} else {
		r.seal.Protected = st.Protected()
		if c := st.ArbiterCredential(); c != nil {
			r.seal.Signed, r.seal.ArbiterKey = true, c.Fingerprint()
		}
		r.seal.ArbiterKeys, r.seal.MatchID = st.ArbiterKeys(), st.Match.ID
	}
	r.cover(games, head)
	for _, g := range games {
		r.game(g)
	}
	r.appendix(games, head)
	if err := r.f.Error(); err != nil {
		return fmt.Errorf("report: render PDF: %w", err)
	}
	if err := r.f.Output(w); err != nil {
		return fmt.Errorf("report: write PDF: %w", err)
	}
	return nil
}

// CheckPDFOptions refuses what WritePDF would refuse in opts (no match, a
// paper size or a language not known, a game not played), before anything
// is done for the report: the command line checks them before an export
// given with --pin has the arbiter sign the head, which a refused export
// did before.
func CheckPDFOptions(st *match.State, opts PDFOptions) error {
	_, _, _, err := pdfChoices(st, opts)
	return err
}

// pdfChoices is the page size, the language and the games of the report
// opts asks for, or the refusal.
func pdfChoices(st *match.State, opts PDFOptions) (size, lang string, games []*match.Game, err error) {
	if st == nil || st.Match == nil {
		return "", "", nil, errors.New("report: there is no match in this record: create one with 'arbiter match new' first")
	}
	paper := strings.ToLower(opts.Paper)
	if paper == "" {
		paper = DefaultPaper(st.Match, "") // Letter in the Americas
	}
	switch paper {
	case "a4":
		size = "A4"
	case "letter":
		size = "Letter"
	default:
		return "", "", nil, fmt.Errorf("report: the paper size %q is not known: use a4 or letter", opts.Paper)
	}
	lang = strings.ToLower(opts.Lang)
	switch lang {
	case "":
		lang = "en"
	case "en", "de":
	default:
		return "", "", nil, fmt.Errorf("report: the language %q is not available: use en or de", opts.Lang)
	}
	games, err = selectGames(st, opts.Game)
	if err != nil {
		return "", "", nil, err
	}
	return size, lang, games, nil
}

// selectGames is every game started so far, or game n alone.
func selectGames(st *match.State, n int) ([]*match.Game, error) {
	if n != 0 {
		g := st.Game(n)
		if g == nil {
			return nil, fmt.Errorf("report: there is no game %d: the match has games 1 to %d", n, len(st.Games))
		}
		if g.Sheet == nil {
			return nil, fmt.Errorf("report: game %d has not started (%s): choose a game that has been played", n, g.State)
		}
		return []*match.Game{g}, nil
	}
	var gs []*match.Game
	for _, g := range st.Games {
		if g.Sheet != nil {
			gs = append(gs, g)
		}
	}
	return gs, nil
}
