package gui

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"arbiter/clock"
	"arbiter/internal/phrase"
	"arbiter/match"
	"arbiter/service"
)

// sentence is an error as the one sentence shown to the user, in the
// console's language: the core's refusals are translated with the same
// dictionary as the console's own texts.
func sentence(err error) string { return consoleDictionary().Sentence(service.Coded(kindByName(err))) }

// kindByName is err with the incident kind it names said by the kind's name
// ("technical fault", German "technische Störung"), as the console names a
// kind everywhere else: the core gives the record's identifier, which the
// command line's words keep (the argument typed there), and the console
// said "The incident (technical-fault) needs a text".
func kindByName(err error) error {
	var e *match.Error
	if !errors.As(err, &e) || e.Code != match.CodeIncidentNeedsText {
		return err
	}
	args := e.Args()
	if len(args) != 1 {
		return err
	}
	kind, ok := args[0].(string)
	if !ok {
		return err
	}
	return phrase.Coded(string(e.Code), phrase.Word(kind))
}

// formDialog shows a form whose entries submit it with Enter. ok returns an
// error to keep the dialog open with the reason shown; nil closes it.
func (c *console) formDialog(title, confirm string, items []*widget.FormItem, ok func() error) dialog.Dialog {
	errLabel := widget.NewLabel("")
	errLabel.Importance = widget.DangerImportance
	errLabel.Wrapping = fyne.TextWrapWord
	errLabel.Hide()
	form := widget.NewForm(items...)
	var d dialog.Dialog
	var content *fyne.Container
	submit := func() {
		c.submitting = true
		err := ok()
		c.submitting = false
		if err != nil {
			c.pending = nil
			c.noteWriteError(err)
			// the sentence may wrap to more lines than the dialog has room
			// for: measure it at the form's width, then grow the dialog to
			// its new minimum and lay it out again, so it covers no field
			errLabel.SetText(c.explain(err))
			errLabel.Resize(fyne.NewSize(form.Size().Width, errLabel.MinSize().Height))
			errLabel.Show()
			d.Resize(fyne.NewSize(560, 0))
			content.Refresh()
			return
		}
		d.Hide()
		pending := c.pending
		c.pending = nil
		for _, f := range pending {
			f()
		}
	}
	for _, it := range items {
		if e, isEntry := it.Widget.(*formEntry); isEntry {
			e.OnSubmitted = func(string) { submit() }
		}
	}
	// a refusal speaks of what was given: once a field is changed it no
	// longer does (a FEN refused stayed refused on the screen after it was
	// corrected), and it goes until the form is given again
	stale := func() {
		if errLabel.Visible() {
			errLabel.Hide()
			d.Resize(fyne.NewSize(560, 0))
			content.Refresh()
		}
	}
	for _, it := range items {
		onFieldChange(it.Widget, stale)
	}
	cancel := widget.NewButton(translate("Cancel"), func() { d.Hide() })
	okb := widget.NewButton(confirm, submit)
	okb.Importance = widget.HighImportance
	// a form taller than the window (the new match at a large text size)
	// scrolls, so that its buttons stay on the screen
	var body fyne.CanvasObject = form
	if room := c.win.Canvas().Size().Height - 240; room > 200 && form.MinSize().Height > room {
		scroll := container.NewVScroll(form)
		scroll.SetMinSize(fyne.NewSize(form.MinSize().Width, room))
		body = scroll
	}
	content = container.NewBorder(nil, container.NewVBox(errLabel, container.NewHBox(layoutSpacer(), cancel, okb)), nil, nil, body)
	d = dialog.NewCustomWithoutButtons(title, content, c.win)
	d.Resize(fyne.NewSize(560, 0))
	escapeCloses(content, c.escapeClosing(d.Hide))
	c.showDialog(d)
	for _, it := range items {
		if e, isEntry := it.Widget.(*formEntry); isEntry {
			c.win.Canvas().Focus(e)
			return d
		}
	}
	c.win.Canvas().Unfocus()
	c.onEnter = submit // a form without a text field: Enter confirms it too
	return d
}

// onFieldChange has changed called, after the field's own OnChanged, when
// the text of a text field in obj (a form item's widget, or a box of them)
// changes, or a choice in it is made.
func onFieldChange(obj fyne.CanvasObject, changed func()) {
	chain := func(own func(string)) func(string) {
		return func(s string) {
			if own != nil {
				own(s)
			}
			changed()
		}
	}
	switch w := obj.(type) {
	case *formEntry:
		w.OnChanged = chain(w.OnChanged)
	case *widget.Entry:
		w.OnChanged = chain(w.OnChanged)
	case *widget.SelectEntry:
		w.OnChanged = chain(w.OnChanged)
	case *widget.Select:
		w.OnChanged = chain(w.OnChanged)
	case *widget.RadioGroup:
		w.OnChanged = chain(w.OnChanged)
	case *fyne.Container:
		for _, o := range w.Objects {
			onFieldChange(o, changed)
		}
	}
}

// formEntry is a text field of a dialog. A widget.Entry keeps the Escape
// key for itself; in a formEntry Escape closes the dialog, as Cancel does.
type formEntry struct {
	widget.Entry
	onEscape func()
}

func newFormEntry(password bool) *formEntry {
	e := &formEntry{}
	if password {
		e.Password = true
		e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	}
	e.ExtendBaseWidget(e)
	return e
}

// MinSize is at least as wide as the field's hint, so that a form lays the
// field out wide enough to show it whole (Fyne's Entry clips a hint wider
// than the field: the German "optional, mindestens 10 Zeichen" lost its end).
func (e *formEntry) MinSize() fyne.Size {
	min := e.Entry.MinSize()
	if e.PlaceHolder == "" {
		return min
	}
	pad := theme.InnerPadding()
	w := fyne.MeasureText(e.PlaceHolder, theme.TextSize(), fyne.TextStyle{}).Width + 2*pad
	if e.Password {
		w += theme.IconInlineSize() + pad // the reveal button
	}
	min.Width = max(min.Width, w)
	return min
}

// TypedKey closes the dialog on Escape; every other key edits.
func (e *formEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && e.onEscape != nil {
		e.onEscape()
		return
	}
	e.Entry.TypedKey(ev)
}

// escapeCloses makes Escape in every text field under obj call close.
func escapeCloses(obj fyne.CanvasObject, close func()) {
	switch o := obj.(type) {
	case *formEntry:
		o.onEscape = close
	case *fyne.Container:
		for _, ch := range o.Objects {
			escapeCloses(ch, close)
		}
	case *widget.Form:
		for _, it := range o.Items {
			escapeCloses(it.Widget, close)
		}
	}
}

func entryWith(text string) *formEntry {
	e := newFormEntry(false)
	e.SetText(text)
	return e
}

// defaultSpec is the 1996 match: what the New match dialog is filled with.
func defaultSpec() match.MatchNew {
	return match.MatchNew{
		Title:     "ACM Chess Challenge",
		Site:      "Philadelphia, PA USA",
		Arbiter:   "Mike Valvo",
		Players:   [2]string{"Garry Kasparov", "Deep Blue"},
		Computer:  "Deep Blue",
		Operators: []string{"Feng-hsiung Hsu"},
		Games:     6,
		Control:   "acm1996",
		White:     "lots",
	}
}

// newMatchDialog asks for the match, filled in with the 1996 match.
func (c *console) newMatchDialog() {
	if c.stationRole != "" {
		// a station's record holds the match its stations were invited to
		c.showError(errText(tr("This console shows %s, whose record holds the match its stations were invited to: make a new match in a new file (arbiter --db NEWFILE), then serve it as a station.", c.stationNote)))
		return
	}
	if m := c.state().Match; m != nil {
		c.showError(errText(tr("this database already holds the match %q: start the console with another --db file", m.Title)))
		return
	}
	d := defaultSpec()
	title := entryWith(d.Title)
	site := entryWith(d.Site)
	p1 := entryWith(d.Players[0])
	p2 := entryWith(d.Players[1])
	computer := entryWith(d.Computer)
	operator := entryWith(strings.Join(d.Operators, ", "))
	arb := entryWith(d.Arbiter)
	games := entryWith(fmt.Sprint(d.Games))
	tc, tcHelp := timeControlField(d.Control)
	white := widget.NewSelect([]string{translate("by lots, drawn by this program"), d.Players[0], d.Players[1]}, nil)
	white.SetSelectedIndex(0)
	// a Select is as wide as its placeholder and cuts a longer choice short
	// with an ellipsis: the longest choice as the placeholder (never shown,
	// a choice is always selected) keeps "durch Los, von diesem Programm
	// gezogen" whole
	white.PlaceHolder = translate("by lots, drawn by this program")
	// rule 3: the lots are drawn at the board (in 1996 Kasparov drew); a
	// player's name records that draw, the first entry lets the program draw
	lotsHelp := widget.NewLabel(translate("Lots drawn at the board (rule 3): choose the player who drew White."))
	lotsHelp.Wrapping = fyne.TextWrapWord
	lotsHelp.SizeName = theme.SizeNameCaptionText
	p1.OnChanged = func(s string) { white.Options[1] = s; white.Refresh() }
	p2.OnChanged = func(s string) { white.Options[2] = s; white.Refresh() }
	pin := newFormEntry(true)
	pin.SetPlaceHolder(translate("optional, 10 characters or more"))
	pin2 := newFormEntry(true) // typed twice: a slip would lock the arbiter out
	pin2.SetPlaceHolder(translate("the same passphrase again"))
	// the zone the times of day are shown in (match new --tz): the
	// machine's by default; the record keeps UTC
	zone := entryWith(service.MachineZone(os.Getenv))
	zone.SetPlaceHolder(translate("UTC, or an IANA name such as America/New_York"))
	items := []*widget.FormItem{
		widget.NewFormItem(translate("Title"), title),
		widget.NewFormItem(translate("Site"), site),
		widget.NewFormItem(translate("Player 1"), p1),
		widget.NewFormItem(translate("Player 2"), p2),
		widget.NewFormItem(translate("Computer"), computer),
		widget.NewFormItem(translate("Operator"), operator),
		widget.NewFormItem(translate("Arbiter"), arb),
		widget.NewFormItem(translate("Games"), games),
		widget.NewFormItem(translate("Time control"), container.NewVBox(tc, tcHelp)),
		widget.NewFormItem(translate("White in game 1"), container.NewVBox(white, lotsHelp)),
		widget.NewFormItem(translate("Time zone"), zone),
		widget.NewFormItem(translate("Arbiter PIN"), pin),
		widget.NewFormItem(translate("Arbiter PIN again"), pin2),
	}
	c.formDialog(translate("New match"), translate("Create match"), items, func() error {
		if pin.Text != pin2.Text {
			return errText(translate("the two PINs differ: type the same arbiter PIN in both fields"))
		}
		n, ok := atoiOr(games.Text, 6)
		if !ok {
			return errText(tr("%q is not a number of games: give a whole number such as 6", games.Text))
		}
		spec := match.MatchNew{Title: strings.TrimSpace(title.Text), Site: strings.TrimSpace(site.Text), Arbiter: strings.TrimSpace(arb.Text),
			Players: [2]string{strings.TrimSpace(p1.Text), strings.TrimSpace(p2.Text)}, Computer: strings.TrimSpace(computer.Text),
			Games: n, Control: strings.TrimSpace(tc.Text), PIN: pin.Text, White: "lots", TimeZone: strings.TrimSpace(zone.Text)}
		if strings.EqualFold(spec.TimeZone, "UTC") {
			spec.TimeZone = ""
		}
		for _, o := range strings.Split(operator.Text, ",") {
			if o = strings.TrimSpace(o); o != "" {
				spec.Operators = append(spec.Operators, o)
			}
		}
		if i := white.SelectedIndex(); i > 0 {
			spec.White = spec.Players[i-1]
		}
		if err := c.giveFromDialog(match.Actor{Role: match.RoleArbiter}, spec, nil); err != nil {
			return err
		}
		c.matchCreated(spec.PIN)
		return nil
	})
}

// timeControlField is the New match dialog's time control: a preset or a
// spec typed, and under it the control in words (or that it is none).
func timeControlField(control string) (*widget.SelectEntry, *widget.Label) {
	var presets []string
	for _, p := range clock.Presets() {
		presets = append(presets, p.Name)
	}
	tc := widget.NewSelectEntry(presets)
	tc.SetText(control)
	help := widget.NewLabel("")
	show := func(s string) {
		if ctl, err := clock.ParseSpec(s); err == nil {
			help.SetText(ctl.Readable())
		} else {
			help.SetText(translate("not a time control"))
		}
	}
	tc.OnChanged = show
	show(control)
	return tc, help
}

// matchCreated puts the console in arbiter mode with the PIN the match was
// created with and, once the dialog is gone, says who has White in game 1
// (with the arbiter's key fingerprint on a protected match).
func (c *console) matchCreated(pin string) {
	c.pin = pin
	c.hallPIN = pin
	c.mode = match.RoleArbiter
	m := c.state().Match
	c.refresh()
	msg := tr("%s: %s has White in game 1 (%s). Start game 1 with Ctrl+G.", m.Title, m.Game1White, lotsText(m.Lots))
	cred := c.state().ArbiterCredential()
	c.afterDialog(func() {
		if cred == nil {
			if m.ID == "" {
				c.info(translate("Match created"), msg)
				return
			}
			text := widget.NewLabel(msg + "\n\n" + translate(writeDownMatchID))
			text.Wrapping = fyne.TextWrapWord
			c.noteWith(translate("Match created"), container.NewVBox(text, hexValue(m.ID), c.copyRow(translate("Copy the match id"), m.ID)))
			return
		}
		c.fingerprintNote(msg, cred.Fingerprint(), m.ID)
	})
}

// writeDownMatchID asks for the match id to be written down, as match new
// at the command line prints it: before, the console showed the key's
// fingerprint alone, and 'verify --match' had nothing to check against.
const writeDownMatchID = "Write down the match id: 'arbiter verify --match' checks it, and it tells this match from any other."

// fingerprintNote says the match is created and shows the arbiter's key
// fingerprint to write down (on the scoresheet, in the arbiter's notes),
// with a button that copies it: every signed report and 'arbiter verify
// --key' name the key by it.
func (c *console) fingerprintNote(msg, fp, id string) {
	text := widget.NewLabel(msg + "\n\n" + translate("Write down the fingerprint of the arbiter's key on paper, away from this computer: every signed report names the key by it, and 'arbiter verify --key' checks it (a record re-made from its start under another key verifies without it)."))
	text.Wrapping = fyne.TextWrapWord
	// in two lines of four blocks of eight, as it is written down
	blocks := strings.Fields(match.HexBlocks(fp))
	half := (len(blocks) + 1) / 2
	shown := widget.NewLabelWithStyle(strings.Join(blocks[:half], " ")+"\n"+strings.Join(blocks[half:], " "), fyne.TextAlignCenter, fyne.TextStyle{Monospace: true, Bold: true})
	box := container.NewVBox(text, shown, c.copyRow(translate("Copy the fingerprint"), fp))
	if id != "" {
		idText := widget.NewLabel(translate(writeDownMatchID))
		idText.Wrapping = fyne.TextWrapWord
		box.Add(idText)
		box.Add(hexValue(id))
		box.Add(c.copyRow(translate("Copy the match id"), id))
	}
	c.noteWith(translate("Match created"), box)
}

// noteWith shows a note of its own content (a value to write down, a
// button to copy it) 600 wide; Enter closes it, as info's.
func (c *console) noteWith(title string, content fyne.CanvasObject) {
	d := dialog.NewCustom(title, translate("OK"), content, c.win)
	d.Resize(fyne.NewSize(600, 0))
	d.SetOnClosed(func() { c.onEnter = nil })
	c.onEnter = d.Hide
	c.showDialog(d)
}

// hexValue is a value to write down (a match id), in blocks of eight,
// centred and bold.
func hexValue(hex string) *widget.Label {
	return widget.NewLabelWithStyle(match.HexBlocks(hex), fyne.TextAlignCenter, fyne.TextStyle{Monospace: true, Bold: true})
}

// copyRow is a button that puts value on the clipboard (a fingerprint, a
// match id, as 'arbiter verify' takes it: no blanks) and, beside it,
// "Copied." once it did.
func (c *console) copyRow(label, value string) fyne.CanvasObject {
	copied := widget.NewLabel("")
	return container.NewHBox(widget.NewButton(label, func() {
		c.fa.Clipboard().SetContent(value)
		copied.SetText(translate("Copied."))
	}), copied)
}

func lotsText(l string) string {
	if l == "app" {
		return translate("lots drawn by Arbiter")
	}
	return translate("lots drawn at the board")
}

func (c *console) scheduleDialog() {
	n := entryWith("")
	n.SetPlaceHolder(translate("next game"))
	// the start is given in the match's time zone, named beside it
	m := c.state().Match
	soon := c.now().Add(time.Hour)
	start := entryWith(soon.In(m.Location()).Format("2006-01-02 15:04"))
	c.formDialog(translate("Schedule game"), translate("Schedule"), []*widget.FormItem{
		widget.NewFormItem(translate("Game"), n),
		widget.NewFormItem(tr("Start (%s)", m.Location().String()), start),
	}, func() error {
		num, ok := atoiOr(n.Text, 0)
		if !ok {
			return errText(tr("%q is not a game number", n.Text))
		}
		t, err := time.ParseInLocation("2006-01-02 15:04", strings.TrimSpace(start.Text), m.Location())
		if err != nil {
			return errText(tr("%q is not a start time: write it as 1996-02-10 15:00", start.Text))
		}
		return c.giveFromDialog(c.arbiter(), match.GameSchedule{Game: num, Start: t}, nil)
	})
}

func (c *console) postponeDialog() {
	n := entryWith("")
	n.SetPlaceHolder(translate("next game"))
	reason := entryWith("")
	c.formDialog(translate("Postpone game"), translate("Postpone"), []*widget.FormItem{
		widget.NewFormItem(translate("Game"), n),
		widget.NewFormItem(translate("Reason"), reason),
	}, func() error {
		num, ok := atoiOr(n.Text, 0)
		if !ok {
			return errText(tr("%q is not a game number", n.Text))
		}
		return c.giveFromDialog(c.arbiter(), match.GamePostpone{Game: num, Reason: reason.Text}, nil)
	})
}

func sideChoice() (*widget.RadioGroup, func() clock.Side) {
	opts := []string{translate("White"), translate("Black")}
	r := widget.NewRadioGroup(opts, nil)
	r.Horizontal = true
	r.SetSelected(opts[0])
	return r, func() clock.Side {
		if r.Selected == opts[1] {
			return clock.Black
		}
		return clock.White
	}
}

func (c *console) adjustDialog() {
	side, get := sideChoice()
	// the clock that runs is the one most likely to be corrected; with the
	// clocks stopped, the side to move's
	if g := c.game(); g != nil && g.Live() {
		s := g.ToMove()
		if running, ok := g.Clock.Running(); ok {
			s = running
		}
		side.SetSelected(side.Options[s])
	}
	confirmed := "" // a change of more than a minute, once shown: given again, it is made
	corr := entryWith("")
	corr.SetPlaceHolder("+5m, -1m30s, =1:59:30")
	moves := entryWith("")
	moves.SetPlaceHolder(translate("unchanged"))
	reason := entryWith("")
	reads := widget.NewLabel("")
	var d dialog.Dialog
	showReading := c.adjustReading(reads, get, func() bool { return d != nil && slices.Contains(c.dialogs, d) })
	side.OnChanged = func(string) { showReading() }
	d = c.formDialog(translate("Adjust clock"), translate("Adjust"), []*widget.FormItem{
		widget.NewFormItem(translate("Clock"), side),
		widget.NewFormItem(translate("Reads now"), reads),
		widget.NewFormItem(translate("Correction"), corr),
		widget.NewFormItem(translate("Moves completed"), moves),
		widget.NewFormItem(translate("Reason"), reason),
	}, func() error {
		adj, err := service.ParseAdjustment(strings.TrimSpace(corr.Text))
		if err != nil {
			return err
		}
		if strings.TrimSpace(moves.Text) != "" {
			n, ok := atoiOr(moves.Text, 0)
			if !ok {
				return errText(tr("%q is not a number of moves", moves.Text))
			}
			adj.Moves = &n
		}
		// the clock runs on while the question stands: the same side and
		// correction given again is the answer
		key := fmt.Sprint(get(), strings.TrimSpace(corr.Text))
		if msg := c.largeCorrection(get(), adj); msg != "" && confirmed != key {
			confirmed = key
			return errText(msg)
		}
		return c.giveFromDialog(c.arbiter(), match.Adjust{Side: get(), Adjustment: adj, Reason: reason.Text}, nil)
	})
}

// adjustReading shows in reads what the clock of the side chosen (side)
// reads now, as the console's clock shows it, beside the correction the
// arbiter types: at once, and again each time its text changes while open
// reports the dialog open (one timer, as a clock view arms it). It returns
// the function that shows it now (the side chosen changed).
func (c *console) adjustReading(reads *widget.Label, side func() clock.Side, open func() bool) func() {
	gen, stop := 0, func() {}
	var show func()
	show = func() {
		gen++
		stop()
		g := c.game()
		if g == nil {
			reads.SetText("-:--:--")
			return
		}
		at := c.clockNow()
		txt, next := g.Clock.Display(side(), at, clock.DisplayOptions{})
		reads.SetText(txt)
		if next.IsZero() || !next.After(at) {
			return // the clock stands: its reading stays
		}
		mine := gen
		stop = c.after(next.Sub(at), func() {
			c.ui(func() {
				if mine == gen && open() {
					show()
				}
			})
		})
	}
	show()
	return show
}

// largeCorrection is the question a correction of side's clock by more
// than a minute asks first ("" for a smaller one): from what to what, by
// how much.
func (c *console) largeCorrection(side clock.Side, adj match.Adjustment) string {
	g := c.game()
	if g == nil || !g.Clock.Started() {
		return ""
	}
	now := g.Clock.Remaining(side, c.now())
	after := now + adj.D
	if adj.Set {
		after = adj.D
	}
	if d := after - now; d <= time.Minute && d >= -time.Minute {
		return ""
	}
	now = now.Truncate(time.Second) // as the clock shows it
	return tr("%s's clock goes from %s to %s (%s), a change of more than a minute: press Adjust again to make it.",
		translate(match.Colour(side)), clock.FormatReading(now), clock.FormatReading(after), clock.FormatCorrection(after-now))
}

func (c *console) resultDialog() {
	res := widget.NewSelect([]string{"1-0", "0-1", "1/2-1/2"}, nil)
	res.PlaceHolder = translate("(choose one)")
	reason := entryWith("")
	c.formDialog(translate("Result by the arbiter's decision"), translate("Record result"), []*widget.FormItem{
		widget.NewFormItem(translate("Result"), res),
		widget.NewFormItem(translate("Reason"), reason),
	}, func() error {
		if res.Selected == "" {
			return errText(translate("no result chosen: choose 1-0, 0-1 or 1/2-1/2"))
		}
		return c.giveFromDialog(c.arbiter(), match.Decide{Result: res.Selected, Reason: reason.Text}, nil)
	})
}

// incidentDialog logs an incident of any kind the match knows. Under the
// text it shows what the chosen kind takes besides (match.IncidentOptions):
// where work on the computer is done, a replacement's new person, the event
// an appeal concerns and an appeal decision's result.
func (c *console) incidentDialog() {
	// the kinds are shown in the console's language, recorded as the
	// record's words
	var kinds []string
	kindOf := map[string]string{}
	for _, k := range match.IncidentKinds() {
		kinds = append(kinds, translate(k))
		kindOf[translate(k)] = k
	}
	// in the order of their names in the console's language, as the
	// arbiter looks one up (German "Entscheidung" before "Notiz")
	slices.SortStableFunc(kinds, func(a, b string) int { return strings.Compare(alphabetKey(a), alphabetKey(b)) })
	shown := widget.NewSelect(kinds, nil)
	kind := &struct{ Selected string }{}
	rule := widget.NewLabel("")
	text := entryWith("")
	name := entryWith("")
	name.SetPlaceHolder(translate("the new person's name"))
	inHall, remote := translate("in the playing hall"), translate("from the control room (mirror terminal)")
	place := widget.NewRadioGroup([]string{inHall, remote}, nil)
	refers := entryWith("")
	refers.SetPlaceHolder(translate("number of the event it concerns (#N in the log)"))
	result := widget.NewSelect([]string{"1-0", "0-1", "1/2-1/2"}, nil)
	result.PlaceHolder = translate("new result (optional)")
	// an appeal is the player's (rule 19), recorded as his, never as the
	// arbiter's who enters it: the appeals board reads who appealed
	appellants := map[string]clock.Side{}
	var byNames []string
	for _, side := range []clock.Side{clock.White, clock.Black} {
		who := translate(match.Colour(side))
		if g := c.gameOrNext(); g != nil {
			who = tr("%s (%s)", g.Name(side), who)
		}
		appellants[who] = side
		byNames = append(byNames, who)
	}
	by := widget.NewRadioGroup(byNames, nil)
	byBox := container.NewVBox(widget.NewLabel(translate("Who appeals")), by)
	details := container.NewVBox()
	var d dialog.Dialog
	var asArb *widget.Check
	shown.OnChanged = func(k string) {
		k = kindOf[k]
		kind.Selected = k
		rule.SetText(ruleText(match.IncidentRule(k)))
		details.RemoveAll()
		if k == match.IncidentAppeal {
			details.Add(byBox)
			asArb.Hide() // the appellant acts, not the arbiter
		} else {
			asArb.Show()
		}
		for _, o := range match.IncidentOptions(k) {
			switch o {
			case "in-hall":
				details.Add(place)
			case "name":
				details.Add(name)
			case "refers":
				details.Add(refers)
			case "result":
				details.Add(result)
			}
		}
		details.Refresh()
		if d != nil {
			d.Resize(fyne.NewSize(560, 0))
			// the kind chosen (with the pointer), the text is typed next:
			// it went to nothing
			c.win.Canvas().Focus(text)
		}
	}
	shown.PlaceHolder = translate("(choose a kind)") // no kind is more likely than another
	asArb = widget.NewCheck(translate("as the arbiter (PIN)"), nil)
	asArb.SetChecked(c.mode == match.RoleArbiter)
	d = c.formDialog(translate("Log incident"), translate("Log"), []*widget.FormItem{
		widget.NewFormItem(translate("Kind"), container.NewVBox(shown, rule)),
		widget.NewFormItem(translate("Text"), text),
		widget.NewFormItem("", details),
		widget.NewFormItem("", asArb),
	}, func() error {
		if kind.Selected == "" {
			return errText(translate("no kind chosen: choose the kind of incident first"))
		}
		args := match.IncidentArgs{Text: text.Text}
		for _, o := range match.IncidentOptions(kind.Selected) {
			switch o {
			case "name":
				args.Name = strings.TrimSpace(name.Text)
			case "in-hall":
				args.InHall, args.Remote = place.Selected == inHall, place.Selected == remote
				if place.Selected == "" {
					return errText(translate("say where the work is done: in the playing hall or from the control room"))
				}
			case "refers":
				if strings.TrimSpace(refers.Text) != "" {
					n, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(refers.Text), "#"), 10, 64)
					if err != nil || n < 1 {
						return errText(tr("%q is not an event number: give the number shown as #N in the incident log", refers.Text))
					}
					args.Refers = n
				}
			case "result":
				args.Result = result.Selected
			}
		}
		cmd := match.LogIncident{Incident: kind.Selected, IncidentArgs: args}
		if kind.Selected == match.IncidentAppeal {
			side, ok := appellants[by.Selected]
			if !ok {
				return errText(translate("say who appeals: choose the player"))
			}
			actor := match.Actor{Role: roleOf(side)}
			if m := c.state().Match; m != nil && m.Computer != "" && !c.humanSide(side) {
				actor.Role = match.RoleOperator // the computer's appeal is its operator's, who speaks for it (rule 8)
			} else if err := c.atArbitersConsole(side, "appeal"); err != nil {
				return err
			}
			return c.giveFromDialog(actor, cmd, c.logged)
		}
		actor := match.Actor{Role: match.RoleOperator}
		if c.mode == match.RoleArbiter || asArb.Checked {
			if c.mode != match.RoleArbiter {
				c.asArbiter(func() {
					c.give(c.arbiter(), c.now(), cmd, func(res match.Result, err error) {
						if err != nil {
							c.showError(err)
							return
						}
						c.logged(res)
					})
				})
				return nil
			}
			actor = c.arbiter()
		}
		return c.giveFromDialog(actor, cmd, c.logged)
	})
	// the fields a kind adds (the new person, the event's number) submit
	// the dialog with Enter, as the text does
	name.OnSubmitted, refers.OnSubmitted = text.OnSubmitted, text.OnSubmitted
}

// clockKeysDialog sets the two clock keys and the call key.
func (c *console) clockKeysDialog() {
	var names []string
	for _, k := range keyChoices {
		names = append(names, string(k))
	}
	left := widget.NewSelect(names, nil)
	left.SetSelected(string(c.keyLeft))
	right := widget.NewSelect(names, nil)
	right.SetSelected(string(c.keyRight))
	call := widget.NewSelect(names, nil)
	call.SetSelected(string(c.keyCall))
	stop := widget.NewSelect(names, nil)
	stop.SetSelected(string(c.keyStop))
	presses := widget.NewCheck(translate("Typing first: entering a move presses the clock"), nil)
	presses.SetChecked(c.movePresses)
	c.formDialog(translate("Clock keys"), translate("OK"), []*widget.FormItem{
		widget.NewFormItem(translate("Left clock key"), left),
		widget.NewFormItem(translate("Right clock key"), right),
		widget.NewFormItem(translate("Stop clocks, call arbiter"), call),
		widget.NewFormItem(translate("Arbiter stops the clocks (6.12a)"), stop),
		widget.NewFormItem("", presses),
	}, func() error {
		keys := []string{left.Selected, right.Selected, call.Selected, stop.Selected}
		for i := range keys {
			for j := i + 1; j < len(keys); j++ {
				if keys[i] == keys[j] {
					return errText(translate("two functions share one key: choose four different keys"))
				}
			}
		}
		c.keyLeft, c.keyRight, c.keyCall, c.keyStop = fyne.KeyName(left.Selected), fyne.KeyName(right.Selected), fyne.KeyName(call.Selected), fyne.KeyName(stop.Selected)
		c.movePresses = presses.Checked
		c.saveSettings()
		c.refresh()
		return nil
	})
}

// languageVars are the environment variables the dictionary's language is
// taken from; systemLanguage holds them as the console was started with
// (the language "System" returns to them).
var (
	languageVars   = []string{"LANGUAGE", "LC_ALL", "LANG"}
	systemLanguage = func() map[string]*string {
		m := map[string]*string{}
		for _, k := range languageVars {
			if v, ok := os.LookupEnv(k); ok {
				m[k] = &v
			}
		}
		return m
	}()
)

// setLanguage switches the dictionary to code ("en", "de"; "" the system's).
func setLanguage(code string) {
	for _, k := range languageVars {
		switch v := systemLanguage[k]; {
		case code != "":
			os.Setenv(k, code)
		case v != nil:
			os.Setenv(k, *v)
		default:
			os.Unsetenv(k)
		}
	}
	if err := loadTranslations(); err != nil { // reloads the localizer
		fyne.LogError("gui: reload translations", err)
	}
}

// relocalize draws the whole console again in the dictionary's language:
// the window's content, the menus and the audience display.
func (c *console) relocalize() {
	for _, cv := range c.clocks {
		cv.disarm()
	}
	typed := c.moveEntry.Text
	c.lastLog = nil
	c.build()
	c.win.SetMainMenu(c.mainMenu())
	c.moveEntry.SetText(typed)
	reopen := c.audience != nil
	if reopen { // laid out again in its window, which stays open
		c.audience.disarm()
		c.audience = nil
	}
	c.refresh()
	if reopen {
		c.toggleAudience()
	}
	c.focusMove()
}

// languageDialog chooses the language; it applies at once.
func (c *console) languageDialog() {
	opts := []string{translate("System"), "English", "Deutsch"}
	codes := []string{"", "en", "de"}
	sel := widget.NewSelect(opts, nil)
	cur := c.fa.Preferences().String("language")
	for i, code := range codes {
		if code == cur {
			sel.SetSelectedIndex(i)
		}
	}
	c.formDialog(translate("Language"), translate("OK"), []*widget.FormItem{widget.NewFormItem(translate("Language"), sel)}, func() error {
		i := sel.SelectedIndex()
		if i < 0 {
			return nil
		}
		c.fa.Preferences().SetString("language", codes[i])
		c.afterDialog(func() {
			setLanguage(codes[i])
			c.relocalize()
		})
		return nil
	})
}

// shortcutLines lists every key and shortcut (Help → Keys and shortcuts).
func (c *console) shortcutLines() []string {
	lines := []string{
		tr("%s: press the left clock", c.keyLeft),
		tr("%s: press the right clock", c.keyRight),
		tr("%s: stop both clocks and call the arbiter (6.12b)", c.keyCall),
		tr("%s: the arbiter stops the clocks (6.12a)", c.keyStop),
		translate("Enter in the move field: record the move"),
	}
	var rest []string
	for _, a := range actions {
		if s, ok := shortcuts[a.id]; ok {
			rest = append(rest, fmt.Sprintf("%-16s %s → %s", shortcutText(s), translate(a.menu), translate(a.label)))
		}
	}
	sort.Strings(rest)
	return append(lines, rest...)
}

func (c *console) shortcutsDialog() {
	l := widget.NewLabel(strings.Join(c.shortcutLines(), "\n"))
	l.TextStyle.Monospace = true
	d := dialog.NewCustom(translate("Keys and shortcuts"), translate("Close"), container.NewVScroll(l), c.win)
	d.Resize(fyne.NewSize(640, 560))
	c.showDialog(d)
}

func (c *console) about() {
	c.info(translate("About Arbiter"), translate("Arbiter officiates a chess match by the FIDE Laws (Article 6, the chess clock). Every action is recorded in an append-only, hash-chained log in the database shown in the window."))
}

// quit closes the console. With a clock running it asks first; the clock is
// never stopped by quitting (the record keeps time; reopening resumes it).
func (c *console) quit() {
	closeNow := c.closeNow
	if g := c.game(); g != nil && g.Live() {
		if _, running := g.Clock.Running(); running {
			d := c.newQuestion(translate("Quit while a clock runs?"),
				translate("A clock is running. Quitting does not stop it: the record keeps time and reopening the console resumes it. Quit?"),
				func(ok bool) {
					c.onEnter = nil
					if ok {
						closeNow()
					}
				})
			d.SetConfirmText(translate("Quit"))
			c.win.Canvas().Unfocus()
			c.onEnter = d.Confirm
			c.showDialog(d)
			return
		}
	}
	closeNow()
}

// closeNow closes the console without asking: the audience display's
// clocks stop ticking, the heartbeat says the console closed (so its next
// start notes no crash: match.App.Closing) and the app quits (quitApp),
// which closes the record (Run). No window is closed one by one: the
// driver's end takes them all with it (quitApp says why).
func (c *console) closeNow() {
	if c.audience != nil {
		c.audience.disarm()
	}
	c.markClosed()
	c.cfg.quit()
}

// quitApp is how the console ends the app: through its driver, which ends
// GLFW with the windows open, never fa.Quit. Fyne 2.7.1's App.Quit closes
// every window first (Window.Close: closing set, view() nil from then on)
// and the driver's loop destroys them only after its next poll of GLFW's
// events; a pointer move in that poll (or after the quit key in the same
// one) reaches processMouseMoved, and where the cursor's shape changes
// under the pointer (a game's label in the games row, the hand) it calls
// view().SetInputMode on nil: the process dies at quit (SIGSEGV, exit 2).
// The driver's Quit only ends its loop, which terminates GLFW (every
// window destroyed, no callback after it); a poll before that finds the
// windows open and handles the move as any other. gui-check's quit race
// (scripts/gui-check.sh) crashed 10 of 20 quits with fa.Quit.
func quitApp(fa fyne.App) func() {
	return func() { fa.Driver().Quit() }
}

// markClosed writes the heartbeat's "closed" once (match.App.Closing) and
// stops keepUp's beats from writing over it. Run calls it too when Fyne's
// app stopped by itself: Fyne's driver quits the app at SIGINT and SIGTERM
// as well, and when it came first the console ended with the heartbeat of
// a running console (gui-check's SIGINT, one run in two).
func (c *console) markClosed() {
	c.beatMu.Lock()
	defer c.beatMu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	_ = c.core.Closing(c.ctx, c.now())
}

// closeWhenDone closes the console as its window's close does, without
// the question a running clock asks (the clock runs on in the record),
// when done is closed: Run's context, which main cancels at SIGINT or
// SIGTERM (Ctrl+C in the terminal of 'make run'), where the process died
// with the signal and its next start said the console was gone (crashed
// or killed). It returns when stop is closed (the console closed).
func (c *console) closeWhenDone(done, stop <-chan struct{}) {
	select {
	case <-done:
		c.ui(c.closeNow)
	case <-stop:
	}
}

// A note or a question of the console is Fyne's custom dialog with the
// text in a centred, wrapped label, where dialog.NewInformation and
// dialog.NewConfirm drew their icon (theme.InfoIcon, QuestionIcon) at the
// box's top-right corner, reaching over its edge (Fyne's layout moves it a
// padding out of the box) and under the title's end: only a custom dialog
// can be without it. The width is the text dialog's own rule (Fyne's
// createBeforeShowHook): the text's unwrapped width, at most 600 and 90 %
// of the window's.
const noteMaxWidth = 600

// dialogPadWidth is the width a Fyne dialog leaves beside its content
// (dialog's padWidth).
const dialogPadWidth = 32

// noteLabel is a note's or a question's text as a text dialog shows it.
func noteLabel(msg string) *widget.Label {
	return &widget.Label{Text: msg, Alignment: fyne.TextAlignCenter, Wrapping: fyne.TextWrapWord}
}

// fitNote gives d the width a text dialog of msg has in c's window, and
// the height its content needs at that width.
func (c *console) fitNote(d dialog.Dialog, msg string) {
	nowrap := widget.NewLabel(msg).MinSize().Width + dialogPadWidth + 2*theme.Padding()
	w := min(nowrap, noteMaxWidth)
	if cw := c.win.Canvas().Size().Width; cw > 0 {
		w = min(w, cw*0.9)
	}
	d.Resize(fyne.NewSize(w, 0)) // the height grows to the content's
}

// newNote is a note with an OK button and no icon (c.info).
func (c *console) newNote(title, msg string) *dialog.CustomDialog {
	d := dialog.NewCustom(title, translate("OK"), noteLabel(msg), c.win)
	c.fitNote(d, msg)
	return d
}

// newQuestion is a question answered Yes or No, with no icon, as
// dialog.NewConfirm asks it.
func (c *console) newQuestion(title, msg string, callback func(bool)) *dialog.ConfirmDialog {
	d := dialog.NewCustomConfirm(title, translate("Yes"), translate("No"), noteLabel(msg), callback, c.win)
	c.fitNote(d, msg)
	return d
}

func layoutSpacer() fyne.CanvasObject { return layout.NewSpacer() }

func (c *console) forfeitDialog() {
	side, get := sideChoice()
	reason := entryWith("")
	c.formDialog(translate("Forfeit"), translate("Forfeit"), []*widget.FormItem{
		widget.NewFormItem(translate("Forfeiting side"), side),
		widget.NewFormItem(translate("Reason"), reason),
	}, func() error {
		return c.giveFromDialog(c.arbiter(), match.Forfeit{Side: get(), Reason: reason.Text}, nil)
	})
}

func (c *console) amendDialog() {
	ply := entryWith("")
	ply.SetPlaceHolder(translate("1 = White's first move"))
	mv := entryWith("")
	reason := entryWith("")
	c.formDialog(translate("Amend a move"), translate("Amend"), []*widget.FormItem{
		widget.NewFormItem(translate("Ply"), ply),
		widget.NewFormItem(translate("Move"), mv),
		widget.NewFormItem(translate("Reason"), reason),
	}, func() error {
		n, ok := atoiOr(ply.Text, 0)
		if !ok || n < 1 {
			return errText(tr("%q is not a ply number", ply.Text))
		}
		return c.giveFromDialog(c.arbiter(), match.Amend{Ply: n, Input: strings.TrimSpace(mv.Text), Reason: reason.Text}, nil)
	})
}

// claimDialog records a draw claim (repetition or fifty moves) by the side
// to move, now or with an intended move.
func (c *console) claimDialog() {
	// shown in the console's language, recorded as the command's words
	claims := map[string]string{translate("threefold repetition (9.2)"): match.ClaimRepetition, translate("fifty moves (9.3)"): match.ClaimFiftyMoves}
	kind := widget.NewSelect([]string{translate("threefold repetition (9.2)"), translate("fifty moves (9.3)")}, nil)
	kind.SetSelectedIndex(0)
	intended := entryWith("")
	intended.SetPlaceHolder(translate("optional"))
	c.formDialog(translate("Claim a draw"), translate("Claim"), []*widget.FormItem{
		widget.NewFormItem(translate("Kind"), kind),
		widget.NewFormItem(translate("Intended move"), intended),
	}, func() error {
		g := c.game()
		if g == nil {
			return errText(translate("no game is in progress"))
		}
		return c.giveFromDialog(c.actorFor(g.ToMove()), match.Claim{Draw: claims[kind.Selected], Move: strings.TrimSpace(intended.Text)}, c.claimed)
	})
}

// ruleText is a rule reference of the match regulations ("rule 19",
// "rules 6, 7, 12") in the console's language; an article of the Laws
// ("6.12b") is a number in every language.
func ruleText(r string) string {
	if n, ok := strings.CutPrefix(r, "rules "); ok {
		return tr("rules %s", n)
	}
	if n, ok := strings.CutPrefix(r, "rule "); ok {
		return tr("rule %s", n)
	}
	return r
}

// alphabetKey is a name as a dictionary sorts it: case and the German
// umlauts folded ("Uhr ersetzt", "Übergabe" and "technische Störung" by
// their letters).
func alphabetKey(s string) string {
	return strings.NewReplacer("ä", "a", "ö", "o", "ü", "u", "ß", "ss").Replace(strings.ToLower(s))
}
