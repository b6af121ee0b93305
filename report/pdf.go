package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"github.com/notnil/chess"

	"arbiter/assets"
	"arbiter/clock"
	"arbiter/match"
	"arbiter/scoresheet"
	"arbiter/store"
)

// PDFOptions choose the paper, the language and the games of a PDF report.
type PDFOptions struct {
	Paper string // "a4" (default) or "letter"
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
	if st == nil || st.Match == nil {
		return errors.New("report: there is no match in this record: create one with 'arbiter match new' first")
	}
	size := ""
	switch strings.ToLower(opts.Paper) {
	case "", "a4":
		size = "A4"
	case "letter":
		size = "Letter"
	default:
		return fmt.Errorf("report: the paper size %q is not known: use a4 or letter", opts.Paper)
	}
	t := tr{m: st.Match}
	switch strings.ToLower(opts.Lang) {
	case "", "en":
	case "de":
		t.de = true
	default:
		return fmt.Errorf("report: the language %q is not available: use en or de", opts.Lang)
	}
	games, err := selectGames(st, opts.Game)
	if err != nil {
		return err
	}
	r := newRenderer(st, t, size)
	r.heads, r.head = opts.Heads, head
	if opts.Seal != nil {
		r.seal = *opts.Seal
	} else {
		r.seal.Protected = st.Protected()
		if c := st.ArbiterCredential(); c != nil {
			r.seal.Signed, r.seal.ArbiterKey = true, c.Fingerprint()
		}
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

const family = "dejavu"

// renderer lays out one report. All lengths are in millimetres.
type renderer struct {
	f              *fpdf.Fpdf
	t              tr
	st             *match.State
	pw, ph, margin float64
	cw             float64 // content width
	heads          map[int]GameHead
	head           string // the record's fingerprint
	seal           match.Seal
}

func newRenderer(st *match.State, t tr, size string) *renderer {
	f := fpdf.New("P", "mm", size, "")
	f.AddUTF8FontFromBytes(family, "", assets.DejaVuSans)
	f.AddUTF8FontFromBytes(family, "B", assets.DejaVuSansBold)
	f.SetCompression(true)
	stamp := st.LastAt
	if stamp.IsZero() {
		stamp = st.Match.Created
	}
	f.SetCreationDate(stamp.UTC())
	f.SetModificationDate(stamp.UTC())
	f.SetCatalogSort(true)
	f.SetTitle(st.Match.Title+" — "+t.s("Match report"), true)
	f.SetAuthor(st.Match.Arbiter, true)
	f.SetCreator("Arbiter", true)
	f.SetProducer("Arbiter (go-pdf/fpdf)", true)
	if t.de {
		f.SetLang("de")
	} else {
		f.SetLang("en")
	}
	f.SetMargins(15, 15, 15)
	f.SetAutoPageBreak(false, 0)
	f.AliasNbPages("{nb}")
	pw, ph := f.GetPageSize()
	r := &renderer{f: f, t: t, st: st, pw: pw, ph: ph, margin: 15, cw: pw - 30}
	f.SetFooterFunc(func() {
		f.SetDrawColor(160, 160, 160)
		f.SetLineWidth(0.2)
		f.Line(r.margin, ph-12, pw-r.margin, ph-12)
		r.font(7, false)
		f.SetTextColor(90, 90, 90)
		f.SetXY(r.margin, ph-11)
		f.CellFormat(r.cw/2, 4, st.Match.Title+" — "+t.s("Match report"), "", 0, "L", false, 0, "")
		f.CellFormat(r.cw/2, 4, t.f("page %d of %s", f.PageNo(), "{nb}"), "", 0, "R", false, 0, "")
		f.SetTextColor(0, 0, 0)
	})
	return r
}

func (r *renderer) font(size float64, bold bool) {
	style := ""
	if bold {
		style = "B"
	}
	r.f.SetFont(family, style, size)
}

func (r *renderer) bottom() float64 { return r.ph - r.margin }

// ensure starts a new page unless h millimetres are left on this one.
func (r *renderer) ensure(h float64) {
	if r.f.GetY()+h > r.bottom() {
		r.f.AddPage()
	}
}

func (r *renderer) heading(text string, size float64) {
	r.ensure(size * 1.2)
	r.font(size, true)
	r.f.SetX(r.margin)
	r.f.CellFormat(r.cw, size*0.5, text, "", 1, "L", false, 0, "")
	r.f.Ln(size * 0.12)
}

// para writes wrapped text over the content width.
func (r *renderer) para(text string, size float64, bold bool) {
	r.font(size, bold)
	lh := size * 0.45
	lines := r.f.SplitText(text, r.cw)
	r.ensure(float64(len(lines)) * lh)
	for _, l := range lines {
		r.f.SetX(r.margin)
		r.f.CellFormat(r.cw, lh, l, "", 1, "L", false, 0, "")
	}
}

// kv writes a label and its (wrapped) value.
func (r *renderer) kv(label, value string, lw float64) { r.kvSized(label, value, lw, 9.5) }

// kvOneLine writes a label and a value that must not wrap (a key
// fingerprint, read in blocks of eight): smaller when it does not fit.
func (r *renderer) kvOneLine(label, value string, lw float64) {
	size := 9.5
	for ; size > 6; size -= 0.5 {
		r.font(size, false)
		if len(r.f.SplitText(value, r.cw-lw)) <= 1 {
			break
		}
	}
	r.kvSized(label, value, lw, size)
}

func (r *renderer) kvSized(label, value string, lw, size float64) {
	lh := 4.6
	r.font(size, false)
	lines := r.f.SplitText(value, r.cw-lw)
	if len(lines) == 0 {
		lines = []string{""}
	}
	// a label wider than its column wraps under itself rather than run
	// into the value ("Schlüssel des Schiedsrichters")
	r.font(9.5, true)
	labels := r.f.SplitText(label, lw-2)
	n := max(len(lines), len(labels))
	r.ensure(float64(n) * lh)
	y := r.f.GetY()
	for i, l := range labels {
		r.f.SetXY(r.margin, y+float64(i)*lh)
		r.f.CellFormat(lw, lh, l, "", 0, "L", false, 0, "")
	}
	r.font(size, false)
	for i, l := range lines {
		r.f.SetXY(r.margin+lw, y+float64(i)*lh)
		r.f.CellFormat(r.cw-lw, lh, l, "", 0, "L", false, 0, "")
	}
	r.f.SetXY(r.margin, y+float64(n)*lh+0.6)
}

// col is one column of a table.
type col struct {
	w     float64 // 0: takes the rest of the width
	align string
}

// table draws rows with a repeated header row; cells wrap, rows never split
// across pages.
func (r *renderer) table(cols []col, head []string, rows [][]string, size float64) {
	ws := make([]float64, len(cols))
	rest := r.cw
	flex := -1
	for i, c := range cols {
		ws[i] = c.w
		rest -= c.w
		if c.w == 0 {
			flex = i
		}
	}
	// No word is broken: a column is widened to its longest word (the
	// flexible column gives the room).
	if flex >= 0 {
		for i := range cols {
			if i == flex {
				continue
			}
			need := r.longestWord(append([]string{head[i]}, column(rows, i)...), size, i == 0) + 2.4
			if need > ws[i] && rest-(need-ws[i]) >= 24 {
				rest -= need - ws[i]
				ws[i] = need
			}
		}
		ws[flex] = rest
	}
	lh := size * 0.42
	pad := 0.6
	header := func() {
		r.font(size, true)
		r.f.SetFillColor(225, 229, 236)
		h := r.rowHeight(ws, head, lh) + 2*pad
		x, y := r.margin, r.f.GetY()
		r.f.Rect(x, y, r.cw, h, "F")
		for i, c := range head {
			r.cell(x, y+pad, ws[i], lh, c, cols[i].align)
			x += ws[i]
		}
		r.f.SetXY(r.margin, y+h)
		r.font(size, false)
	}
	r.font(size, true)
	first := lh * 2
	if len(rows) > 0 {
		r.font(size, false)
		first = r.rowHeight(ws, rows[0], lh) + 2*pad
		r.font(size, true)
	}
	// The header never stands alone at the foot of a page.
	r.ensure(r.rowHeight(ws, head, lh) + 2*pad + first)
	header()
	r.f.SetDrawColor(200, 200, 200)
	r.f.SetLineWidth(0.15)
	for n, row := range rows {
		r.font(size, false)
		h := r.rowHeight(ws, row, lh) + 2*pad
		if r.f.GetY()+h > r.bottom() {
			r.f.AddPage()
			header()
		}
		x, y := r.margin, r.f.GetY()
		if n%2 == 1 {
			r.f.SetFillColor(246, 247, 250)
			r.f.Rect(x, y, r.cw, h, "F")
		}
		for i, c := range row {
			r.cell(x, y+pad, ws[i], lh, c, cols[i].align)
			x += ws[i]
		}
		r.f.Line(r.margin, y+h, r.margin+r.cw, y+h)
		r.f.SetXY(r.margin, y+h)
	}
}

func column(rows [][]string, i int) []string {
	var c []string
	for _, row := range rows {
		if i < len(row) {
			c = append(c, row[i])
		}
	}
	return c
}

// longestWord is the width of the widest word of the texts at size (the
// header row is bold; headBold: measure the first text bold).
func (r *renderer) longestWord(texts []string, size float64, _ bool) float64 {
	max := 0.0
	for k, s := range texts {
		r.font(size, k == 0)
		for _, w := range strings.Fields(s) {
			if x := r.f.GetStringWidth(w); x > max {
				max = x
			}
		}
	}
	r.font(size, false)
	return max
}

func (r *renderer) rowHeight(ws []float64, row []string, lh float64) float64 {
	n := 1
	for i, c := range row {
		if k := len(r.f.SplitText(c, ws[i])); k > n {
			n = k
		}
	}
	return float64(n) * lh
}

func (r *renderer) cell(x, y, w, lh float64, text, align string) {
	for i, l := range r.f.SplitText(text, w) {
		r.f.SetXY(x, y+float64(i)*lh)
		r.f.CellFormat(w, lh, l, "", 0, align, false, 0, "")
	}
}

// ---- cover ----

func (r *renderer) cover(games []*match.Game, head string) {
	f, t, m := r.f, r.t, r.st.Match
	f.AddPage()
	f.SetY(24)
	r.font(9, true)
	f.SetTextColor(90, 90, 90)
	f.CellFormat(r.cw, 5, strings.ToUpper(t.s("Match report")), "", 1, "L", false, 0, "")
	f.SetTextColor(0, 0, 0)
	r.font(20, true)
	for _, l := range f.SplitText(m.Title, r.cw) {
		f.CellFormat(r.cw, 9, l, "", 1, "L", false, 0, "")
	}
	r.font(13, false)
	f.CellFormat(r.cw, 7, m.Players[0]+" – "+m.Players[1], "", 1, "L", false, 0, "")
	f.Ln(4)
	f.SetDrawColor(40, 60, 110)
	f.SetLineWidth(0.6)
	f.Line(r.margin, f.GetY(), r.margin+r.cw, f.GetY())
	f.Ln(5)
	if !r.seal.Protected {
		// An unprotected match says so before anything else (issue 16).
		r.font(10, true)
		f.SetTextColor(150, 30, 30)
		f.SetDrawColor(150, 30, 30)
		f.SetLineWidth(0.4)
		f.SetX(r.margin)
		f.CellFormat(r.cw, 8, t.s("Unprotected match: no arbiter credential; events are unsigned"), "1", 1, "C", false, 0, "")
		f.SetTextColor(0, 0, 0)
		f.Ln(4)
	}

	const lw = 38
	if m.Site != "" {
		r.kv(t.s("Site"), m.Site, lw)
	}
	r.kv(t.s("Dates"), r.dates(games), lw)
	r.kv(t.s("Time zone"), t.zoneFull(firstStart(games)), lw)
	var ps []string
	for _, p := range m.Players {
		s := p
		if p == m.Computer {
			s += " (" + t.s("computer")
			if len(m.Operators) > 0 {
				s += "; " + t.s("operators") + ": " + strings.Join(m.Operators, ", ")
			}
			s += ")"
		}
		ps = append(ps, s)
	}
	r.kv(t.s("Players"), strings.Join(ps, "\n"), lw)
	r.kv(t.s("Arbiter"), dash(m.Arbiter), lw)
	r.kv(t.s("Appeals board"), dash(strings.Join(m.Appeals, ", ")), lw)
	r.kv(t.s("Time control"), r.controls(), lw)
	r.kvOneLine(t.s("Arbiter's key"), r.keyText(""), lw)
	f.Ln(5)

	r.heading(t.s("Standings"), 12)
	rows := [][]string{}
	for _, g := range r.st.Games {
		date, moves := "—", "—"
		if !g.Started.IsZero() {
			date = t.date(g.Started)
		} else if !g.Scheduled.IsZero() {
			date = t.date(g.Scheduled)
		}
		if g.Sheet != nil {
			moves = fmt.Sprint(moveCount(g.Sheet))
		}
		res, term := g.Result, t.term(string(g.Termination))
		switch {
		case g.Sheet == nil && !g.Over():
			res, term = "", t.s("not played yet")
			if g.State == match.Postponed {
				term = string(g.State)
			}
		case !g.Over():
			res, term = "*", t.s("in progress")
		}
		rows = append(rows, []string{fmt.Sprint(g.Number), date, g.White, g.Black, res, term, moves})
	}
	r.table([]col{{14, "C"}, {24, "L"}, {36, "L"}, {36, "L"}, {18, "C"}, {0, "L"}, {14, "R"}},
		[]string{t.s("Game"), t.s("Date"), t.s("White"), t.s("Black"), t.s("Result"), t.s("Termination"), t.s("Moves")}, rows, 9)
	f.Ln(5)
	sc := r.st.Score()
	r.kv(t.s("Score"), m.Players[0]+" "+points(sc[m.Players[0]])+", "+m.Players[1]+" "+points(sc[m.Players[1]]), lw)
	r.font(12, true)
	r.ensure(8)
	f.SetX(r.margin)
	f.SetTextColor(40, 60, 110)
	res := t.matchResult(r.st)
	f.CellFormat(r.cw, 8, strings.ToUpper(res[:1])+res[1:], "", 1, "L", false, 0, "")
	f.SetTextColor(0, 0, 0)
	if head != "" {
		f.Ln(4)
		r.font(7.5, false)
		f.SetTextColor(90, 90, 90)
		r.para(t.s("Fingerprint of the record")+": "+head+"  ("+t.s("Appendix")+")", 7.5, false)
		f.SetTextColor(0, 0, 0)
	}
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

func (r *renderer) dates(games []*match.Game) string {
	var first, last time.Time
	for _, g := range games {
		if !g.Started.IsZero() && (first.IsZero() || g.Started.Before(first)) {
			first = g.Started
		}
		end := g.Ended
		if end.IsZero() {
			end = g.Started
		}
		if end.After(last) {
			last = end
		}
	}
	if first.IsZero() {
		return "—"
	}
	if r.t.date(first) == r.t.date(last) {
		return r.t.date(first)
	}
	return r.t.date(first) + " – " + r.t.date(last)
}

// controls describes the time control, per player when they differ.
func (r *renderer) controls() string {
	m := r.st.Match
	a, b := m.Controls[m.Players[0]], m.Controls[m.Players[1]]
	if a.String() == b.String() {
		return r.t.controlWords(a) + " (" + a.String() + ")"
	}
	return m.Players[0] + ": " + r.t.controlWords(a) + "\n" + m.Players[1] + ": " + r.t.controlWords(b)
}

func moveCount(s *scoresheet.Sheet) int {
	es := s.Entries()
	if len(es) == 0 {
		return 0
	}
	return es[len(es)-1].Number
}

// ---- one game ----

func (r *renderer) playerLine(g *match.Game, side clock.Side) string {
	m := r.st.Match
	name := g.Name(side)
	s := r.t.colour(side) + ": " + name
	if name == m.Computer {
		s += " (" + r.t.s("computer")
		if len(m.Operators) > 0 {
			s += "; " + r.t.s("operators") + ": " + strings.Join(m.Operators, ", ")
		}
		s += ")"
	}
	return s
}

func (r *renderer) game(g *match.Game) {
	f, t := r.f, r.t
	f.AddPage()
	r.font(16, true)
	f.SetX(r.margin)
	f.CellFormat(r.cw, 8, t.f("Game %d", g.Number)+": "+g.White+" – "+g.Black, "", 1, "L", false, 0, "")
	f.SetDrawColor(40, 60, 110)
	f.SetLineWidth(0.5)
	f.Line(r.margin, f.GetY()+1, r.margin+r.cw, f.GetY()+1)
	f.Ln(3)
	const lw = 30
	r.kv(t.s("White"), strings.TrimPrefix(r.playerLine(g, clock.White), t.s("White")+": "), lw)
	r.kv(t.s("Black"), strings.TrimPrefix(r.playerLine(g, clock.Black), t.s("Black")+": "), lw)
	when := t.s("Started") + " " + t.dateTime(g.Started)
	if !g.Ended.IsZero() {
		when += ", " + t.s("Ended") + " " + t.dateTime(g.Ended)
	}
	r.kv(t.s("Date"), when, lw)
	wc, bc := g.Clock.Control(clock.White), g.Clock.Control(clock.Black)
	tc := t.controlWords(wc)
	if wc.String() != bc.String() {
		tc = t.s("White") + ": " + tc + "; " + t.s("Black") + ": " + t.controlWords(bc)
	}
	r.kv(t.s("Time control"), tc, lw)
	res := g.Result
	switch {
	case g.Over():
		res += " (" + t.term(string(g.Termination)) + ")"
		if g.Reason != "" {
			res += " — " + t.reasoned(g.Reason, g.Why)
		}
	default:
		res = "* (" + t.s("in progress") + ")"
	}
	r.kv(t.s("Result"), res, lw)
	f.Ln(3)

	r.scoresheet(g)
	r.signatures(g)
	r.chart(g)
	r.incidents(g)
	r.adjustments(g)
}

// sheetLine is one row of the scoresheet: a move number with White's and
// Black's move, or a control mark.
type sheetLine struct {
	num  int
	w, b *scoresheet.Entry
	mark string
	note string // moves struck out here (drawn like a mark, left-aligned)
}

func (r *renderer) sheetLines(g *match.Game) []sheetLine {
	var lines []sheetLine
	var counts [2]int
	ctl := [2]clock.Control{g.Clock.Control(clock.White), g.Clock.Control(clock.Black)}
	// Struck-out moves are named after the move that replaced them; those
	// not replaced yet after the last move.
	struckAt := map[int][]string{}
	plies := g.Sheet.Ply()
	for _, run := range struckRuns(g) {
		var ms []string
		for _, e := range run.Entries {
			lbl := fmt.Sprintf("%d. ", e.Number)
			if e.Color == chess.Black {
				lbl = fmt.Sprintf("%d… ", e.Number)
			}
			ms = append(ms, lbl+r.t.san(e.SAN))
		}
		txt := "✗ " + r.t.s("Struck out") + ": " + strings.Join(ms, " ")
		if run.Rule != "" {
			txt += " (" + r.t.rule(run.Rule) + ")"
		}
		p := run.Entries[0].Ply
		if p > plies {
			p = plies
		}
		struckAt[p] = append(struckAt[p], txt)
	}
	for _, e := range g.Sheet.Entries() {
		if len(lines) == 0 || lines[len(lines)-1].mark != "" || lines[len(lines)-1].note != "" || lines[len(lines)-1].num != e.Number {
			lines = append(lines, sheetLine{num: e.Number})
		}
		l := &lines[len(lines)-1]
		side := clock.White
		if e.Color == chess.Black {
			side = clock.Black
			l.b = e
		} else {
			l.w = e
		}
		counts[side]++
		for _, n := range struckAt[e.Ply] {
			lines = append(lines, sheetLine{note: n})
		}
		if reached(ctl[side], counts[side]) {
			other := side.Other()
			switch {
			case ctl[0].String() == ctl[1].String() && side == clock.Black && counts[other] == counts[side]:
				lines = append(lines, sheetLine{mark: "— " + r.t.f("control at move %d", counts[side]) + " —"})
			case ctl[0].String() == ctl[1].String() && side == clock.White && e.Ply == g.Sheet.Ply():
				lines = append(lines, sheetLine{mark: "— " + r.t.f("control at move %d", counts[side]) + " —"})
			case ctl[0].String() != ctl[1].String():
				lines = append(lines, sheetLine{mark: "— " + r.t.f("%s's control at move %d", r.t.colour(side), counts[side]) + " —"})
			case side == clock.White && e.Number != 0 && g.Sheet.StartFEN() != scoresheet.StandardFEN:
				// Black-to-move starts: White reaches the control one row later.
				lines = append(lines, sheetLine{mark: "— " + r.t.f("%s's control at move %d", r.t.colour(side), counts[side]) + " —"})
			}
		}
	}
	return lines
}

// reached reports whether a player who has completed moves moves has just
// reached the end of a period with a move count.
func reached(c clock.Control, moves int) bool {
	for i := 0; i < 1000; i++ {
		n := c.MovesThrough(i)
		if n == 0 || n > moves {
			return false
		}
		if n == moves {
			return true
		}
	}
	return false
}

const (
	sheetRowH = 4.1
	sheetSepH = 3.6
)

func (r *renderer) scoresheet(g *match.Game) {
	f, t := r.f, r.t
	r.heading(t.s("Scoresheet"), 11)
	lines := r.sheetLines(g)
	if len(lines) == 0 {
		r.para(t.s("No moves were recorded."), 9, false)
		f.Ln(3)
		return
	}
	gap := 6.0
	bw := (r.cw - gap) / 2
	heights := func(ls []sheetLine) float64 {
		h := 0.0
		for _, l := range ls {
			if l.mark != "" || l.note != "" {
				h += sheetSepH
			} else {
				h += sheetRowH
			}
		}
		return h
	}
	// The end of the scoresheet and the game's signature block (sigH, after
	// a legend line) share a page.
	reserve := sigH + 8
	for len(lines) > 0 {
		avail := r.bottom() - f.GetY() - sheetRowH - 2
		if avail < 10*sheetRowH {
			f.AddPage()
			avail = r.bottom() - f.GetY() - sheetRowH - 2
		}
		fit := func(room float64) int {
			n := 0
			for n < len(lines) && heights(lines[:n+1]) <= 2*room-sheetRowH {
				n++
			}
			return n
		}
		room := avail
		n := fit(avail)
		if n == len(lines) {
			// The last lines: keep room for the signatures, or leave some
			// lines for the next page, where the signatures go with them.
			room = avail - reserve
			n = fit(room)
			if n == 0 {
				f.AddPage()
				continue
			}
		}
		// Fit as many lines as the page holds in two blocks, balanced.
		chunk := lines[:n]
		split := len(chunk)
		if heights(chunk) > room || len(chunk) > 12 {
			// Balance the two blocks: the left takes half the height.
			half := heights(chunk) / 2
			split = 0
			for split < len(chunk) && heights(chunk[:split+1]) <= math.Max(half, 0)+0.01 {
				split++
			}
			if heights(chunk[:split]) < half && split < len(chunk) {
				split++
			}
			for heights(chunk[:split]) > room {
				split--
			}
		}
		top := f.GetY()
		h1 := r.sheetBlock(r.margin, top, bw, chunk[:split])
		h2 := 0.0
		if split < len(chunk) {
			h2 = r.sheetBlock(r.margin+bw+gap, top, bw, chunk[split:])
		}
		f.SetXY(r.margin, top+math.Max(h1, h2)+2)
		lines = lines[n:]
	}
	r.font(6.5, false)
	f.SetTextColor(90, 90, 90)
	f.SetX(r.margin)
	f.CellFormat(r.cw, 3.5, t.s("(=) draw offered with the move")+"; "+t.s("clock")+" = "+t.s("Remaining time")+"; "+t.f("times of day in %s", t.zoneFull(g.Started)), "", 1, "L", false, 0, "")
	f.SetTextColor(0, 0, 0)
	f.Ln(3)
}

// sheetBlock draws one column block of the scoresheet and returns its height.
func (r *renderer) sheetBlock(x, y, w float64, lines []sheetLine) float64 {
	f, t := r.f, r.t
	ws := []float64{7, 0, 12.5, 10.5, 0, 12.5, 10.5}
	mv := (w - 7 - 2*23) / 2
	ws[1], ws[4] = mv, mv
	aligns := []string{"R", "L", "R", "R", "L", "R", "R"}
	r.font(6.8, true)
	f.SetFillColor(225, 229, 236)
	f.Rect(x, y, w, sheetRowH, "F")
	cx := x
	for i, h := range []string{t.s("No."), t.s("White"), t.s("clock"), t.s("used"), t.s("Black"), t.s("clock"), t.s("used")} {
		f.SetXY(cx, y)
		f.CellFormat(ws[i], sheetRowH, h, "", 0, aligns[i], false, 0, "")
		cx += ws[i]
	}
	cy := y + sheetRowH
	f.SetLineWidth(0.15)
	row := 0
	for _, l := range lines {
		if l.note != "" {
			r.font(6, false)
			f.SetTextColor(150, 40, 30)
			f.SetXY(x+1, cy)
			txt := l.note
			for f.GetStringWidth(txt) > w-2 && len([]rune(txt)) > 4 {
				txt = string([]rune(txt)[:len([]rune(txt))-2]) + "…"
			}
			f.CellFormat(w-2, sheetSepH, txt, "", 0, "L", false, 0, "")
			f.SetTextColor(0, 0, 0)
			cy += sheetSepH
			continue
		}
		if l.mark != "" {
			f.SetDrawColor(40, 60, 110)
			f.SetLineWidth(0.35)
			f.Line(x, cy+sheetSepH/2, x+w, cy+sheetSepH/2)
			r.font(6, true)
			tw := f.GetStringWidth(l.mark) + 3
			f.SetFillColor(255, 255, 255)
			f.Rect(x+(w-tw)/2, cy+0.4, tw, sheetSepH-0.8, "F")
			f.SetTextColor(40, 60, 110)
			f.SetXY(x, cy)
			f.CellFormat(w, sheetSepH, l.mark, "", 0, "C", false, 0, "")
			f.SetTextColor(0, 0, 0)
			f.SetLineWidth(0.15)
			cy += sheetSepH
			continue
		}
		if row%2 == 1 {
			f.SetFillColor(246, 247, 250)
			f.Rect(x, cy, w, sheetRowH, "F")
		}
		row++
		cells := []string{fmt.Sprint(l.num), "", "", "", "", "", ""}
		if l.w != nil {
			cells[1], cells[2], cells[3] = r.moveText(l.w), scoresheet.FormatClock(l.w.ClockWhite), shortDur(l.w.Used)
		} else {
			cells[1] = "…"
		}
		if l.b != nil {
			cells[4], cells[5], cells[6] = r.moveText(l.b), scoresheet.FormatClock(l.b.ClockBlack), shortDur(l.b.Used)
		}
		cx := x
		for i, c := range cells {
			bold := i == 1 || i == 4
			if bold {
				r.font(7.2, false)
			} else {
				r.font(6.6, false)
			}
			if i == 2 || i == 3 || i == 5 || i == 6 {
				f.SetTextColor(70, 70, 70)
			}
			f.SetXY(cx, cy)
			f.CellFormat(ws[i], sheetRowH, c, "", 0, aligns[i], false, 0, "")
			f.SetTextColor(0, 0, 0)
			cx += ws[i]
		}
		f.SetDrawColor(215, 215, 215)
		f.Line(x, cy+sheetRowH, x+w, cy+sheetRowH)
		cy += sheetRowH
	}
	// The column rule between White and Black.
	f.SetDrawColor(160, 160, 160)
	f.Line(x+ws[0]+ws[1]+ws[2]+ws[3]+0.6, y, x+ws[0]+ws[1]+ws[2]+ws[3]+0.6, cy)
	return cy - y
}

func (r *renderer) moveText(e *scoresheet.Entry) string {
	s := r.t.san(e.SAN)
	if e.DrawOffer {
		s += " (=)"
	}
	return s
}

// Figurine writes a SAN move in figurine notation: "Nf3" → "♘f3",
// "exd8=Q+" → "exd8=♕+".
func Figurine(san string) string {
	return strings.NewReplacer("K", "♔", "Q", "♕", "R", "♖", "B", "♗", "N", "♘").Replace(san)
}

// shortDur writes a time used: "0:42", "12:05", "1:02:03".
func shortDur(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// ---- time chart ----

func (r *renderer) chart(g *match.Game) {
	f, t := r.f, r.t
	es := g.Sheet.Entries()
	if len(es) == 0 {
		return
	}
	const h = 45.0
	r.ensure(h + 22)
	r.heading(t.s("Remaining time"), 11)
	wc, bc := g.Clock.Control(clock.White), g.Clock.Control(clock.Black)
	type pt struct {
		x float64
		y time.Duration
	}
	series := [2][]pt{{{0, wc.Allotment(0)}}, {{0, bc.Allotment(0)}}}
	first := es[0].Number - 1
	series[0][0].x, series[1][0].x = float64(first), float64(first)
	maxY := time.Duration(0)
	for _, e := range es {
		if e.Color == chess.White {
			series[0] = append(series[0], pt{float64(e.Number), e.ClockWhite})
		} else {
			series[1] = append(series[1], pt{float64(e.Number), e.ClockBlack})
		}
	}
	for _, s := range series {
		for _, p := range s {
			if p.y > maxY {
				maxY = p.y
			}
		}
	}
	last := es[len(es)-1].Number
	xmax := last + 1
	for _, c := range []clock.Control{wc, bc} {
		for i := 0; i < 100; i++ {
			n := c.MovesThrough(i)
			if n == 0 || n > last+10 {
				break
			}
			if n+2 > xmax {
				xmax = n + 2
			}
		}
	}
	step := chooseStep(maxY)
	ymax := time.Duration(math.Ceil(float64(maxY)/float64(step))) * step
	if ymax == 0 {
		ymax = step
	}
	left, top := r.margin+14, f.GetY()+2
	w := r.cw - 14 - 2
	x0 := float64(first)
	X := func(x float64) float64 { return left + (x-x0)/(float64(xmax)-x0)*w }
	Y := func(d time.Duration) float64 { return top + h - float64(d)/float64(ymax)*h }
	// Grid and axes.
	f.SetDrawColor(225, 225, 225)
	f.SetLineWidth(0.15)
	r.font(6.5, false)
	for v := time.Duration(0); v <= ymax; v += step {
		f.Line(left, Y(v), left+w, Y(v))
		f.SetXY(r.margin, Y(v)-1.6)
		f.CellFormat(12.5, 3.2, clockHM(v), "", 0, "R", false, 0, "")
	}
	xstep := 5
	if xmax-first > 80 {
		xstep = 10
	}
	for m := (first/xstep + 1) * xstep; m <= xmax; m += xstep {
		f.Line(X(float64(m)), top, X(float64(m)), top+h)
		f.SetXY(X(float64(m))-5, top+h+0.5)
		f.CellFormat(10, 3, fmt.Sprint(m), "", 0, "C", false, 0, "")
	}
	f.SetDrawColor(80, 80, 80)
	f.SetLineWidth(0.3)
	f.Line(left, top, left, top+h)
	f.Line(left, top+h, left+w, top+h)
	// Time controls.
	f.SetDrawColor(40, 60, 110)
	f.SetLineWidth(0.3)
	f.SetDashPattern([]float64{1.2, 0.9}, 0)
	drawn := map[int]bool{}
	labelStart, labelEnd, labelY := 0.0, 0.0, 0.0
	for _, c := range []clock.Control{wc, bc} {
		for i := 0; i < 100; i++ {
			n := c.MovesThrough(i)
			if n == 0 || n > xmax {
				break
			}
			if drawn[n] || n <= first {
				continue
			}
			drawn[n] = true
			f.Line(X(float64(n)), top, X(float64(n)), top+h)
			r.font(6, true)
			f.SetTextColor(40, 60, 110)
			label := t.f("control at move %d", n)
			lw := f.GetStringWidth(label) + 2
			x0, align := X(float64(n))+0.5, "L"
			if X(float64(n))+lw > left+w {
				x0, align = X(float64(n))-lw-0.5, "R"
			}
			// A label that would overlap the one before goes one line lower.
			ly := top + 0.5
			if x0 < labelEnd && x0+lw > labelStart && labelY == ly {
				ly += 3.5
			}
			labelStart, labelEnd, labelY = x0, x0+lw, ly
			f.SetXY(x0, ly)
			f.CellFormat(lw, 3, label, "", 0, align, false, 0, "")
			f.SetTextColor(0, 0, 0)
		}
	}
	f.SetDashPattern([]float64{}, 0)
	// The two players.
	colours := [2][3]int{{20, 20, 20}, {200, 60, 40}}
	for s, pts := range series {
		f.SetDrawColor(colours[s][0], colours[s][1], colours[s][2])
		f.SetLineWidth(0.55)
		if s == 1 {
			f.SetDashPattern([]float64{2, 0.8}, 0)
		}
		for i := 1; i < len(pts); i++ {
			f.Line(X(pts[i-1].x), Y(pts[i-1].y), X(pts[i].x), Y(pts[i].y))
		}
		f.SetDashPattern([]float64{}, 0)
	}
	// Axis label and legend.
	r.font(6.5, false)
	f.SetXY(left+w-20, top+h+3.5)
	f.CellFormat(20, 3, t.s("move")+" →", "", 0, "R", false, 0, "")
	// The legend goes under the chart, where it hides no line.
	lx, ly := left, top+h+4
	for s := 0; s < 2; s++ {
		f.SetDrawColor(colours[s][0], colours[s][1], colours[s][2])
		f.SetLineWidth(0.55)
		if s == 1 {
			f.SetDashPattern([]float64{2, 0.8}, 0)
		}
		f.Line(lx, ly+1.5, lx+8, ly+1.5)
		f.SetDashPattern([]float64{}, 0)
		label := t.colour(clock.Side(s)) + ": " + g.Name(clock.Side(s))
		r.font(7, false)
		f.SetXY(lx+9.5, ly)
		f.CellFormat(f.GetStringWidth(label)+2, 3, label, "", 0, "L", false, 0, "")
		lx += 9.5 + f.GetStringWidth(label) + 8
	}
	f.SetXY(r.margin, top+h+8)
	r.font(6.5, false)
	f.SetTextColor(90, 90, 90)
	f.CellFormat(r.cw, 3.5, t.s("Time chart: remaining time after each move; dashed lines mark the time controls."), "", 1, "L", false, 0, "")
	f.SetTextColor(0, 0, 0)
	f.Ln(4)
}

func chooseStep(max time.Duration) time.Duration {
	for _, s := range []time.Duration{time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour} {
		if max/s <= 8 {
			return s
		}
	}
	return 2 * time.Hour
}

// clockHM writes an axis label: "2:00", "1:30", "0:05".
func clockHM(d time.Duration) string {
	m := int(d / time.Minute)
	return fmt.Sprintf("%d:%02d", m/60, m%60)
}

// ---- incident log ----

func (r *renderer) incidents(g *match.Game) {
	f, t := r.f, r.t
	r.ensure(30)
	r.heading(t.s("Incident log"), 11)
	if len(g.Incidents) == 0 {
		r.para(t.s("No incidents were logged."), 9, false)
		f.Ln(3)
		return
	}
	rows := [][]string{}
	for _, in := range g.Incidents {
		rows = append(rows, r.incidentRow(g, in, false))
	}
	r.table([]col{{14.5, "L"}, {16, "L"}, {13, "R"}, {13, "R"}, {25, "L"}, {17, "L"}, {0, "L"}, {13, "L"}, {23, "L"}},
		[]string{t.f("Time (%s)", t.zoneLabel(incidentTimes(g.Incidents)...)), t.s("After"), t.s("White"), t.s("Black"), t.s("Actor"), t.s("Kind"), t.s("Text"), t.s("Rule"), t.s("Effect")}, rows, 7)
	f.Ln(2)
}

func (r *renderer) incidentRow(g *match.Game, in match.Incident, withGame bool) []string {
	after := r.t.s("start")
	if es := g.Sheet.Entries(); in.Ply > 0 && in.Ply <= len(es) {
		e := es[in.Ply-1]
		after = fmt.Sprintf("%d.", e.Number)
		if e.Color == chess.Black {
			after = fmt.Sprintf("%d…", e.Number)
		}
		after += " " + r.t.san(e.SAN)
	}
	actor := r.t.word(string(in.Role))
	if in.Actor != "" {
		actor += ": " + in.Actor
	}
	row := []string{r.t.clockTime(in.At), after, scoresheet.FormatClock(in.WhiteClock), scoresheet.FormatClock(in.BlackClock), actor, r.t.word(in.Kind), r.t.reasoned(in.Text, in.Why), r.t.rule(in.Rule), r.t.text(r.t.word(in.Effect))}
	if withGame {
		row = append([]string{fmt.Sprint(g.Number), r.t.date(in.At) + " " + in.At.In(r.t.m.Location()).Format("15:04")}, row[1:]...)
		row = append(row[:3], row[5:]...) // no clock readings in the appendix
	}
	return row
}

// ---- signatures ----

// sigH is the height of a game's signature block.
const sigH = 42.0

// signatures is the block the arbiter and both players sign: the game, its
// result, the chain head at the game's last event and the record's
// fingerprint, then the three signature lines.
func (r *renderer) signatures(g *match.Game) {
	f, t := r.f, r.t
	r.ensure(sigH)
	top := f.GetY()
	f.SetDrawColor(40, 60, 110)
	f.SetLineWidth(0.35)
	f.Rect(r.margin, top, r.cw, sigH-2, "D")
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
	y := top + sigH - 12
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
	f.SetXY(r.margin, top+sigH+2)
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

// ---- clock adjustments ----

// adjustments lists every clock adjustment of the game — the rule 10 and
// rule 13 bonuses, the arbiter's corrections, position resets that set the
// clocks — with the clock readings after it.
func (r *renderer) adjustments(g *match.Game) {
	f, t := r.f, r.t
	var rows [][]string
	for _, in := range g.Incidents {
		if in.Kind != "adjust" && in.Kind != "correct" {
			continue
		}
		row := r.incidentRow(g, in, false)
		// Time, after, kind, rule, effect, text.
		rows = append(rows, []string{row[0], row[1], row[5], row[7], row[8], row[6], row[2] + " / " + row[3]})
	}
	r.ensure(18)
	r.heading(t.s("Clock adjustments and bonuses"), 11)
	if len(rows) == 0 {
		r.para(t.s("No clock was adjusted and no bonus given."), 9, false)
		f.Ln(3)
		return
	}
	r.table([]col{{14.5, "L"}, {16, "L"}, {17, "L"}, {13, "L"}, {34, "L"}, {0, "L"}, {24, "R"}},
		[]string{t.f("Time (%s)", t.zoneLabel(incidentTimes(g.Incidents)...)), t.s("After"), t.s("Kind"), t.s("Rule"), t.s("Effect"), t.s("Reason"),
			t.s("White") + " / " + t.s("Black")}, rows, 7)
	f.Ln(2)
}

// ---- appendix ----

// ruledKinds are the incident kinds the appendix lists: decisions of the
// arbiter and of the appeals board, corrections of clocks and record.
var ruledKinds = map[string]bool{
	"ruling": true, "appeal": true, "appeal-decision": true, "adjust": true, "correct": true, "amend": true,
	"takeback": true, "flag": true, "recovery": true, "technical-fault": true, "maintenance": true,
	"operator-replaced": true, "arbiter-replaced": true, "penalty": true, "forfeit": true, "postponed": true,
}

func (r *renderer) appendix(games []*match.Game, head string) {
	f, t := r.f, r.t
	f.AddPage()
	r.heading(t.s("Appendix"), 16)
	f.Ln(2)
	r.heading(t.s("Rulings, appeals and corrections"), 11)
	rows := [][]string{}
	for _, g := range games {
		for _, in := range g.Incidents {
			if !ruled(g, in) {
				continue
			}
			row := r.incidentRow(g, in, true)
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		r.para(t.s("No rulings, appeals or corrections were recorded."), 9, false)
	} else {
		r.table([]col{{11, "C"}, {25, "L"}, {17, "L"}, {26, "L"}, {20, "L"}, {0, "L"}, {14, "L"}, {26, "L"}},
			[]string{t.s("Game"), t.f("Time (%s)", t.zoneLabel(r.allIncidentTimes(games)...)), t.s("After"), t.s("Actor"), t.s("Kind"), t.s("Text"), t.s("Rule"), t.s("Effect")}, rows, 7)
	}
	f.Ln(8)
	r.ensure(50)
	r.heading(t.s("Fingerprint of the record"), 11)
	explain := "This fingerprint is the head of the record's hash chain when the report was made; every event is bound to " +
		"the one before it with SHA-256. To check that the record still contains this report and has not been altered " +
		"since, run on the match computer:"
	if t.de {
		explain = t.s("fingerprint explanation")
	}
	r.para(explain, 9, false)
	f.Ln(3)
	hexHead := head
	if hexHead == "" {
		hexHead = t.s("not given")
	}
	r.font(10.5, true)
	f.SetFillColor(240, 242, 246)
	f.SetX(r.margin)
	f.CellFormat(r.cw, 8, hexHead, "", 1, "C", true, 0, "")
	f.Ln(3)
	cmd := "arbiter verify --head " + head
	if head == "" {
		cmd = "arbiter verify --head HEX"
	}
	r.font(8.5, false)
	f.SetX(r.margin)
	f.CellFormat(r.cw, 6, cmd, "", 1, "C", false, 0, "")
	f.Ln(3)
	verify := "The command succeeds and prints the current head if the chain is intact and contains this fingerprint; " +
		"otherwise it names the first event that does not match."
	if t.de {
		verify = t.s("verify explanation")
	}
	r.para(verify, 9, false)
	f.Ln(2)
	r.para(fmt.Sprintf("%s: %d", t.s("Events in the record"), r.st.Seq), 9, false)
}

func ruled(g *match.Game, in match.Incident) bool {
	if ruledKinds[in.Kind] || strings.HasPrefix(in.Kind, "claim") {
		return true
	}
	return in.Kind == "result" && g.Termination == scoresheet.TermArbiter
}

func incidentTimes(ins []match.Incident) []time.Time {
	var ts []time.Time
	for _, in := range ins {
		ts = append(ts, in.At)
	}
	return ts
}

func (r *renderer) allIncidentTimes(games []*match.Game) []time.Time {
	var ts []time.Time
	for _, g := range games {
		ts = append(ts, incidentTimes(g.Incidents)...)
	}
	return ts
}

func firstStart(games []*match.Game) time.Time {
	for _, g := range games {
		if !g.Started.IsZero() {
			return g.Started
		}
	}
	return time.Time{}
}
