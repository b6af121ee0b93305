package gui

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/notnil/chess"

	"arbiter/match"
	"arbiter/store"
)

// eventCount is the number of events in the record.
func (h *harness) eventCount() int {
	h.t.Helper()
	evs, err := h.core.DB().EventsAfter(h.ctx, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	return len(evs)
}

// submitPath types path into the focused path field of the open dialog and
// presses Enter.
func (h *harness) submitPath(path string) {
	h.t.Helper()
	e, ok := h.c.win.Canvas().Focused().(interface {
		SetText(string)
		TypedKey(*fyne.KeyEvent)
	})
	if !ok {
		h.t.Fatalf("no path field has the focus: %T", h.c.win.Canvas().Focused())
	}
	e.SetText(path)
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
}

func TestExportsWriteFilesAndNoEvent(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	for _, mv := range []string{"e4", "c5", "Nf3"} {
		h.ft.advance(3 * time.Second)
		h.typeMove(mv)
	}
	before := h.eventCount()
	dir := t.TempDir()

	t.Run("Export PGN writes the match with clock comments", func(t *testing.T) {
		path := filepath.Join(dir, "match.pgn")
		h.c.do(actExportPGN)
		h.submitPath(path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("no PGN written (%s): %v", topDialogTexts(h.c), err)
		}
		for _, want := range []string{`[White "Kasparov, Garry"]`, "1. e4", "c5", "Nf3", "[%clk"} {
			if !bytes.Contains(b, []byte(want)) {
				t.Errorf("PGN lacks %q:\n%s", want, b)
			}
		}
	})
	t.Run("Export PDF writes a PDF and names the fingerprint", func(t *testing.T) {
		path := filepath.Join(dir, "report.pdf")
		h.c.do(actExportPDF)
		h.submitPath(path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("no PDF written (%s): %v", topDialogTexts(h.c), err)
		}
		if !bytes.HasPrefix(b, []byte("%PDF-")) {
			t.Errorf("%s is not a PDF: %q", path, b[:min(len(b), 16)])
		}
		rep, err := h.core.DB().Verify(h.ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(topDialogTexts(h.c), match.HexBlocks(rep.Head)) {
			t.Errorf("the note does not give the fingerprint %s in blocks of eight: %q", rep.Head, topDialogTexts(h.c))
		}
	})
	t.Run("an export never overwrites the database", func(t *testing.T) {
		if err := h.c.exportPGN(h.dbPath); err == nil || !strings.Contains(err.Error(), "database itself") {
			t.Errorf("exporting onto the database: %v", err)
		}
		if _, _, err := h.c.exportPDF(h.dbPath, "a4", 0); err == nil {
			t.Error("a PDF was written over the database")
		}
	})
	t.Run("Verify the record shows the head", func(t *testing.T) {
		h.c.do(actVerify)
		if got := topDialogTexts(h.c); !strings.Contains(got, "the chain is intact") {
			t.Errorf("verify says %q", got)
		}
	})
	t.Run("exporting writes no event", func(t *testing.T) {
		if n := h.eventCount(); n != before {
			t.Errorf("%d events after the exports, want %d", n, before)
		}
	})
	t.Run("Back up the record copies it and refuses an existing file", func(t *testing.T) {
		path := filepath.Join(dir, "copy.db")
		h.c.do(actBackup)
		h.submitPath(path)
		cp, err := store.OpenReadOnly(h.ctx, path)
		if err != nil {
			t.Fatalf("no backup: %v (%s)", err, topDialogTexts(h.c))
		}
		defer cp.Close()
		if rep, err := cp.Verify(h.ctx, ""); err != nil || !rep.OK || rep.Events != int64(before) {
			t.Errorf("backup verifies %+v %v, want %d events", rep, err, before)
		}
		if err := h.c.core.DB().Backup(h.ctx, path); !errors.Is(err, store.ErrExists) {
			t.Errorf("a second backup to the same file: %v", err)
		}
	})
}

func TestWriteProblems(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"a full disk is a write problem", fmt.Errorf("store: update: commit: %w", store.ErrDiskFull), "disk is full"},
		{"a read-only file is a write problem", fmt.Errorf("store: update x.db: %w", store.ErrReadOnly), "read-only"},
		{"a refusal is not", errText("no game is in progress"), ""},
		{"no error is not", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := writeProblem(tt.err)
			if ok != (tt.want != "") || !strings.Contains(got, tt.want) {
				t.Errorf("writeProblem(%v) = %q, %v; want %q", tt.err, got, ok, tt.want)
			}
		})
	}
}

// clockTicks advances the fake time by whole seconds and checks that the
// running clock's text changes every second.
func clockTicks(t *testing.T, h *harness, c *console, n int) {
	t.Helper()
	v := c.clocks[0]
	for i := 0; i < n; i++ {
		before := v.time.Text
		h.ft.advance(time.Second)
		if v.time.Text == before {
			t.Fatalf("the running clock stood still at %s", before)
		}
	}
}

func TestRecordCannotBeWritten(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.ft.advance(2 * time.Second)

	t.Run("a full disk shows the banner and the clocks keep running", func(t *testing.T) {
		h.c.noteWriteError(fmt.Errorf("match: move: %w", fmt.Errorf("store: update: commit: %w", store.ErrDiskFull)))
		if !h.c.banner.obj.Visible() || !strings.Contains(h.c.banner.text.Text, "disk is full") {
			t.Fatalf("banner %v %q", h.c.banner.obj.Visible(), h.c.banner.text.Text)
		}
		clockTicks(t, h, h.c, 3)
		h.golden("diskfull.xml")
	})
	t.Run("the next event written hides the banner", func(t *testing.T) {
		h.typeMove("e4")
		if h.c.banner.obj.Visible() {
			t.Error("the banner stays after a move was recorded")
		}
	})

	// A second console on the same file through a read-only handle: every
	// command fails with store.ErrReadOnly from the real SQLite file.
	ro, err := store.OpenReadOnly(h.ctx, h.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ro.Close() })
	roCore, err := match.New(h.ctx, ro)
	if err != nil {
		t.Fatal(err)
	}
	c := newConsole(h.ctx, h.c.fa, roCore, config{path: h.dbPath, role: match.RoleArbiter, now: h.ft.Now, after: h.ft.after, ui: h.ui.do})
	t.Cleanup(func() { c.live.App().DB().Close() })
	seq := roCore.State().Seq

	t.Run("a read-only record refuses the press, shows the banner, and the clock keeps running", func(t *testing.T) {
		c.win.Canvas().Unfocus()
		c.handleKey(&fyne.KeyEvent{Name: defaultKeyRight}) // Black runs after e4; Black's clock stands right
		if !c.banner.obj.Visible() || !strings.Contains(c.banner.text.Text, "read-only") {
			t.Fatalf("banner %v %q (error %q)", c.banner.obj.Visible(), c.banner.text.Text, refusalShown(c))
		}
		if roCore.State().Seq != seq {
			t.Fatal("the read-only console wrote an event")
		}
		before := c.clocks[1].time.Text
		h.ft.advance(3 * time.Second)
		if c.clocks[1].time.Text == before {
			t.Errorf("Black's clock stood still at %s", before)
		}
	})
	t.Run("Continue in a new file copies the record and goes on there", func(t *testing.T) {
		newPath := filepath.Join(t.TempDir(), "continued.db")
		c.do(actContinue)
		e, ok := c.win.Canvas().Focused().(interface {
			SetText(string)
			TypedKey(*fyne.KeyEvent)
		})
		if !ok {
			t.Fatalf("no path field: %T", c.win.Canvas().Focused())
		}
		e.SetText(newPath)
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if c.cfg.path != newPath || c.core.DB().Path() != newPath {
			t.Fatalf("the console works on %s, want %s (%s)", c.core.DB().Path(), newPath, topDialogTexts(c))
		}
		if c.banner.obj.Visible() {
			t.Error("the banner stays in the new file")
		}
		if !strings.Contains(c.where.Text, newPath) {
			t.Errorf("the window shows %q, want the new path", c.where.Text)
		}
		oldEvents := h.eventCount()
		h.ft.advance(time.Second)
		c.pressSlot(1)
		if p := c.game().Pressed; p == nil {
			t.Fatalf("the press was not recorded in the new file: %q", refusalShown(c))
		}
		if h.eventCount() != oldEvents {
			t.Error("the old file changed")
		}
		clockTicks(t, h, c, 2)
	})
}

func TestBoardLabelsAndPendingPress(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	t.Run("a1 carries the rank top left and the file bottom right, never 1a", func(t *testing.T) {
		if r, f := h.c.board.labels(chess.A1); r != "1" || f != "a" {
			t.Errorf("a1 labels %q / %q, want 1 / a", r, f)
		}
		if r, f := h.c.board.labels(chess.H8); r != "" || f != "" {
			t.Errorf("h8 labels %q / %q, want none", r, f)
		}
	})
	t.Run("with clock keys alone the pending press shows on the pressed clock", func(t *testing.T) {
		h.c.do(actMovePresses)
		h.c.win.Canvas().Unfocus()
		h.ft.advance(time.Second)
		h.key(defaultKeyLeft)
		if got := h.c.clocks[0].flag.Text; !strings.Contains(got, "pressed") {
			t.Errorf("White's clock shows %q, want the pending press", got)
		}
		h.typeMove("e4")
		if got := h.c.clocks[0].flag.Text; got != "" {
			t.Errorf("after the move White's clock still shows %q", got)
		}
	})
}

func TestAFileIsWrittenOnlyToAFolderThatCanTakeIt(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, want string
	}{
		{"a folder that exists and can be written", dir, ""},
		{"a folder that does not exist", filepath.Join(dir, "missing"), "does not exist: choose another place"},
		{"a file where a folder should be", file, "is not a folder: choose another place"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := writableFolder(tc.dir)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the check left files behind: %v", entries)
	}
}

// overlayWidgets lists the widgets of the top dialog, laid out.
func overlayWidgets(h *harness) []fyne.CanvasObject {
	top := h.c.win.Canvas().Overlays().Top()
	if top == nil {
		h.t.Fatal("no dialog is open")
	}
	return test.LaidOutObjects(top)
}

func TestTheIncidentDialogAsksForWhatTheKindTakes(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	spec := defaultSpec()
	spec.White = "Deep Blue" // the computer is to move: work on it is allowed (rule 13)
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, spec); err != nil {
		t.Fatal(err)
	}
	h.c.do(actStartGame)
	// open fills the dialog for kind and returns its text entry, the
	// details shown and the refusal label.
	open := func(kind string) (*formEntry, map[string]fyne.CanvasObject, *widget.Label) {
		t.Helper()
		h.c.do(actIncident)
		var sel *widget.Select
		for _, o := range overlayWidgets(h) {
			if s, ok := o.(*widget.Select); ok && sel == nil {
				sel = s
			}
		}
		sel.SetSelected(kind)
		var text *formEntry
		shown := map[string]fyne.CanvasObject{}
		var refusal *widget.Label
		for _, o := range overlayWidgets(h) {
			switch w := o.(type) {
			case *formEntry:
				if text == nil {
					text = w
				} else if w.Visible() {
					shown["entry "+w.PlaceHolder] = w
				}
			case *widget.RadioGroup:
				shown["place"] = w
			case *widget.Select:
				if w != sel {
					shown["result"] = w
				}
			case *widget.Label:
				if w.Importance == widget.DangerImportance {
					refusal = w
				}
			}
		}
		return text, shown, refusal
	}
	submit := func(e *formEntry) {
		h.c.win.Canvas().Focus(e)
		h.key(fyne.KeyReturn)
	}
	last := func() match.Incident {
		in := h.game().Incidents
		return in[len(in)-1]
	}

	t.Run("maintenance asks where the work is done and refuses without it", func(t *testing.T) {
		text, shown, refusal := open("maintenance")
		place, ok := shown["place"].(*widget.RadioGroup)
		if !ok || len(shown) != 1 {
			t.Fatalf("details shown for maintenance: %v, want only the place", shown)
		}
		test.Type(text, "reboot of the machine")
		submit(text)
		if !refusal.Visible() || !strings.Contains(refusal.Text, "where the work is done") {
			t.Fatalf("without a place: refusal %q", refusal.Text)
		}
		place.SetSelected(place.Options[0])
		submit(text)
		// maintenance in the hall is logged, then the human's recovery bonus
		in := h.game().Incidents
		if len(in) < 2 || in[len(in)-2].Kind != "maintenance" || !strings.Contains(in[len(in)-1].Text, "in the playing hall") {
			t.Errorf("incidents %+v, want maintenance in the playing hall and its bonus", in)
		}
	})
	t.Run("a ruling can be appealed by the number the log shows", func(t *testing.T) {
		text, shown, _ := open("ruling")
		if len(shown) != 0 {
			t.Errorf("details shown for a ruling: %v, want none", shown)
		}
		test.Type(text, "the operator may keep his notes")
		submit(text)
		ruling := last()
		if !strings.Contains(h.c.lastLog[len(h.c.lastLog)-1], fmt.Sprintf("#%d ", ruling.Seq)) {
			t.Fatalf("the log does not show the ruling's number #%d: %q", ruling.Seq, h.c.lastLog[len(h.c.lastLog)-1])
		}
		text, shown, _ = open("appeal")
		var refers *formEntry
		for k, o := range shown {
			if strings.HasPrefix(k, "entry ") {
				refers = o.(*formEntry)
			}
		}
		if refers == nil {
			t.Fatalf("details shown for an appeal: %v, want the event number", shown)
		}
		by, ok := shown["place"].(*widget.RadioGroup)
		if !ok {
			t.Fatalf("details shown for an appeal: %v, want who appeals", shown)
		}
		for _, o := range by.Options {
			if strings.HasPrefix(o, "Garry Kasparov") {
				by.SetSelected(o) // Kasparov appeals (Black in this game)
			}
		}
		test.Type(text, "Kasparov contests the ruling")
		test.Type(refers, fmt.Sprintf("#%d", ruling.Seq))
		submit(text)
		if in := last(); in.Kind != "appeal" || in.Refers != ruling.Seq || in.Role != match.RoleBlack {
			t.Errorf("last incident %+v, want Black's appeal of event %d", in, ruling.Seq)
		}
	})
}

func TestEscapeClosesTheOpenDialogAndNoShortcutActsBehindIt(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.c.info("A note", "Something to read.")
	cv := h.c.win.Canvas()
	press := func(id actionID) { cv.(fyne.Shortcutable).TypedShortcut(shortcuts[id]) }
	press(actDrawOffer)
	if g := h.game(); g.Offer != nil {
		t.Errorf("Ctrl+D offered a draw behind the open note")
	}
	h.key(fyne.KeyEscape)
	if cv.Overlays().Top() != nil {
		t.Fatal("Escape did not close the note")
	}
	if _, running := h.game().Clock.Running(); !running {
		t.Fatal("the Escape that closed the note also stopped the clocks")
	}
	h.key(fyne.KeyEscape) // no dialog open: Escape is the call key (6.12b)
	if _, running := h.game().Clock.Running(); running {
		t.Error("Escape with no dialog open did not stop the clocks")
	}
	press(actDrawOffer)
	if h.game().Offer == nil {
		t.Error("with no dialog open Ctrl+D offered no draw")
	}
}

func TestAcceptingADrawAsksFirst(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.ft.advance(time.Second)
	h.typeMove("e4")
	h.c.do(actDrawOffer) // White, who has just moved, offers a draw (Article 9.1b)
	if g := h.game(); g.Offer == nil || g.OfferNext != nil {
		t.Fatalf("no draw offer for Black to answer (error %q)", refusalShown(h.c))
	}
	h.c.do(actDrawAccept)
	if h.game().Over() {
		t.Fatal("the draw was recorded before the question was answered")
	}
	h.key(fyne.KeyEscape) // not now
	if h.game().Over() || h.game().Offer == nil {
		t.Fatalf("Escape answered the question: over %v, offer %v", h.game().Over(), h.game().Offer)
	}
	h.c.do(actDrawAccept)
	h.key(fyne.KeyReturn) // yes
	if g := h.game(); !g.Over() || g.Result != "1/2-1/2" {
		t.Errorf("after confirming: over %v, result %q (error %q, dialogs %d)", g.Over(), g.Result, refusalShown(h.c), len(h.c.dialogs))
	}
}

func TestTheClaimDialogNamesTheClaimsAndRecordsTheCommandsWords(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.c.do(actClaim)
	var kind *widget.Select
	var intended *formEntry
	for _, o := range overlayWidgets(h) {
		switch w := o.(type) {
		case *widget.Select:
			kind = w
		case *formEntry:
			intended = w
		}
	}
	if want := []string{"threefold repetition (9.2)", "fifty moves (9.3)"}; !slices.Equal(kind.Options, want) {
		t.Fatalf("claims offered: %v, want %v", kind.Options, want)
	}
	kind.SetSelectedIndex(1)
	h.c.win.Canvas().Focus(intended)
	h.key(fyne.KeyReturn)
	in := h.game().Incidents
	if len(in) == 0 || !strings.Contains(in[len(in)-1].Text, "50 moves") {
		t.Errorf("incidents after a fifty-move claim: %+v (error %q)", in, refusalShown(h.c))
	}
}

func TestARefusedMoveIsForgottenOnceTheGameMovesOn(t *testing.T) {
	h := newHarness(t, match.RoleArbiter, "")
	h.newMatch("acm1996", "")
	h.c.do(actStartGame)
	h.typeMove("Ke2")
	if h.c.moveErr.Text == "" {
		t.Fatal("Ke2 was not refused")
	}
	h.c.refresh() // a redraw in the same position keeps the reason in view
	if h.c.moveErr.Text == "" {
		t.Fatal("the reason vanished while the position stood")
	}
	h.c.moveEntry.SetText("")
	h.ft.advance(time.Second)
	h.typeMove("e4")
	if h.c.moveErr.Text != "" {
		t.Errorf("after e4 the field still says %q", h.c.moveErr.Text)
	}
	h.typeMove("Ke2")
	if _, err := h.core.Do(h.ctx, match.Cmd{At: h.ft.Now(), Actor: match.Actor{Role: match.RoleArbiter}}, match.Move{Input: "e5"}); err != nil {
		t.Fatal(err) // another console or the command line moves for Black
	}
	h.c.refresh()
	if h.c.moveErr.Text != "" {
		t.Errorf("after Black's e5 elsewhere the field still says %q", h.c.moveErr.Text)
	}
}
