package notices

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Platforms are the targets whose builds the notices cover.
var Platforms = []string{"linux/amd64", "windows/amd64", "darwin/amd64", "darwin/arm64"}

// pkg is what 'go list -json' says of one package.
type pkg struct {
	ImportPath string
	Dir        string
	Standard   bool
	EmbedFiles []string
	CgoFiles   []string
	Module     *struct {
		Path, Version, Dir string
		Main               bool
	}
}

// module is one module compiled into the program.
type module struct {
	path, version, dir string
	licences           map[string]bool // paths relative to dir
}

// font is a font file the program embeds.
type font struct {
	owner    string // the module path, or "" for the project's own
	dir      string // the module's directory
	file     string // relative to dir
	licences []string
}

// Write writes the notices for the main package in dir (the repository).
func Write(w io.Writer, dir string) error {
	mods := map[string]*module{}
	fonts := map[string]*font{}
	for _, platform := range Platforms {
		pkgs, err := list(dir, platform)
		if err != nil {
			return err
		}
		for _, p := range pkgs {
			if p.Standard || p.Module == nil {
				continue
			}
			root := p.Module.Dir
			var m *module
			if !p.Module.Main {
				m = mods[p.Module.Path]
				if m == nil {
					m = &module{path: p.Module.Path, version: p.Module.Version, dir: root, licences: map[string]bool{}}
					mods[p.Module.Path] = m
				}
				for d := p.Dir; ; d = filepath.Dir(d) {
					m.add(d)
					if d == root || len(d) <= len(root) {
						break
					}
				}
				if len(p.CgoFiles) > 0 {
					subs, _ := os.ReadDir(p.Dir)
					for _, s := range subs {
						if s.IsDir() {
							m.add(filepath.Join(p.Dir, s.Name()))
						}
					}
				}
			}
			for _, e := range p.EmbedFiles {
				full := filepath.Join(p.Dir, e)
				if m != nil {
					m.add(filepath.Dir(full))
				}
				if ext := strings.ToLower(filepath.Ext(e)); ext != ".ttf" && ext != ".otf" {
					continue
				}
				rel, _ := filepath.Rel(root, full)
				owner := ""
				if m != nil {
					owner = m.path
				}
				f := &font{owner: owner, dir: root, file: filepath.ToSlash(rel)}
				for _, l := range licenceFiles(filepath.Dir(full)) {
					r, _ := filepath.Rel(root, l)
					f.licences = append(f.licences, filepath.ToSlash(r))
				}
				fonts[owner+" "+f.file] = f
			}
		}
	}
	goroot, err := goEnv(dir, "GOROOT")
	if err != nil {
		return err
	}
	return write(w, goroot, sorted(mods), sortedFonts(fonts))
}

// add records the licence files in d.
func (m *module) add(d string) {
	for _, l := range licenceFiles(d) {
		if r, err := filepath.Rel(m.dir, l); err == nil && !strings.HasPrefix(r, "..") {
			m.licences[filepath.ToSlash(r)] = true
		}
	}
}

// licenceFiles are the files in d whose names say they hold a licence or a
// notice: LICENSE*, LICENCE*, COPYING*, NOTICE*, PATENTS*.
func licenceFiles(d string) []string {
	entries, err := os.ReadDir(d)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		n := strings.ToUpper(e.Name())
		if e.IsDir() {
			continue
		}
		for _, p := range []string{"LICENSE", "LICENCE", "COPYING", "NOTICE", "PATENTS"} {
			if strings.HasPrefix(n, p) {
				out = append(out, filepath.Join(d, e.Name()))
				break
			}
		}
	}
	return out
}

// list runs 'go list -deps -json' of the main package for one platform.
func list(dir, platform string) ([]pkg, error) {
	goos, goarch, _ := strings.Cut(platform, "/")
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Dir,Standard,EmbedFiles,CgoFiles,Module", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=1", "GOFLAGS=-mod=readonly")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list for %s: %v: %s", platform, err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("go list for %s: %v", platform, err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

func goEnv(dir, name string) (string, error) {
	cmd := exec.Command("go", "env", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

func sorted(mods map[string]*module) []*module {
	var out []*module
	for _, m := range mods {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b *module) int { return strings.Compare(a.path, b.path) })
	return out
}

func sortedFonts(fonts map[string]*font) []*font {
	var out []*font
	for _, f := range fonts {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b *font) int {
		return strings.Compare(a.owner+" "+a.file, b.owner+" "+b.file)
	})
	return out
}

const rule = "================================================================================"

// write lays the notices out: the introduction, the contents, then each
// licence text in full.
func write(w io.Writer, goroot string, mods []*module, fonts []*font) error {
	var b strings.Builder
	b.WriteString(`THIRD-PARTY NOTICES

Arbiter is free software under the MIT licence (the file LICENSE). The
programs built from it include software and fonts that others wrote, each
under its own licence: the Go standard library and runtime, the Go modules
of go.mod that are compiled in (on Linux, Windows or macOS), and the fonts
embedded in the program. This file names them and gives every licence text
in full.

Generated by internal/notices ('make notices') from go.mod, the module cache
and the Go installation; do not edit it by hand.

CONTENTS

`)
	goLicence, err := os.ReadFile(filepath.Join(goroot, "LICENSE"))
	if err != nil {
		return fmt.Errorf("the licence of the Go standard library: %v", err)
	}
	fmt.Fprintf(&b, "  %-58s %s\n", "The Go standard library and runtime", identify(string(goLicence)))
	texts := map[string]string{} // module path + file -> text
	for _, m := range mods {
		var names []string
		for _, l := range m.files() {
			t, err := os.ReadFile(filepath.Join(m.dir, filepath.FromSlash(l)))
			if err != nil {
				return err
			}
			texts[m.path+" "+l] = string(t)
			if id := identify(string(t)); !slices.Contains(names, id) {
				names = append(names, id)
			}
		}
		if len(names) == 0 {
			names = []string{"no licence file in the module (see its source)"}
		}
		fmt.Fprintf(&b, "  %-58s %s\n", m.path+" "+m.version, strings.Join(names, ", "))
	}
	b.WriteString("\nFONTS EMBEDDED IN THE PROGRAM\n\n")
	for _, f := range fonts {
		owner := "the project's own (repository)"
		if f.owner != "" {
			owner = f.owner
		}
		fmt.Fprintf(&b, "  %s, from %s\n      the licences beside it: %s\n", f.file, owner, strings.Join(f.licences, ", "))
	}
	section := func(title string) {
		fmt.Fprintf(&b, "\n\n%s\n%s\n%s\n", rule, title, rule)
	}
	given := map[string]string{} // a text given in full -> where
	text := func(where, name, t string) {
		t = strings.TrimRight(strings.ReplaceAll(t, "\r\n", "\n"), "\n") + "\n"
		if first, ok := given[t]; ok {
			fmt.Fprintf(&b, "\n--- %s (%s) ---\n\nThe same text as %s above.\n", name, identify(t), first)
			return
		}
		given[t] = name + " of " + where
		fmt.Fprintf(&b, "\n--- %s (%s) ---\n\n%s", name, identify(t), t)
	}
	section("The Go standard library and runtime")
	text("Go", "LICENSE", string(goLicence))
	for _, m := range mods {
		section(m.path + " " + m.version)
		for _, l := range m.files() {
			text(m.path, l, texts[m.path+" "+l])
		}
	}
	// The project's own fonts are no module: their licence texts here.
	done := map[string]bool{}
	for _, f := range fonts {
		if f.owner != "" {
			continue // its licence is with its module above
		}
		for _, l := range f.licences {
			if done[l] {
				continue
			}
			done[l] = true
			t, err := os.ReadFile(filepath.Join(f.dir, filepath.FromSlash(l)))
			if err != nil {
				return err
			}
			section("Fonts in " + filepath.ToSlash(filepath.Dir(l)) + "/ of this repository")
			text("this repository", l, string(t))
		}
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// files are the module's licence files, in order.
func (m *module) files() []string {
	var out []string
	for l := range m.licences {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// identify names the licence of a text by its words.
func identify(t string) string {
	has := func(s ...string) bool {
		for _, x := range s {
			if !strings.Contains(t, x) {
				return false
			}
		}
		return true
	}
	switch {
	case has("Bitstream Vera"):
		return "Bitstream Vera Fonts licence"
	case has("SIL OPEN FONT LICENSE") || has("SIL Open Font License"):
		return "OFL-1.1"
	case has("Apache License", "Version 2.0"):
		return "Apache-2.0"
	case has("Mozilla Public License", "2.0"):
		return "MPL-2.0"
	case has("Additional IP Rights Grant (Patents)"):
		return "patent grant"
	case has("Permission is hereby granted, free of charge"):
		return "MIT"
	case has("Redistribution and use in source and binary forms", "Neither the name"):
		return "BSD-3-Clause"
	case has("Redistribution and use in source and binary forms"):
		return "BSD-2-Clause"
	case has("Permission to use, copy, modify, and/or distribute this software for any"):
		return "ISC"
	case has("This software is provided 'as-is'", "Permission is granted to anyone to use this software for any purpose"):
		return "Zlib"
	case has("free and unencumbered software released into the public domain"):
		return "Unlicense"
	case has("The author disclaims copyright to this source code") || has("dedicated to the public"):
		return "public domain"
	}
	return "see the text"
}
