package gui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"arbiter/match"
)

// colViewing marks the game shown instead of the current one: its label in
// the games row (colViewingOnLight on the light theme) and the banner's
// frame.
var (
	colViewing        = color.NRGBA{0x42, 0xa5, 0xf5, 0xff}
	colViewingOnLight = color.NRGBA{0x15, 0x65, 0xc0, 0xff}
)

// viewingColor is the viewed game's label's colour in the theme now.
func viewingColor() color.Color {
	if fyne.CurrentApp().Settings().ThemeVariant() == theme.VariantLight {
		return colViewingOnLight
	}
	return colViewing
}

// gameLabel is one game of the games row ("G1 GK–DB 1-0"): its text, and,
// for a game that has begun, a click that shows it (onTap; nil: the label
// does nothing, as a game not yet played). It takes its text and emits the
// click; the console decides what showing a game means.
type gameLabel struct {
	widget.BaseWidget
	text  *canvas.Text
	onTap func()
}

func newGameLabel(t *canvas.Text, onTap func()) *gameLabel {
	l := &gameLabel{text: t, onTap: onTap}
	l.ExtendBaseWidget(l)
	return l
}

func (l *gameLabel) Tapped(*fyne.PointEvent) {
	if l.onTap != nil {
		l.onTap()
	}
}

// Cursor is the hand over a game that can be shown.
func (l *gameLabel) Cursor() desktop.Cursor {
	if l.onTap != nil {
		return desktop.PointerCursor
	}
	return desktop.DefaultCursor
}

func (l *gameLabel) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(l.text) }

// gamesRowTexts are the texts of the games row's labels (tests read them).
func gamesRowTexts(box *fyne.Container) []*canvas.Text {
	var ts []*canvas.Text
	for _, o := range box.Objects {
		if l, ok := o.(*gameLabel); ok {
			ts = append(ts, l.text)
		}
	}
	return ts
}

// viewBanner is the line over the clocks that says the console shows a game
// other than the current one ("Game 1 (finished 1-0) — view only: nothing
// is recorded."), with the button back to the current game. It stands
// at the top of the right-hand column, not in the header, so that showing
// it never moves the board (a header grown by a line would no longer fit
// above the board, which would then reach up beside it); the clocks' digits
// yield its height. It takes its texts (set) and emits the click on its
// button (onBack).
type viewBanner struct {
	obj  fyne.CanvasObject
	text *widget.Label
	back *widget.Button
}

func newViewBanner(onBack func()) *viewBanner {
	bg, t := bannerParts(color.NRGBA{0x42, 0xa5, 0xf5, 0x40}, colViewing)
	b := widget.NewButtonWithIcon("", theme.NavigateBackIcon(), onBack)
	b.Importance = widget.HighImportance
	obj := container.NewStack(bg, container.NewBorder(nil, nil, nil, container.NewCenter(b), t))
	obj.Hide()
	return &viewBanner{obj: obj, text: t, back: b}
}

// set shows the banner for viewing game g while game current is on (g nil:
// hides it).
func (v *viewBanner) set(g *match.Game, current int) {
	if g == nil {
		if v.obj.Visible() {
			v.obj.Hide()
		}
		return
	}
	status := translate(string(g.State))
	if g.Over() {
		status = tr("finished %s", g.Result)
	}
	txt := tr("Game %d (%s) — view only: nothing is recorded.", g.Number, status)
	if v.text.Text != txt {
		v.text.SetText(txt)
	}
	if back := tr("Back to game %d", current); v.back.Text != back {
		v.back.SetText(back)
	}
	if !v.obj.Visible() {
		v.obj.Show()
	}
}
