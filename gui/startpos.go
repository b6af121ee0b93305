package gui

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"arbiter/match"
)

// startFromDialog starts the next game from a position (issue 13): a FEN
// and, optionally, each clock's reading (H:MM:SS; empty: the control's
// time). The FEN's side to move has the move and its clock starts; its move
// number sets both move counters and the period. The core checks the FEN
// and the readings; a bad one gets its sentence in the dialog, which stays
// open, and nothing is recorded.
func (c *console) startFromDialog() {
	fen := entryWith("")
	fen.SetPlaceHolder("8/8/4k3/8/8/4K3/4P3/8 w - - 0 60")
	white := entryWith("")
	white.SetPlaceHolder(translate("the control's time"))
	black := entryWith("")
	black.SetPlaceHolder(translate("the control's time"))
	help := widget.NewLabel(translate("The side to move in the FEN has the move and its clock starts; the FEN's move number sets the moves completed and the period. Clocks as H:MM:SS, e.g. 0:04:59.5."))
	help.Wrapping = fyne.TextWrapWord
	help.SizeName = theme.SizeNameCaptionText
	c.formDialog(translate("Start from a position"), translate("Start game"), []*widget.FormItem{
		widget.NewFormItem("FEN", fen),
		widget.NewFormItem(translate("White's clock"), white),
		widget.NewFormItem(translate("Black's clock"), black),
		widget.NewFormItem("", help),
	}, func() error {
		from := match.StartPosition{FEN: strings.TrimSpace(fen.Text)}
		if from.FEN == "" {
			return errText(translate("no position given: write its FEN, or start the next game from the usual position with Ctrl+G"))
		}
		for _, x := range []struct {
			e *formEntry
			d **time.Duration
		}{{white, &from.White}, {black, &from.Black}} {
			if strings.TrimSpace(x.e.Text) == "" {
				continue
			}
			d, err := match.ParseClockReading(x.e.Text)
			if err != nil {
				return err
			}
			*x.d = &d
		}
		return c.giveFromDialog(c.arbiter(), match.GameStart{StartPosition: from}, func(match.Result) { c.focusMove() })
	})
}
