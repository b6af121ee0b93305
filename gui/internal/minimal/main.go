// Command minimal is the idle baseline for scripts/gui-cpu.sh: the smallest
// Fyne window (one label), whose CPU use and memory the console's are
// compared with.
package main

import (
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	a := app.New()
	w := a.NewWindow("Minimal")
	w.SetContent(widget.NewLabel("An idle Fyne window"))
	w.ShowAndRun()
}
