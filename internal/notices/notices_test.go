package notices

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite ../../THIRD_PARTY_NOTICES")

// The committed THIRD_PARTY_NOTICES is what Write says now: a module added,
// removed or upgraded without regenerating it ('make notices') fails here.
func TestThirdPartyNoticesAreCurrent(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, filepath.Join("..", "..")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "THIRD_PARTY_NOTICES")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run 'make notices'", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Fatalf("THIRD_PARTY_NOTICES is not current: run 'make notices' and commit it")
	}
	got := b.String()
	for _, tc := range []struct {
		rule, want string
	}{
		{"the Go standard library is named", "The Go standard library and runtime"},
		{"a module of go.mod is named with its version", "github.com/notnil/chess v1.10.0"},
		{"a module's licence text is given in full", "--- LICENSE (MIT) ---"},
		{"the project's fonts are listed with their licence", "assets/fonts/DejaVuSans.ttf, from the project's own (repository)\n      the licences beside it: assets/fonts/LICENSE"},
		{"the fonts of a module are listed with their licence", "theme/font/NotoSans-Regular.ttf, from fyne.io/fyne/v2"},
		{"a C library compiled into a module has its licence", "glfw/LICENSE.md"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			if !strings.Contains(got, tc.want) {
				t.Errorf("no %q in the notices", tc.want)
			}
		})
	}
}

func TestALicenceIsNamedByItsWords(t *testing.T) {
	for _, tc := range []struct {
		text, want string
	}{
		{"Permission is hereby granted, free of charge, to any person", "MIT"},
		{"Redistribution and use in source and binary forms ... Neither the name of Google", "BSD-3-Clause"},
		{"Redistribution and use in source and binary forms, with or without", "BSD-2-Clause"},
		{"Apache License\n Version 2.0, January 2004", "Apache-2.0"},
		{"Bitstream Vera Fonts Copyright ... Permission is hereby granted, free of charge", "Bitstream Vera Fonts licence"},
		{"SIL OPEN FONT LICENSE Version 1.1", "OFL-1.1"},
		{"This software is provided 'as-is', without any express or implied warranty. Permission is granted to anyone to use this software for any purpose", "Zlib"},
		{"All of the code and documentation in SQLite has been dedicated to the public domain", "public domain"},
		{"some words of our own", "see the text"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := identify(tc.text); got != tc.want {
				t.Errorf("identify = %q, want %q", got, tc.want)
			}
		})
	}
}
