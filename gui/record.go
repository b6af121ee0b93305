package gui

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"arbiter/internal/atomicfile"
	"arbiter/match"
	"arbiter/report"
	"arbiter/service"
)

// The record: exports (Reports menu), verifying the hash chain, backups, and
// carrying on in a new file when the disk holding the record is full or
// read-only.
//
// File names are asked for in a path dialog (a path field filled with a
// sensible name beside the database, and a Choose folder… button), never in
// Fyne's file-save dialog: that dialog creates and truncates the chosen file
// before the console sees the name, so choosing the database itself by
// mistake would destroy the record. Exports are written to a temporary file
// in the same folder and renamed into place, so a failed export never leaves
// half a file; no export writes an event. Backups and new files refuse an
// existing name.

// pathDialog asks for a file name: a path field (filled with def) and a
// button choosing its folder. ok gets the cleaned absolute path; an error
// keeps the dialog open with the reason shown.
func (c *console) pathDialog(title, confirm, note, def string, extra []*widget.FormItem, ok func(path string) error) dialog.Dialog {
	path := entryWith(def)
	browse := widget.NewButton(translate("Choose folder…"), func() {
		fd := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
			if err != nil || u == nil {
				return
			}
			path.SetText(filepath.Join(u.Path(), filepath.Base(path.Text)))
		}, c.win)
		if l, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(path.Text))); err == nil {
			fd.SetLocation(l)
		}
		fd.Show()
	})
	items := []*widget.FormItem{widget.NewFormItem(translate("File"), path), widget.NewFormItem("", container.NewHBox(browse))}
	if note != "" {
		l := widget.NewLabel(note)
		l.Wrapping = fyne.TextWrapWord
		items = append(items, widget.NewFormItem("", l))
	}
	items = append(items, extra...)
	return c.formDialog(title, confirm, items, func() error {
		p := strings.TrimSpace(path.Text)
		if p == "" {
			return errText(translate("no file named: give the path of the file to write"))
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		if err := writableFolder(filepath.Dir(abs)); err != nil {
			return err
		}
		return ok(abs)
	})
}

// writableFolder refuses, in one sentence, a folder a file cannot be
// written to: one that does not exist, is not a folder or is read-only.
// Without it the user would read the file system's or SQLite's own words
// ("unable to open database file (14)").
func writableFolder(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return errText(tr("the folder %s does not exist: choose another place", dir))
	case !fi.IsDir():
		return errText(tr("%s is not a folder: choose another place", dir))
	}
	f, err := os.CreateTemp(dir, ".arbiter-check-*")
	if err != nil {
		return errText(tr("the folder %s cannot be written to: choose another place", dir))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// beside is a file name in the database's folder: the database's base name
// with suffix.
func (c *console) beside(suffix string) string {
	dir, base := filepath.Split(c.cfg.path)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	if base == "" {
		base = "arbiter"
	}
	return filepath.Join(dir, base+suffix)
}

// sameFile reports whether a and b name one file (the database must never
// be an export's or a copy's target).
func sameFile(a, b string) bool {
	if fa, err := os.Stat(a); err == nil {
		if fb, err := os.Stat(b); err == nil {
			return os.SameFile(fa, fb)
		}
	}
	ca, _ := filepath.Abs(a)
	cb, _ := filepath.Abs(b)
	return ca == cb
}

// writeExport writes data to path whole or not at all, and only to a
// regular file: the same write as the CLI's export (package atomicfile).
func writeExport(path string, data []byte) error {
	return atomicfile.Write(path, data, 0o644)
}

// reportError drops the package prefix of a report error: the user reads
// one sentence.
func reportError(err error) error {
	return errors.New(strings.TrimPrefix(err.Error(), "report: "))
}

// exportSeal is the step every export takes first, the same as the CLI's
// export (service.ExportSeal): with the arbiter's PIN given at this console
// the arbiter signs the record's head (a signature, no event); without it
// nothing is written to the record and the seal names the last head he
// signed.
func (c *console) exportSeal() (match.Seal, bool, error) {
	pin := c.hallPIN
	if pin == "" && c.mode == match.RoleArbiter {
		pin = c.pin
	}
	if m := c.state().Match; pin != "" && (m == nil || !m.CheckPIN(pin)) {
		pin = "" // never a wrong PIN: it would be recorded as a failed try
	}
	s, signed, err := service.ExportSeal(c.ctx, c.core, c.cmdAs(match.Actor{Role: match.RoleArbiter, PIN: pin}), pin != "")
	var nv *service.NotVerified
	if errors.As(err, &nv) {
		return s, false, errText(tr("the record does not verify (%s), so a report could not carry its fingerprint: check it with Reports → Verify the record", say(nv.Why)))
	}
	return s, signed, err
}

// sealText says what an export did to the record's seal: the head the
// arbiter signed now (and his key), the last one he signed, or that the
// match is unprotected.
func sealText(s match.Seal, signed bool) string {
	switch {
	case !s.Signed:
		return translate("Unprotected match: nothing is signed, and the report says so on its cover.")
	case signed:
		return tr("The arbiter signed this head (event %d) with the key %s; 'arbiter verify --key' checks it.", s.HeadSeq, match.HexBlocks(s.ArbiterKey))
	case s.HeadSeq == 0:
		return translate("The arbiter has signed no head yet: give the arbiter PIN at this console (Arbiter mode) to sign this one.")
	}
	return tr("Nothing was signed (no arbiter PIN given at this console); the last head the arbiter signed is event %d.", s.HeadSeq)
}

// exportPGN writes the whole match as PGN to path (Reports → Export PGN…).
func (c *console) exportPGN(path string) error {
	if sameFile(path, c.core.DB().Path()) {
		return errText(translate("that is the match database itself: choose another file name for the PGN"))
	}
	if _, _, err := c.exportSeal(); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := report.WritePGN(&buf, c.state(), 0); err != nil {
		return reportError(err)
	}
	return writeExport(path, buf.Bytes())
}

// exportPDF writes the signed match report to path (Reports → Export PDF…),
// with the record's fingerprint, in the console's language: the same report
// as the CLI's export pdf (service.ReportPDF), each game's signature block
// with its signed head and the arbiter's key fingerprint. It returns the
// fingerprint and what was signed (sealText).
func (c *console) exportPDF(path, paper string, game int) (string, string, error) {
	if sameFile(path, c.core.DB().Path()) {
		return "", "", errText(translate("that is the match database itself: choose another file name for the report"))
	}
	seal, signed, err := c.exportSeal()
	if err != nil {
		return "", "", err
	}
	pdf, head, err := service.ReportPDF(c.ctx, c.core, report.PDFOptions{Paper: paper, Lang: consoleLang(), Game: game, Seal: &seal})
	var nv *service.NotVerified
	if errors.As(err, &nv) {
		return "", "", errText(tr("the record does not verify (%s), so a report could not carry its fingerprint: check it with Reports → Verify the record", say(nv.Why)))
	}
	if err != nil {
		return "", "", err
	}
	return head, sealText(seal, signed), writeExport(path, pdf)
}

func (c *console) exportPGNDialog() {
	c.pathDialog(translate("Export PGN"), translate("Export"), translate("Every game of the match with [%clk] and [%emt], and the incidents in the move comments. Exporting writes no event; with the arbiter PIN given at this console the arbiter signs the record's head."),
		c.beside(".pgn"), nil, func(path string) error {
			if err := c.exportPGN(path); err != nil {
				return err
			}
			c.afterDialog(func() { c.info(translate("Export PGN"), tr("The match was written to %s.", path)) })
			return nil
		})
}

func (c *console) exportPDFDialog() {
	paper := widget.NewSelect([]string{"A4", "Letter"}, nil)
	paper.SetSelected("A4")
	// by the match's zone, else the locale's paper: Letter in the Americas
	if report.DefaultPaper(c.state().Match, report.PaperLocale(os.Getenv)) == "letter" {
		paper.SetSelected("Letter")
	}
	games := []string{translate("the whole match")}
	nums := []int{0}
	for _, g := range c.state().Games {
		if g.Sheet != nil {
			games = append(games, tr("Game %d", g.Number))
			nums = append(nums, g.Number)
		}
	}
	game := widget.NewSelect(games, nil)
	game.SetSelectedIndex(0)
	c.pathDialog(translate("Export PDF"), translate("Export"), translate("The signed match report: cover and standings, each game's scoresheet, time chart and incidents, the rulings and the record's fingerprint. Exporting writes no event; with the arbiter PIN given at this console the arbiter signs the record's head."),
		c.beside("-report.pdf"), []*widget.FormItem{
			widget.NewFormItem(translate("Paper"), paper),
			widget.NewFormItem(translate("Games"), game),
		}, func(path string) error {
			n := 0
			if i := game.SelectedIndex(); i > 0 {
				n = nums[i]
			}
			head, seal, err := c.exportPDF(path, strings.ToLower(paper.Selected), n)
			if err != nil {
				return err
			}
			c.afterDialog(func() {
				c.info(translate("Export PDF"), tr("The report was written to %s. Its fingerprint:\n%s\nAnyone can check it with 'arbiter verify --head \"…\"' and this fingerprint.", path, match.HexBlocks(head))+"\n"+seal)
			})
			return nil
		})
}

// verifyRecord checks the hash chain and says what it found.
// It checks every signature too, as 'arbiter verify' does (match.VerifyRecord).
// The problem names its event itself ("event 5 (move) was edited …"), so
// the dialog does not name it again.
func (c *console) verifyRecord() {
	rep, err := match.VerifyRecord(c.ctx, c.core.DB(), "", "")
	if err != nil {
		c.showError(err)
		return
	}
	if !rep.OK {
		c.info(translate("The record does not verify"), tr("%s. Keep this file as it is and tell the appeals board.", capitalFirst(say(rep.Why))))
		return
	}
	// the words, and under each the value to compare with the paper, in
	// blocks of eight as 'Match created' shows them to be written down
	// (before, the head wrapped with its last block alone on a line)
	// what the file alone cannot prove (the console checks it against
	// nothing from outside it), in the console's language (branch htrust)
	unanchored := capitalFirst(say(match.Unanchored())) + "."
	box := container.NewVBox()
	say := func(text string) {
		l := widget.NewLabel(text)
		l.Wrapping = fyne.TextWrapWord
		box.Add(l)
	}
	value := func(hex string) {
		box.Add(widget.NewLabelWithStyle(hexLines(hex), fyne.TextAlignCenter, fyne.TextStyle{Monospace: true, Bold: true}))
	}
	say(tr("%d events; the chain is intact. Fingerprint (head):", rep.Events))
	value(rep.Head)
	say(translate("Write it on the scoresheet; 'arbiter verify --head' checks it later."))
	switch s := rep.Seal; {
	case !s.Protected:
		say(translate("Unprotected match: the events are unsigned, so only the hash chain was checked."))
	case !s.Signed:
		say(translate("This older record has an arbiter PIN but no signatures: only the hash chain was checked."))
	default:
		// --key pins the first key (docs/store.md); after a rotation it is
		// not the current one: both are said, as 'arbiter verify' says them
		say(tr("%d signatures verified.", rep.Signatures))
		if first := s.FirstKey(); first != "" {
			say(translate("The arbiter's first key, which anchors the record ('arbiter verify --key' checks it):"))
			value(first)
			if s.ArbiterKey != "" && s.ArbiterKey != first {
				say(translate("The arbiter's key now (it replaced the first):"))
				value(s.ArbiterKey)
			}
		}
		say(unanchored)
	}
	// the match id tells this match from any other, even one made with
	// the same key file: the appeals board compares it with the paper
	if id := rep.Seal.MatchID; id != "" {
		say(translate("The match id ('arbiter verify --match' checks it):"))
		value(id)
		box.Add(c.copyRow(translate("Copy the match id"), id))
	} else if rep.Events > 0 {
		say(translate("This record has no match id (it was made before match ids were recorded), so 'arbiter verify --match' fails on it."))
	}
	d := dialog.NewCustom(translate("The record verifies"), translate("OK"), box, c.win)
	d.Resize(fyne.NewSize(noteMaxWidth, 0))
	d.SetOnClosed(func() { c.onEnter = nil })
	c.onEnter = d.Hide
	c.showDialog(d)
}

// hexLines is a fingerprint in blocks of eight hexadecimal digits, in two
// lines of four blocks where it has more than four (a head, a key), as it
// is written down.
func hexLines(hex string) string {
	blocks := strings.Fields(match.HexBlocks(hex))
	if len(blocks) <= 4 {
		return strings.Join(blocks, " ")
	}
	half := (len(blocks) + 1) / 2
	return strings.Join(blocks[:half], " ") + "\n" + strings.Join(blocks[half:], " ")
}

// backupDialog writes a consistent copy of the live record (Match → Back up
// the record…).
func (c *console) backupDialog() {
	def := c.beside("-backup-" + c.now().Local().Format("20060102-150405") + ".db")
	c.pathDialog(translate("Back up the record"), translate("Back up"), translate("A consistent copy of the record, taken while the match goes on. The console keeps working on the current file."),
		def, nil, func(path string) error {
			if sameFile(path, c.core.DB().Path()) {
				return errText(translate("that is the match database itself: choose another file name for the copy"))
			}
			if err := c.core.DB().Backup(c.ctx, path); err != nil {
				return err
			}
			c.afterDialog(func() { c.info(translate("Back up the record"), tr("The record was copied to %s.", path)) })
			return nil
		})
}

// nextFree is base with -2, -3, … inserted before the extension until no
// file of that name exists.
func nextFree(path string) string {
	ext := filepath.Ext(path)
	stem := strings.TrimSuffix(path, ext)
	for i := 2; i < 1000; i++ {
		p := fmt.Sprintf("%s-%d%s", stem, i, ext)
		if _, err := os.Lstat(p); err != nil {
			return p
		}
	}
	return stem + "-new" + ext
}

// continueDialog carries the match on in a new file (Match → Continue in a
// new file…): for a disk that filled up or a record that became read-only.
func (c *console) continueDialog() {
	c.pathDialog(translate("Continue in a new file"), translate("Continue there"),
		translate("The record is copied to a new file, checked, and the console goes on there; the old file stays as it is. Choose a place on another disk if this one is full."),
		nextFree(c.cfg.path), nil, func(path string) error {
			return c.continueIn(path)
		})
}

// continueIn copies the live record to newPath with service.Live.ContinueIn, opens
// the copy and goes on there: the console's commands, the heartbeat and the
// poll then use the new file, and the window shows its path.
func (c *console) continueIn(newPath string) error {
	if sameFile(newPath, c.core.DB().Path()) {
		return errText(translate("that is the match database itself: choose a new file name"))
	}
	oldPath := c.cfg.path
	core, err := c.live.ContinueIn(c.ctx, newPath)
	if err != nil {
		return err
	}
	c.core = core
	c.cfg.path = newPath
	c.hideBanner()
	_ = core.Beat(c.ctx, c.now())
	c.refresh()
	c.afterDialog(func() {
		c.info(translate("Continue in a new file"), tr("The match goes on in %s (copied from %s, which stays as it was). Start the console with --db %s from now on.", newPath, oldPath, newPath))
	})
	return nil
}

// setCore makes core the match the console works on; the console redraws
// when the live match changed (service.Live).
func (c *console) setCore(core *match.App) {
	c.core = core
	c.live = service.NewLive(core)
	c.live.OnChange(func() { c.ui(c.refresh) })
}

// writeProblem tells whether err means the record cannot be written (a full
// disk or a read-only file), and says so in one sentence.
func writeProblem(err error) (string, bool) {
	switch {
	case err == nil:
		return "", false
	case errors.Is(err, service.ErrDiskFull):
		return translate("The record cannot be written: the disk is full."), true
	case errors.Is(err, service.ErrReadOnly):
		return translate("The record cannot be written: the file is read-only."), true
	}
	return "", false
}

// noteWriteError shows the banner when err means the record cannot be
// written. The clocks keep running: they are computed from the record,
// which holds everything up to the failed step.
func (c *console) noteWriteError(err error) {
	what, ok := writeProblem(err)
	if !ok || c.noteStationWrite() {
		return
	}
	c.blockedSeq = c.state().Seq
	c.banner.text.SetText("⚠ " + what + " " + translate("The clocks keep running from the record; nothing already written is lost, the failed step was not recorded. Go on in another file: Match → Continue in a new file… (Ctrl+Shift+O)."))
	c.banner.obj.Show()
}

// noteWriteErrorAsync reports a failed background write (the heartbeat).
func (c *console) noteWriteErrorAsync(err error) {
	if _, ok := writeProblem(err); ok {
		c.ui(func() { c.noteWriteError(err) })
	}
}

func (c *console) hideBanner() {
	if c.banner.obj.Visible() {
		c.banner.obj.Hide()
	}
}

// banner is the red line across the top of the window saying the record
// cannot be written.
type banner struct {
	obj  fyne.CanvasObject
	text *widget.Label
}

func newBanner() banner {
	bg, t := bannerParts(color.NRGBA{0xe5, 0x39, 0x35, 0x50}, colFlag)
	obj := container.NewStack(bg, t)
	obj.Hide()
	return banner{obj: obj, text: t}
}

// bannerParts are a banner's tinted, framed background (fill, edge) and its
// bold, wrapping label: the red banner's and the view's (viewBanner).
func bannerParts(fill, edge color.Color) (*canvas.Rectangle, *widget.Label) {
	bg := canvas.NewRectangle(fill)
	bg.StrokeColor = edge
	bg.StrokeWidth = 2
	bg.CornerRadius = 4
	t := widget.NewLabel("")
	t.Wrapping = fyne.TextWrapWord
	t.TextStyle.Bold = true
	return bg, t
}

// afterDialog runs f once the form dialog being submitted has closed (a
// note shown while it is still open would close with it), or now when no
// form dialog is being submitted.
func (c *console) afterDialog(f func()) {
	if c.submitting {
		c.pending = append(c.pending, f)
		return
	}
	f()
}
