package gui

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"arbiter/engine"
	"arbiter/match"
	"arbiter/service"
)

// The computer's equipment at the console (docs/engine.md, docs/console.md):
//
//   - in operator mode, the engine's move for the position is said large
//     under the clocks ("Deep Blue plays 23.Nf3 — make it on the board, then
//     press") and offered in the move field (refreshEngine);
//   - a move of the computer that is not the engine's is refused, naming
//     both; the console then asks whether to record it as not the engine's,
//     with a reason (askNotEngine);
//   - the human's draw offer is shown beside the engine's latest
//     evaluation: the operator answers it as always (rules 8, 14);
//   - Operator → Engine… shows the bridge's status (its status file, re-read
//     twice a second while open) and starts or stops a bridge run by the
//     console itself, in process, as 'engine run' would run it.

// engineEvery is how often the open Engine dialog re-reads the status.
const engineEvery = 500 * time.Millisecond

// engineLine is the large line under the clocks.
func newEngineLine() *widget.Label {
	l := widget.NewLabel("")
	l.SizeName = theme.SizeNameSubHeadingText
	l.TextStyle = fyne.TextStyle{Bold: true}
	l.Importance = widget.HighImportance
	l.Wrapping = fyne.TextWrapWord
	l.Hide()
	return l
}

// refreshEngine says, in operator mode, the engine's move for the position
// on the computer's turn, offering it in the move field, or the human's
// draw offer beside the engine's evaluation; nothing otherwise.
func (c *console) refreshEngine(g *match.Game) {
	if c.engineLine == nil {
		return
	}
	txt, offer := c.engineText(g)
	if txt == "" {
		c.engineLine.Hide()
	} else {
		c.engineLine.SetText(txt)
		c.engineLine.Show()
	}
	// the offer goes into an empty field (or replaces the previous offer,
	// never what the operator typed); once made, a stale offer goes
	switch {
	case offer != "" && offer != c.engineOffered && (c.moveEntry.Text == "" || c.moveEntry.Text == c.engineOffered):
		c.moveEntry.SetText(offer)
		c.engineOffered = offer
	case offer == "" && c.engineOffered != "":
		if c.moveEntry.Text == c.engineOffered {
			c.moveEntry.SetText("")
		}
		c.engineOffered = ""
	}
}

// engineText is the engine line's text and the move to offer ("" none):
// the engine's move on the computer's turn, the human's draw offer beside
// the engine's evaluation, and the bridge's suggestion to resign (rule
// 14: the operator decides; the bridge never resigns).
func (c *console) engineText(g *match.Game) (string, string) {
	m := c.state().Match
	if c.mode != match.RoleOperator || m == nil || m.Computer == "" || g == nil || !g.Live() {
		return "", ""
	}
	side, ok := g.Side(m.Computer)
	if !ok {
		return "", ""
	}
	s, ran, _ := engine.ReadStatus(c.recordPath(), time.Now())
	serves := ran && s.State != engine.StateStopped && s.Game == g.Number
	var lines []string
	offer := ""
	if e := g.EngineFor(); e != nil && g.ToMove() == side {
		lines, offer = append(lines, tr("%s plays %s — make it on the board, then press", m.Computer, e.Label())), e.SAN
	} else if g.Offer != nil && g.Offer.By != side {
		if ev := engineEval(g, s, serves); ev != "" {
			lines = append(lines, tr("%s offers a draw. The engine's evaluation: %s. Accept (Ctrl+Shift+D) or decline (Ctrl+Shift+E) for %s (rule 14).", m.Human(), ev, m.Computer))
		}
	}
	if serves && s.SuggestResign && s.ResignBelow != nil {
		lines = append(lines, tr("The engine's evaluation stayed at or below %s for %d of its moves in a row: you may resign for %s (rule 14).", fmt.Sprintf("%+.2f", *s.ResignBelow), s.ResignMoves, m.Computer))
	}
	return strings.Join(lines, "\n"), offer
}

// engineEval is the engine's latest evaluation, from the computer's side
// ("+0.34", "#3", "#-3"), with the depth: from the running bridge when it
// serves this game (serves), else from the engine's last move recorded.
func engineEval(g *match.Game, s engine.Status, serves bool) string {
	ev, depth := "", 0
	if g.Engine != nil {
		ev, depth = g.Engine.Eval, g.Engine.Depth
	}
	if serves && s.Eval != "" {
		ev, depth = s.Eval, s.Depth
	}
	shown := evalText(ev)
	if shown != "" && depth > 0 {
		return tr("%s (depth %d)", shown, depth)
	}
	return shown
}

// evalText is a UCI score ("cp 34", "mate -3", from the engine's side) as
// players write it: "+0.34", "#-3"; "" for none.
func evalText(ev string) string {
	f := strings.Fields(ev)
	if len(f) != 2 {
		return ""
	}
	n, err := strconv.Atoi(f[1])
	switch {
	case err != nil:
		return ""
	case f[0] == "mate":
		return "#" + f[1]
	}
	return fmt.Sprintf("%+.2f", float64(n)/100)
}

// refusalCode is the code of a refusal, here or from the authority.
func refusalCode(err error) match.Code {
	var refused *service.Refused
	if errors.As(err, &refused) {
		return match.ErrorCode(refused.Refusal)
	}
	return match.ErrorCode(err)
}

// askNotEngine offers, when a move of the computer was refused as not the
// engine's (or given while the match's bridge has not answered), to record
// it as not the engine's with a reason (rules 9, 10: an incident says so).
// The refusal itself stays under the move field.
func (c *console) askNotEngine(actor match.Actor, input string, pressed bool, err error) {
	if code := refusalCode(err); code != match.CodeNotTheEnginesMove && code != match.CodeEngineNotAnswered {
		return
	}
	reason := newFormEntry(false)
	reason.SetPlaceHolder(translate("why the move on the board is not the engine's"))
	items := []*widget.FormItem{widget.NewFormItem(translate("Reason"), reason)}
	c.notEngine = c.formDialog(translate("Not the engine's move"), translate("Record it as not the engine's"), items, func() error {
		return c.giveFromDialog(actor, match.Move{Input: input, Pressed: pressed, NotEngine: true, Reason: strings.TrimSpace(reason.Text)}, func(res match.Result) {
			c.moved(res, nil)
		})
	})
}

// engineRun is a bridge this console runs.
type engineRun struct {
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

// engineView is the Engine dialog. It holds no console: it shows the lines
// it is given, and tells onStart and onStop when those are tapped.
type engineView struct {
	d           dialog.Dialog
	box         *fyne.Container
	cmd         *formEntry
	options     *formEntry
	resign      *formEntry
	takeOver    *formEntry // the reason for taking over from a gone bridge (engine run --take-over)
	play        *widget.Check
	ponder      *widget.Check
	start, stop *widget.Button
	lines       []string
}

func newEngineView(win fyne.Window, cmd, options, resign string, onStart, onStop, onClose func()) *engineView {
	v := &engineView{box: container.NewVBox(), cmd: entryWith(cmd), options: entryWith(options), resign: entryWith(resign), takeOver: entryWith("")}
	v.takeOver.SetPlaceHolder(translate("only if the bridge the record names is gone: why"))
	v.options.SetPlaceHolder("Threads=1 Hash=64")
	v.resign.SetPlaceHolder(translate("pawns, e.g. -5 (empty: never)"))
	v.play = widget.NewCheck(translate("Make the engine's moves (an unattended operator's station)"), nil)
	v.ponder = widget.NewCheck(translate("Think on the human's time (ponder)"), nil)
	v.start = widget.NewButton(translate("Start the engine"), onStart)
	v.stop = widget.NewButton(translate("Stop the engine"), onStop)
	form := widget.NewForm(widget.NewFormItem(translate("Engine's command"), v.cmd), widget.NewFormItem(translate("UCI options"), v.options),
		widget.NewFormItem(translate("Suggest resigning at or below"), v.resign), widget.NewFormItem(translate("Take over from a gone bridge"), v.takeOver))
	controls := container.NewVBox(form, v.play, v.ponder, container.NewHBox(v.start, v.stop))
	content := container.NewBorder(nil, controls, nil, nil, container.NewVScroll(v.box))
	v.d = dialog.NewCustom(translate("Engine"), translate("Close"), content, win)
	v.d.Resize(fyne.NewSize(680, 640))
	v.d.SetOnClosed(onClose)
	return v
}

// show shows lines; Start is enabled when no bridge runs, Stop when this
// console's runs.
func (v *engineView) show(lines []string, canStart, canStop bool) {
	enable(v.start, canStart)
	enable(v.stop, canStop)
	showLines(v.box, &v.lines, lines)
}

// showLines shows lines in box, a wrapping label each, unless they are the
// lines shown already (*shown).
func showLines(box *fyne.Container, shown *[]string, lines []string) {
	if slices.Equal(lines, *shown) {
		return
	}
	*shown = lines
	box.RemoveAll()
	for _, l := range lines {
		lb := widget.NewLabel(l)
		lb.Wrapping = fyne.TextWrapWord
		box.Add(lb)
	}
	box.Refresh()
}

// engineLines is what the Engine dialog shows of the bridge's status.
func engineLines(s engine.Status, ran bool) []string {
	if !ran {
		return []string{translate("No engine runs for this record. Give the engine's command (any UCI engine, e.g. /usr/games/stockfish) and start it here, or run 'arbiter --db FILE engine run --cmd PROGRAM' (docs/engine.md).")}
	}
	name := s.Engine
	if name == "" {
		name = s.Cmd
	}
	lines := []string{tr("Engine: %s", name), tr("State: %s", translate(strings.ReplaceAll(s.State, "-", " ")))}
	if s.PID > 0 {
		lines = append(lines, tr("Process %d, bridge process %d", s.PID, s.BridgePID))
	}
	lines = append(lines, tr("Game %d, ply %d", s.Game, s.Ply))
	// While the engine searches its evaluation is the search's and
	// bestmove (if any) answered an earlier position: shown as "Last move"
	// beside the ply just relayed, an operator could take it for the
	// answer (as engine status says it: cli.EngineStatusText).
	switch searching := s.State == engine.StateThinking || s.State == engine.StatePondering; {
	case searching && s.Eval != "":
		lines = append(lines, tr("Searching: evaluation %s, depth %d so far", orDash(evalText(s.Eval)), s.Depth))
	case !searching && s.BestMove != "":
		lines = append(lines, tr("Last move %s, evaluation %s, depth %d", s.BestMove, orDash(evalText(s.Eval)), s.Depth))
	}
	if t := s.Sent; t != nil {
		mtg := translate("no move count")
		if t.MovesToGo != nil {
			mtg = tr("%d moves to the control", *t.MovesToGo)
		}
		lines = append(lines, tr("Clocks told at %s: White %d ms, Black %d ms, %s", t.At, t.WTime, t.BTime, mtg))
	}
	lines = append(lines, tr("Restarts in this game: %d of %d", s.Restarts, s.MaxRestarts))
	if s.ResignBelow != nil {
		below := fmt.Sprintf("%+.2f", *s.ResignBelow)
		if s.SuggestResign {
			lines = append(lines, tr("The engine's evaluation stayed at or below %s for %d of its moves in a row: you may resign for the computer (rule 14).", below, s.ResignMoves))
		} else {
			lines = append(lines, tr("Resigning is suggested after %d of the engine's moves in a row at or below %s.", s.ResignMoves, below))
		}
	}
	if s.Fault != "" {
		lines = append(lines, tr("Last fault: %s", s.Fault))
	}
	if s.Note != "" {
		lines = append(lines, s.Note)
	}
	return lines
}

// engineDialog shows Operator → Engine….
func (c *console) engineDialog() {
	p := c.fa.Preferences()
	var v *engineView
	stop := func() {}
	v = newEngineView(c.win, p.StringWithFallback("engineCmd", "/usr/games/stockfish"), p.StringWithFallback("engineOptions", "Threads=1 Hash=64"), p.StringWithFallback("engineResignBelow", ""),
		func() { c.startEngine(v) }, c.stopEngine, func() {
			stop()
			if c.engineDlg == v {
				c.engineDlg = nil
			}
		})
	v.play.SetChecked(p.BoolWithFallback("enginePlay", false))
	v.ponder.SetChecked(p.BoolWithFallback("enginePonder", false))
	var arm func()
	arm = func() {
		stop = c.after(engineEvery, func() {
			c.ui(func() {
				if c.engineDlg == v {
					c.refreshEngineDialog()
					arm()
				}
			})
		})
	}
	c.engineDlg = v
	c.refreshEngineDialog()
	c.showDialog(v.d)
	arm()
}

func (c *console) refreshEngineDialog() {
	v := c.engineDlg
	if v == nil {
		return
	}
	s, ran, err := engine.ReadStatus(c.recordPath(), time.Now())
	lines := engineLines(s, ran)
	if err != nil {
		lines = []string{sentence(err)}
	}
	if r := c.engine; r != nil && r.err != nil {
		lines = append(lines, tr("The engine bridge stopped: %s", sentence(r.err)))
	}
	running := c.engine != nil && c.engine.err == nil
	if !running && s.State != engine.StateStopped && s.BridgePID > 0 {
		lines = append(lines, tr("The bridge runs in process %d: stop it there.", s.BridgePID))
	}
	if b := c.core.State().Bridge; b != nil && !running && (s.State == engine.StateStopped || s.BridgePID != b.PID) {
		// one engine per match: the bridge the record names runs elsewhere
		// (or is gone: taken over with a reason)
		lines = append(lines, tr("The record knows the bridge %s at %s (process %d) plays the computer: one engine per match. If it is gone, give the reason under \"Take over from a gone bridge\" and start.",
			b.Bridge, translate(fmt.Sprint(b.Where())), b.PID))
	}
	v.show(lines, !running && s.State == engine.StateStopped, running)
}

// startEngine starts the bridge in this console, as the operator (with the
// PIN the console holds on one machine; on the operator's laptop with the
// key its invitation brought), on the console's time source.
func (c *console) startEngine(v *engineView) {
	cmd := strings.TrimSpace(v.cmd.Text)
	opts := engine.Options{Cmd: cmd, Options: strings.Fields(v.options.Text), Play: v.play.Checked, Ponder: v.ponder.Checked,
		Restarts: engine.DefaultRestarts, Hang: engine.DefaultHang, TakeOver: strings.TrimSpace(v.takeOver.Text)}
	if r := strings.TrimSpace(v.resign.Text); r != "" {
		below, err := strconv.ParseFloat(r, 64)
		if err != nil || math.IsNaN(below) || math.IsInf(below, 0) {
			c.showError(errors.New(tr("%q is not an evaluation in pawns: give e.g. -5 or -3.5, or leave it empty", r)))
			return
		}
		opts.ResignBelow, opts.ResignMoves = below, engine.DefaultResignMoves
	}
	p := c.fa.Preferences()
	p.SetString("engineResignBelow", v.resign.Text)
	p.SetString("engineCmd", cmd)
	p.SetString("engineOptions", v.options.Text)
	p.SetBool("enginePlay", opts.Play)
	p.SetBool("enginePonder", opts.Ponder)
	ctx, cancel := context.WithCancel(c.ctx)
	actor := c.cmdAs(match.Actor{Role: match.RoleOperator}).Actor
	rec, err := engine.Open(ctx, c.recordPath(), actor, c.now)
	if err != nil {
		cancel()
		c.showError(err)
		return
	}
	r := &engineRun{cancel: cancel, done: make(chan struct{})}
	opts.Changed = func(recorded bool) { c.ui(func() { c.engineChanged(recorded) }) }
	c.engine = r
	go func() {
		err := engine.Run(ctx, rec, opts)
		rec.Close()
		close(r.done)
		c.ui(func() {
			r.err = err
			if err == nil && c.engine == r {
				c.engine = nil
			}
			c.refreshEngineDialog()
			if err != nil {
				c.showError(err)
			}
		})
	}()
	c.refreshEngineDialog()
}

// engineChanged takes what this console's bridge changed: after its
// command the events appended since the console's state (Refresh reads
// those alone, and redraws when there are some); after a status write
// only the engine line, from the status file: the record is not read.
func (c *console) engineChanged(recorded bool) {
	if !recorded {
		c.refreshEngine(c.game())
		return
	}
	if err := c.core.Refresh(c.ctx); err != nil {
		c.showError(err)
	}
}

// stopEngine stops this console's bridge (the engine is told to quit).
func (c *console) stopEngine() {
	r := c.engine
	if r == nil {
		return
	}
	c.engine = nil
	r.cancel()
	c.refreshEngineDialog()
}

// closeEngine stops this console's bridge as the console closes, and
// waits for it a little.
func (c *console) closeEngine() {
	r := c.engine
	if r == nil {
		return
	}
	r.cancel()
	select {
	case <-r.done:
	case <-time.After(3 * time.Second):
	}
}
