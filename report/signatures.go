package report

// The signature blocks of a game: result, arbiter, players, and the seal of the head.

import (
	"strings"

	"arbiter/clock"
	"arbiter/match"
)

// sigH is the height of a game's signature block without the lines of the
// arbiter's later keys (sigLine each).
const (
	sigH    = 45.4
	sigLine = 3.4
)

// signatures is the block the arbiter and both players sign: the game, its
// result, the chain head at the game's last event and the record's
// fingerprint, then the three signature lines.
func (r *renderer) signatures(g *match.Game) {
	f, t := r.f, r.t
	anchors := r.anchorLines()
	height := sigH + sigLine*float64(len(anchors)-1)
	r.ensure(height)
	top := f.GetY()
	f.SetDrawColor(40, 60, 110)
	f.SetLineWidth(0.35)
	f.Rect(r.margin, top, r.cw, height-2, "D")
	f.SetXY(r.margin+2, top+1.5)
	r.font(7.5, true)
	f.SetTextColor(40, 60, 110)
	f.CellFormat(r.cw-4, 4, strings.ToUpper(t.f("Signatures for game %d", g.Number))+" — "+g.White+" – "+g.Black+": "+r.resultText(g), "", 1, "L", false, 0, "")
	f.SetTextColor(0, 0, 0)
	r.font(6.6, false)
	f.SetX(r.margin + 2)
	h, ok := r.heads[g.Number]
	headText := t.s("Chain head of the game") + ": "
	if ok && h.Hash != "" {
		headText += t.f("event %d", h.Seq) + " · " + groupHex(h.Hash)
	} else {
		headText += t.s("not given")
	}
	f.CellFormat(r.cw-4, 3.4, headText, "", 1, "L", false, 0, "")
	f.SetX(r.margin + 2)
	f.CellFormat(r.cw-4, 3.4, t.s("Arbiter's key")+": "+r.keyText(h.Key), "", 1, "L", false, 0, "")
	for _, l := range anchors {
		f.SetX(r.margin + 2)
		f.CellFormat(r.cw-4, sigLine, l, "", 1, "L", false, 0, "")
	}
	f.SetX(r.margin + 2)
	keyText := ""
	switch {
	case !ok || h.Hash == "":
		keyText += t.s("no head to sign")
	case h.Signed != "" && h.Verified:
		keyText += t.s("signed by the arbiter")
	case h.Signed != "":
		keyText += t.s("signed by the arbiter (signature not checked)")
	case !r.seal.Protected || !r.seal.Signed:
		keyText += t.s("not signed: the match has no arbiter key")
	default:
		keyText += t.s("not signed: the game ended without the arbiter's credential")
	}
	r.font(6.6, h.Signed != "" && h.Verified)
	keyText = strings.ToUpper(keyText[:1]) + keyText[1:] // the labels are ASCII-initial
	f.CellFormat(r.cw-4, 3.4, keyText, "", 1, "L", false, 0, "")
	r.font(6.6, false)
	if h.Signed != "" {
		f.SetX(r.margin + 2)
		r.font(5, false)
		f.SetTextColor(90, 90, 90)
		f.CellFormat(r.cw-4, 3.0, t.s("Head signature")+": "+groupHex(h.Signed), "", 1, "L", false, 0, "")
		f.SetTextColor(0, 0, 0)
		r.font(6.6, false)
	}
	f.SetX(r.margin + 2)
	fp := t.s("not given")
	if r.head != "" {
		fp = groupHex(r.head)
	}
	f.CellFormat(r.cw-4, 3.4, t.s("Fingerprint of the record")+": "+fp, "", 1, "L", false, 0, "")
	m := r.st.Match
	w := (r.cw - 4 - 12) / 3
	y := top + height - 12
	who := []string{t.s("Arbiter") + ": " + dash(m.Arbiter)}
	for _, s := range []clock.Side{clock.White, clock.Black} {
		name := g.Name(s)
		line := t.colour(s) + ": " + name
		if name == m.Computer && m.Operator != "" {
			line += " (" + t.f("operator for %s", name) + ": " + m.Operator + ")"
		}
		who = append(who, line)
	}
	f.SetDrawColor(0, 0, 0)
	f.SetLineWidth(0.3)
	for i, s := range who {
		x := r.margin + 2 + float64(i)*(w+6)
		f.Line(x, y, x+w, y)
		r.font(7, false)
		for k, l := range f.SplitText(s, w) {
			f.SetXY(x, y+0.8+float64(k)*3.2)
			f.CellFormat(w, 3.2, l, "", 0, "L", false, 0, "")
		}
	}
	f.SetXY(r.margin, top+height+2)
}

// keyText is the fingerprint of the arbiter's key in blocks of eight (key,
// when given, is the key that signed a head), or why there is none.
func (r *renderer) keyText(key string) string {
	if key == "" {
		key = r.seal.ArbiterKey
	}
	switch {
	case key != "":
		return groupHex(key)
	case !r.seal.Protected:
		return r.t.s("none (unprotected match)")
	default:
		return r.t.s("none (a PIN without signatures)")
	}
}

// anchorLines are what the record is checked against besides its head, as
// the signature blocks and the cover print them: the arbiter's first key,
// which anchors the record ('arbiter verify --key'), each later key with
// the event that registered it (signed by the key it replaced), and the
// match id ('arbiter verify --match'). The last line is the match id.
func (r *renderer) anchorLines() []string {
	t := r.t
	var out []string
	for i, k := range r.seal.ArbiterKeys {
		if i == 0 {
			out = append(out, t.s("Arbiter's first key (anchors the record)")+": "+groupHex(k.Fingerprint()))
			continue
		}
		out = append(out, t.f("Arbiter's key replaced at event %d by", k.Seq)+": "+groupHex(k.Fingerprint()))
	}
	id := t.s("none (a record made before match ids)")
	if r.seal.MatchID != "" {
		id = groupHex(r.seal.MatchID)
	}
	return append(out, t.s("Match id")+": "+id)
}

// resultText is the game's result with its termination, or "in progress".
func (r *renderer) resultText(g *match.Game) string {
	if !g.Over() {
		return "* (" + r.t.s("in progress") + ")"
	}
	return g.Result + " (" + r.t.term(string(g.Termination)) + ")"
}

// groupHex writes a hash in blocks of eight, as the console shows it.
func groupHex(h string) string {
	var parts []string
	for len(h) > 8 {
		parts = append(parts, h[:8])
		h = h[8:]
	}
	return strings.Join(append(parts, h), " ")
}
