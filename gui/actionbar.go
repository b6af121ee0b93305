package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// actionBar is the console's row of buttons. It keeps one row: when the
// labels do not fit the width (German, a larger text size, a narrow
// window), the buttons of least priority leave the row for a "More…"
// button, whose menu holds them with their labels and their state
// (disabled stays disabled). Every one of them is also a menu item with a
// shortcut, so the keys reach them all whatever the bar shows.
//
// A button's own visibility says whether it is wanted at all (the flag
// buttons only once a flag has fallen); the bar decides which of the wanted
// ones stand in the row. Those left out are not drawn (the renderer leaves
// them out), so they cost the painter nothing.
type actionBar struct {
	widget.BaseWidget
	buttons []*actionButton // in the row's order
	// rank gives the order in which buttons keep their place: lower first
	rank []int
	more *widget.Button
	// shown and overflow are the row and the rest, as last laid out (tests
	// read them)
	shown    []fyne.CanvasObject
	overflow []*actionButton
	width    float32
	// tip says why the button under the pointer is disabled (tooltip.go)
	tip *tip
	// ids name the buttons, and geometryFile receives where they stand
	// after each layout (writeGeometry)
	ids          []string
	geometryFile string
}

// newActionBar makes a bar of buttons in their order; keep lists their
// indices in the order they keep a place when the row is too narrow.
func newActionBar(buttons []*actionButton, keep []int) *actionBar {
	b := &actionBar{buttons: buttons, rank: make([]int, len(buttons)), tip: newTip()}
	for r, i := range keep {
		b.rank[i] = r
	}
	for _, btn := range buttons {
		btn.bar = b
	}
	b.more = widget.NewButton(translate("More…"), b.showMore)
	b.ExtendBaseWidget(b)
	return b
}

// split finds the wanted buttons that fit width (with More… if some do not)
// and the rest, each in the row's order.
func (b *actionBar) split(width float32) (row []*actionButton, rest []*actionButton) {
	pad := theme.Padding()
	var wanted []int
	total := float32(0)
	for i, btn := range b.buttons {
		if btn.Visible() {
			wanted = append(wanted, i)
			total += btn.MinSize().Width + pad
		}
	}
	in := make([]bool, len(b.buttons))
	if total-pad <= width || width <= 0 {
		for _, i := range wanted {
			in[i] = true
		}
	} else {
		// by rank, as many as fit beside More…
		used := b.more.MinSize().Width
		for r := 0; r < len(b.buttons); r++ {
			for _, i := range wanted {
				if b.rank[i] != r {
					continue
				}
				if w := b.buttons[i].MinSize().Width + pad; used+w <= width {
					in[i] = true
					used += w
				}
			}
		}
	}
	for _, i := range wanted {
		if in[i] {
			row = append(row, b.buttons[i])
		} else {
			rest = append(rest, b.buttons[i])
		}
	}
	return row, rest
}

// showMore opens the menu of the buttons left out of the row.
func (b *actionBar) showMore() {
	var items []*fyne.MenuItem
	for _, btn := range b.overflow {
		btn := btn
		it := fyne.NewMenuItem(btn.Text, func() {
			if !btn.Disabled() && btn.OnTapped != nil {
				btn.OnTapped()
			}
		})
		it.Disabled = btn.Disabled()
		items = append(items, it)
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(b.more)
	if c == nil || len(items) == 0 {
		return
	}
	m := widget.NewPopUpMenu(fyne.NewMenu("", items...), c)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b.more)
	m.ShowAtPosition(pos.Subtract(fyne.NewPos(0, m.MinSize().Height)))
}

func (b *actionBar) CreateRenderer() fyne.WidgetRenderer { return &actionBarRenderer{b: b} }

type actionBarRenderer struct{ b *actionBar }

func (r *actionBarRenderer) Layout(size fyne.Size) {
	b := r.b
	row, rest := b.split(size.Width)
	b.width, b.overflow = size.Width, rest
	b.shown = nil
	h := size.Height
	x := float32(0)
	for _, btn := range row {
		w := btn.MinSize().Width
		btn.Move(fyne.NewPos(x, 0))
		btn.Resize(fyne.NewSize(w, h))
		x += w + theme.Padding()
		b.shown = append(b.shown, btn)
	}
	if len(rest) > 0 {
		b.more.Move(fyne.NewPos(x, 0))
		b.more.Resize(fyne.NewSize(b.more.MinSize().Width, h))
		b.shown = append(b.shown, b.more)
	}
	b.tip.place(size.Width)
	b.writeGeometry()
}

// MinSize is one row high; as wide as the widest button beside More….
func (r *actionBarRenderer) MinSize() fyne.Size {
	b := r.b
	w, h := float32(0), b.more.MinSize().Height
	for _, btn := range b.buttons {
		if !btn.Visible() {
			continue // not refreshed while hidden: its size may be a text size's ago
		}
		s := btn.MinSize()
		w, h = max(w, s.Width), max(h, s.Height)
	}
	return fyne.NewSize(w+theme.Padding()+b.more.MinSize().Width, h)
}

func (r *actionBarRenderer) Refresh() {
	r.b.more.SetText(translate("More…"))
	// the buttons out of the row take a new text size too: their sizes
	// decide which stand in it
	r.b.more.Refresh()
	for _, btn := range r.b.buttons {
		btn.Refresh()
	}
	r.Layout(r.b.Size())
	for _, o := range r.b.shown {
		o.Refresh()
	}
}

func (r *actionBarRenderer) Objects() []fyne.CanvasObject {
	if r.b.tip.of == nil {
		return r.b.shown
	}
	return append(append([]fyne.CanvasObject{}, r.b.shown...), r.b.tip.obj) // drawn above the row
}

func (r *actionBarRenderer) Destroy() {}
