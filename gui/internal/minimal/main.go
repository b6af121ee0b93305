// Command minimal is the baseline for scripts/gui-cpu.sh: the smallest Fyne
// window (one label), whose CPU use and memory the console's are compared
// with.
//
//	minimal          idle: nothing ever changes, so Fyne never repaints
//	minimal -tick    a window of the console's size whose label shows a
//	                 clock that changes once a second, like a running game
//	                 clock: the cost of Fyne's one full-window repaint per
//	                 second, which no clock display can avoid
package main

import (
	"flag"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	tick := flag.Bool("tick", false, "change the label once a second")
	flag.Parse()
	a := app.New()
	w := a.NewWindow("Minimal")
	label := widget.NewLabel("An idle Fyne window")
	w.SetContent(label)
	if *tick {
		w.Resize(fyne.NewSize(1280, 800))
		start := time.Now()
		go func() {
			for range time.Tick(time.Second) {
				s := int(time.Since(start).Seconds())
				fyne.Do(func() { label.SetText(time.Duration(s * int(time.Second)).String()) })
			}
		}()
	}
	w.ShowAndRun()
}
