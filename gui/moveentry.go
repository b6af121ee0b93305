package gui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// moveEntry is the move field: a one-line text field with a steady caret.
// It is not a widget.Entry because the Entry's blinking caret is an endless
// animation that redraws the window sixty times a second; the console must
// stay near idle while a clock runs. It lets the clock keys and the call key
// through to the console even while it has the focus.
type moveEntry struct {
	widget.BaseWidget
	// onKey is offered every key first (the clock keys); it reports
	// whether it took the key.
	onKey       func(*fyne.KeyEvent) bool
	Text        string
	placeHolder []string // the hints, longest first: the longest that fits is shown
	focused     bool
	// selected is true when the whole text is selected (Ctrl+A, or a
	// refused move): the next character replaces it, Backspace clears it.
	selected    bool
	OnSubmitted func(string)
	// onKeyDown and onKeyUp are told of each key pressed and released
	// while the field has the focus (the console's heldKey).
	onKeyDown, onKeyUp func(*fyne.KeyEvent)
}

// KeyDown tells onKeyDown of a key pressed (not of its repeats).
func (e *moveEntry) KeyDown(ev *fyne.KeyEvent) {
	if e.onKeyDown != nil {
		e.onKeyDown(ev)
	}
}

// KeyUp tells onKeyUp of a key released.
func (e *moveEntry) KeyUp(ev *fyne.KeyEvent) {
	if e.onKeyUp != nil {
		e.onKeyUp(ev)
	}
}

func newMoveEntry(onKey func(*fyne.KeyEvent) bool) *moveEntry {
	e := &moveEntry{onKey: onKey}
	e.ExtendBaseWidget(e)
	return e
}

// SetText replaces the text.
func (e *moveEntry) SetText(s string) {
	e.Text = s
	e.selected = false
	e.Refresh()
}

// SelectAll selects the whole text, so that the next move typed replaces it.
func (e *moveEntry) SelectAll() {
	if e.Text == "" || e.selected {
		return
	}
	e.selected = true
	e.Refresh()
}

// SetPlaceHolder sets the hint shown while the field is empty, and shorter
// ones for a narrower field: the longest that fits is shown (at a large
// text size the long hint would run past the field over its neighbours).
func (e *moveEntry) SetPlaceHolder(s string, shorter ...string) {
	e.placeHolder = append([]string{s}, shorter...)
	e.Refresh()
}

// hint is the longest hint that fits a field this wide (the shortest if
// none does); size is the hint's text size.
func (e *moveEntry) hint(width, size float32) string {
	if len(e.placeHolder) == 0 {
		return ""
	}
	for _, h := range e.placeHolder {
		if fyne.MeasureText(h, size, fyne.TextStyle{}).Width <= width-2*theme.InnerPadding()-4 {
			return h
		}
	}
	return e.placeHolder[len(e.placeHolder)-1]
}

// Tapped focuses the field.
func (e *moveEntry) Tapped(*fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil {
		c.Focus(e)
	}
}

func (e *moveEntry) FocusGained() { e.focused = true; e.Refresh() }
func (e *moveEntry) FocusLost()   { e.focused = false; e.Refresh() }

// TypedRune adds a character (moves have no spaces).
func (e *moveEntry) TypedRune(r rune) {
	if r == ' ' {
		return
	}
	if e.selected {
		e.SetText(string(r))
		return
	}
	if len(e.Text) >= 16 {
		return
	}
	e.SetText(e.Text + string(r))
}

// TypedKey handles the clock keys first, then editing and Enter.
func (e *moveEntry) TypedKey(ev *fyne.KeyEvent) {
	if e.onKey != nil && e.onKey(ev) {
		return
	}
	switch ev.Name {
	case fyne.KeyBackspace:
		if e.selected {
			e.SetText("")
		} else if r := []rune(e.Text); len(r) > 0 {
			e.SetText(string(r[:len(r)-1]))
		}
	case fyne.KeyDelete:
		e.SetText("")
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.OnSubmitted != nil {
			e.OnSubmitted(e.Text)
		}
	}
}

// TypedShortcut pastes a move, or selects the whole text (Ctrl+A).
func (e *moveEntry) TypedShortcut(s fyne.Shortcut) {
	switch sc := s.(type) {
	case *fyne.ShortcutPaste:
		if sc.Clipboard != nil {
			txt := e.Text
			if e.selected {
				txt = ""
			}
			e.SetText(txt + strings.TrimSpace(sc.Clipboard.Content()))
		}
	case *fyne.ShortcutSelectAll:
		e.SelectAll()
	}
}

func (e *moveEntry) CreateRenderer() fyne.WidgetRenderer {
	r := &moveEntryRenderer{e: e}
	r.bg = canvas.NewRectangle(color.Transparent)
	r.bg.CornerRadius = theme.InputRadiusSize()
	r.text = canvas.NewText("", color.Black)
	r.caret = canvas.NewRectangle(color.Black)
	r.sel = canvas.NewRectangle(color.Transparent)
	r.objs = []fyne.CanvasObject{r.bg, r.sel, r.text, r.caret}
	r.Refresh()
	return r
}

type moveEntryRenderer struct {
	e     *moveEntry
	bg    *canvas.Rectangle
	text  *canvas.Text
	caret *canvas.Rectangle
	sel   *canvas.Rectangle // behind selected text
	objs  []fyne.CanvasObject
}

func (r *moveEntryRenderer) Layout(size fyne.Size) {
	p := theme.InnerPadding()
	r.bg.Resize(size)
	th := r.text.MinSize().Height
	r.text.Move(fyne.NewPos(p, (size.Height-th)/2))
	r.text.Resize(fyne.NewSize(size.Width-2*p, th))
	if r.e.Text == "" {
		if h := r.e.hint(size.Width, r.text.TextSize); h != r.text.Text {
			r.text.Text = h
			r.text.Refresh()
		}
	}
	x := p
	if r.e.Text != "" {
		x += r.text.MinSize().Width
	}
	r.caret.Move(fyne.NewPos(x+1, (size.Height-th)/2))
	r.caret.Resize(fyne.NewSize(2, th))
	r.sel.Move(fyne.NewPos(p, (size.Height-th)/2))
	r.sel.Resize(fyne.NewSize(x-p, th))
}

func (r *moveEntryRenderer) MinSize() fyne.Size {
	return fyne.NewSize(100, moveEntryHeight(theme.TextSize(), theme.InnerPadding()))
}

// moveEntryHeight is the move field's height at text size size and inner
// padding ip: its text is 15 % larger than the console's.
func moveEntryHeight(size, ip float32) float32 {
	return fyne.MeasureText("M", size*1.15, fyne.TextStyle{}).Height + 2*ip
}

func (r *moveEntryRenderer) Refresh() {
	e := r.e
	r.bg.FillColor = themeColor(theme.ColorNameInputBackground)
	r.bg.StrokeWidth = theme.InputBorderSize()
	r.bg.StrokeColor = themeColor(theme.ColorNameInputBorder)
	if e.focused {
		r.bg.StrokeColor = themeColor(theme.ColorNamePrimary)
		r.bg.StrokeWidth = 2
	}
	r.text.TextSize = theme.TextSize() * 1.15
	r.text.TextStyle.Bold = e.Text != ""
	if e.Text == "" {
		r.text.Text = e.hint(e.Size().Width, r.text.TextSize)
		r.text.Color = themeColor(theme.ColorNamePlaceHolder)
	} else {
		r.text.Text = e.Text
		r.text.Color = themeColor(theme.ColorNameForeground)
	}
	r.caret.FillColor = themeColor(theme.ColorNamePrimary)
	r.sel.Hidden = !e.selected || e.Text == ""
	r.sel.FillColor = themeColor(theme.ColorNameSelection)
	r.caret.Hidden = !e.focused
	r.Layout(e.Size())
	for _, o := range r.objs {
		o.Refresh()
	}
}

func (r *moveEntryRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *moveEntryRenderer) Destroy()                     {}
