package gui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2/widget"

	"arbiter/clock"
	"arbiter/match"
)

// arriveDialog records a player's arrival at the board (Game → Player
// arrived at the board…, the arbiter's; Article 6.6, 'arrive'): a player of
// the game in progress, else of the next game, at the time of day the
// arbiter saw him arrive — now unless he gives an earlier one, in the
// match's time zone. A player who arrived within the forfeit time is not
// defaulted.
func (c *console) arriveDialog() {
	st := c.state()
	m := st.Match
	if m == nil {
		c.showError(match.ErrorFor(match.CodeNoMatch))
		return
	}
	g := st.CurrentGame()
	if g == nil || !g.Live() {
		g = st.NextGame()
	}
	if g == nil {
		c.showError(match.ErrorFor(match.CodeAllGamesPlayed))
		return
	}
	sides := []clock.Side{clock.White, clock.Black}
	var opts []string
	for _, s := range sides {
		opts = append(opts, fmt.Sprintf("%s (%s)", g.Name(s), translate(match.Colour(s))))
	}
	who := widget.NewRadioGroup(opts, nil)
	who.Required = true
	for i, s := range sides {
		if g.Arrived[s].IsZero() {
			who.SetSelected(opts[i]) // the first not yet arrived
			break
		}
	}
	at := c.now()
	when := entryWith(at.In(m.Location()).Format("15:04:05"))
	c.formDialog(translate("Player arrived at the board"), translate("Record the arrival"), []*widget.FormItem{
		widget.NewFormItem(translate("Game"), widget.NewLabel(tr("Game %d", g.Number))),
		widget.NewFormItem(translate("Player"), who),
		widget.NewFormItem(tr("Arrived at (%s)", m.Location().String()), when),
	}, func() error {
		player := ""
		for i, o := range opts {
			if o == who.Selected {
				player = g.Name(sides[i])
			}
		}
		arrived, err := timeOfDayOn(strings.TrimSpace(when.Text), at, m.Location())
		if err != nil {
			return err
		}
		return c.giveFromDialog(c.arbiter(), match.Arrive{Player: player, At: &arrived}, nil)
	})
}

// timeOfDayOn reads a time of day (15:04:05 or 15:04) on the day of ref in
// loc.
func timeOfDayOn(s string, ref time.Time, loc *time.Location) (time.Time, error) {
	for _, layout := range []string{"15:04:05", "15:04"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			y, mo, d := ref.In(loc).Date()
			return time.Date(y, mo, d, t.Hour(), t.Minute(), t.Second(), 0, loc), nil
		}
	}
	return time.Time{}, errText(tr("%q is not a time of day: write it as 15:04:05", s))
}
