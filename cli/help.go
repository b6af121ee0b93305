package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// groupCommands lists the commands whose name starts with the word group
// ("export" → export pdf, export pgn), sorted by name.
func groupCommands(group string) []*command {
	var cs []*command
	for _, c := range Commands() {
		if strings.HasPrefix(c.name, group+" ") {
			cs = append(cs, c)
		}
	}
	return cs
}

// printGroupHelp answers "arbiter help export" and "arbiter export --help".
func printGroupHelp(r *runner, group string, cs []*command) {
	r.out("The %s commands:\n", group)
	for _, c := range cs {
		r.out("  arbiter %s\n      %s\n      Given by: %s\n", c.usage, c.summary, c.roles)
	}
	r.out("\n'arbiter %s --help' tells more about one of them.\n", cs[0].name)
}

// The release stamp: 'make release VERSION=X.Y.Z' sets these with
// -ldflags '-X arbiter/cli.releaseVersion=X.Y.Z -X arbiter/cli.releaseCommit=…'
// (a release is built from 'git archive' of the commit, without VCS
// stamping). Empty in any other build.
var releaseVersion, releaseCommit string

// release is the stamp of a release build.
type release struct{ version, commit string }

// LicenceLine is the second line of "arbiter --version": the licence of the
// program and where the licences of what it includes are.
const LicenceLine = "Free software under the MIT licence (the file LICENSE); it includes software and fonts of others under their own licences (THIRD_PARTY_NOTICES)."

// VersionLine is the first line "arbiter --version" prints: the
// application's version and build number from FyneApp.toml (manifest; a
// release's version instead when the build is one), then what the Go tool
// recorded in the binary (runtime/debug.ReadBuildInfo): the Go version, the
// platform and, when built from a git checkout with VCS stamping or as a
// release, the commit.
func VersionLine(manifest []byte) string {
	bi, _ := debug.ReadBuildInfo()
	return versionLine(manifest, bi, runtime.GOOS+"/"+runtime.GOARCH, release{releaseVersion, releaseCommit})
}

func versionLine(manifest []byte, bi *debug.BuildInfo, platform string, rel release) string {
	version, build := manifestVersion(manifest)
	if rel.version != "" {
		version = rel.version
	}
	if version == "" {
		version = "(version unknown)"
		if bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			version = strings.TrimPrefix(bi.Main.Version, "v")
		}
	}
	var parts []string
	if build != "" {
		parts = append(parts, "build "+build)
	}
	goVersion := runtime.Version()
	if bi != nil && bi.GoVersion != "" {
		goVersion = bi.GoVersion
	}
	parts = append(parts, goVersion, platform)
	if bi != nil {
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev == "" {
			rev = rel.commit
		}
		if rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			if modified == "true" {
				rev += "+changes"
			}
			parts = append(parts, "commit "+rev)
		}
	}
	return fmt.Sprintf("arbiter %s (%s)", version, strings.Join(parts, ", "))
}

// manifestVersion reads Version and Build from the [Details] table of
// FyneApp.toml. The file is simple enough that a line scan does; a missing
// key gives "".
func manifestVersion(manifest []byte) (version, build string) {
	sc := bufio.NewScanner(bytes.NewReader(manifest))
	table := ""
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(line, "[] ")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || table != "Details" {
			continue
		}
		v = strings.TrimSpace(v)
		if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		switch strings.TrimSpace(k) {
		case "Version":
			version = strings.Trim(v, `"`)
		case "Build":
			build = strings.Trim(v, `"`)
		}
	}
	return version, build
}

// ConsoleDisplay says whether the console (a window) can open: on Linux and
// the BSDs it needs an X11 or Wayland display, named by DISPLAY or
// WAYLAND_DISPLAY. Without one it returns the sentence to print, before
// anything (not even the database) is opened. Windows and macOS always have
// their desktop.
func ConsoleDisplay(goos string, getenv func(string) string) error {
	switch goos {
	case "windows", "darwin", "ios", "android", "js", "wasip1":
		return nil
	}
	if getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != "" {
		return nil
	}
	return fmt.Errorf("there is no display to open the console on (neither DISPLAY nor WAYLAND_DISPLAY is set): start arbiter in a desktop session, or give a command, e.g. 'arbiter help'")
}
