package report

// The renderer and its layout primitives: fonts, headings, paragraphs, tables.

import (
	"strings"

	"codeberg.org/go-pdf/fpdf"

	"arbiter/assets"
	"arbiter/match"
)

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
	whole bool // widened to its longest cell, not word: a name that never wraps (an incident kind)
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
			texts := append([]string{head[i]}, column(rows, i)...)
			word := r.longestWord(texts, size, i == 0) + 2.4
			needs := []float64{word}
			if cols[i].whole {
				// its longest cell in one line, else at least its longest word
				needs = []float64{max(word, r.longestCell(texts[1:], size)+2.4), word}
			}
			for _, need := range needs {
				if need <= ws[i] {
					break
				}
				if rest-(need-ws[i]) >= 24 {
					rest -= need - ws[i]
					ws[i] = need
					break
				}
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

// longestCell is the width of the widest text at size, set in one line.
func (r *renderer) longestCell(texts []string, size float64) float64 {
	r.font(size, false)
	w := 0.0
	for _, s := range texts {
		w = max(w, r.f.GetStringWidth(s))
	}
	return w
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
