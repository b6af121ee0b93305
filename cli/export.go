package cli

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"arbiter/internal/atomicfile"
	"arbiter/report"
	"arbiter/service"
)

func init() {
	register(&command{name: "export pgn", reads: true, roles: rolesRead, usage: "export pgn [--game N] [-o FILE]",
		summary: "Write the match (or game N) as PGN with [%clk]/[%emt] and the incidents in the move comments; standard output by default.",
		run:     runExportPGN})
	register(&command{name: "export pdf", reads: true, roles: rolesRead, usage: "export pdf -o FILE [--game N] [--paper a4|letter] [--lang en|de]",
		summary: "Write the signed match report as PDF: cover, each game's scoresheet, time chart and incidents, rulings and the record's fingerprint.",
		run:     runExportPDF})
}

func runExportPGN(r *runner, a *args) error {
	out, _ := a.take("o")
	_, gameGiven := a.flags["game"] // --game 0 is refused as -1 is, not taken for the whole match
	n, err := a.int("game", 0)
	if err != nil {
		return err
	}
	if err := a.done("export pgn", 0); err != nil {
		return err
	}
	if n < 0 || (gameGiven && n == 0) {
		return fmt.Errorf("--game %d is not a game number: give 1 or more, or leave it out for the whole match", n)
	}
	// refused before the seal, which with --pin signs the head
	if err := report.CheckPGN(r.app.State(), n); err != nil {
		return userError(err)
	}
	if out != "" && out != "-" {
		if err := checkTarget(out, r.g.DB); err != nil {
			return err
		}
	}
	if _, err := r.exportSeal(); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := report.WritePGN(&buf, r.app.State(), n); err != nil {
		return userError(err)
	}
	if out == "" || out == "-" {
		_, err := r.env.Stdout.Write(buf.Bytes())
		return err
	}
	if err := writeFile(out, r.g.DB, buf.Bytes()); err != nil {
		return err
	}
	r.tell("PGN written to %s", out)
	return nil
}

func runExportPDF(r *runner, a *args) error {
	out, _ := a.take("o")
	_, gameGiven := a.flags["game"] // --game 0 is refused as -1 is, not taken for the whole match
	n, err := a.int("game", 0)
	if err != nil {
		return err
	}
	paper, _ := a.take("paper")
	if paper == "" {
		// by the match's zone, else the locale's paper (Letter in the Americas)
		paper = report.DefaultPaper(r.app.State().Match, report.PaperLocale(r.env.Getenv))
	}
	lang, ok := a.take("lang")
	if !ok {
		lang = "en"
		if strings.HasPrefix(strings.ToLower(r.env.Getenv("LANG")), "de") {
			lang = "de"
		}
	}
	if err := a.done("export pdf", 0); err != nil {
		return err
	}
	if out == "" {
		return fmt.Errorf("export pdf needs -o FILE: name the PDF file to write")
	}
	if n < 0 || (gameGiven && n == 0) {
		return fmt.Errorf("--game %d is not a game number: give 1 or more, or leave it out for the whole match", n)
	}
	// refused before the seal, which with --pin signs the head: a refused
	// export wrote the arbiter's head signature and said so before
	if err := report.CheckPDFOptions(r.app.State(), report.PDFOptions{Paper: paper, Lang: lang, Game: n}); err != nil {
		return userError(err)
	}
	if err := checkTarget(out, r.g.DB); err != nil {
		return err
	}
	seal, err := r.exportSeal()
	if err != nil {
		return err
	}
	// The whole record, every signature and every head the arbiter signed
	// is checked before a report vouches for it; the console writes the
	// same report (service.ReportPDF).
	pdf, head, err := service.ReportPDF(r.ctx, r.app, report.PDFOptions{Paper: paper, Lang: lang, Game: n, Seal: &seal})
	var nv *service.NotVerified
	if errors.As(err, &nv) {
		return fmt.Errorf("the record does not verify (%s), so a report could not carry its fingerprint: %s", nv.Why, brokenRecordAction)
	}
	if err != nil {
		return err
	}
	if err := writeFile(out, r.g.DB, pdf); err != nil {
		return err
	}
	r.tell("report written to %s (fingerprint %s)", out, head)
	return nil
}

// writeFile writes an export or a script to path, whole or not at all and
// only to a regular file (package atomicfile), and never over the match's
// database db or its -wal and -shm files (an export renamed over the record
// would replace it), also where db is a symbolic link: SQLite keeps the
// -wal and -shm beside the file the link names.
func writeFile(path, db string, data []byte) error {
	if err := refuseDatabase(path, db); err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o644)
}

// checkTarget refuses, before an export's seal (which with --pin signs
// the head), every file writeFile would refuse: the match's database or
// its -wal or -shm, a path that is not a regular file (a folder, a FIFO,
// a symbolic link, a device) and a path whose folder does not exist.
// Before, those last were refused only after the seal: 'export pdf -o
// /tmp --pin …' signed the head, said so, and then refused the folder
// (TestARefusedExportWritesNothingAndSignsNoHead).
func checkTarget(path, db string) error {
	if err := refuseDatabase(path, db); err != nil {
		return err
	}
	return atomicfile.CheckTarget(path)
}

// refuseDatabase refuses path when it is the match's database db or its
// -wal or -shm file (writeFile's refusal, also given before an export's
// seal).
func refuseDatabase(path, db string) error {
	files := []string{db, db + "-wal", db + "-shm"}
	if real, err := filepath.EvalSymlinks(db); err == nil && real != db {
		files = append(files, real+"-wal", real+"-shm")
	}
	for _, f := range files {
		if same, _ := samePath(path, f); same {
			return fmt.Errorf("%s is the match's database (or a file of it): give a new file name to write to", path)
		}
	}
	return nil
}

// userError drops the package prefix from a report error: the user reads one
// sentence.
func userError(err error) error {
	return errors.New(strings.TrimPrefix(err.Error(), "report: "))
}
