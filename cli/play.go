package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"arbiter/service"
)

// runPlay runs a script: each line that is not empty and does not start with
// '#' is "OFFSET [--as ROLE] [--pin P] [--secret S] [--key-file F] COMMAND
// [ARGS]" and behaves exactly like "arbiter --at <start+OFFSET> [--as ROLE]
// ... COMMAND [ARGS]" on the same database. As on the command line, a --pin
// after "match new" is the new match's credential (it used to be taken as
// the line's credential and so dropped). The first failing line stops the script; nothing of that line is
// written.
func runPlay(r *runner, a *args) error {
	verbose := a.bool("v") || a.bool("verbose")
	if err := a.done("play", 1); err != nil {
		return err
	}
	if len(a.pos) != 1 {
		return fmt.Errorf("play needs a script file")
	}
	if r.inPlay {
		return fmt.Errorf("a script cannot play another script")
	}
	text, err := readScript(a.pos[0])
	if err != nil {
		return err
	}
	start := r.g.At
	if IsStation(r.g.DB) {
		// On a station's record each writing line goes to the authority
		// (docs/stations.md); the script's start is on the match timeline.
		send, at, done, err := stationScript(r)
		if err != nil {
			return err
		}
		defer done()
		r.send, start = send, at
		defer func() { r.send = nil }()
	}
	outer := r.g
	r.inPlay = true
	defer func() { r.inPlay = false; r.g = outer }()
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		if err := r.playLine(line, start, outer); err != nil {
			var notApplied *service.NotAppliedError
			if errors.As(err, &notApplied) { // committed: exit 3, not a refusal
				return fmt.Errorf("%s line %d: %w", a.pos[0], n, notApplied)
			}
			return fmt.Errorf("%s line %d: %s", a.pos[0], n, Sentence(err))
		}
		if verbose && !isBlankOrComment(line) {
			r.out("ok %d\n", n)
		}
	}
	return nil
}

func isBlankOrComment(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "#")
}

func (r *runner) playLine(line string, start time.Time, outer Global) error {
	if isBlankOrComment(line) {
		return nil
	}
	words, err := splitLine(line)
	if err != nil {
		return err
	}
	at, err := parseOffset(words[0], start)
	if err != nil {
		return err
	}
	g := outer
	g.At, g.AtSet = at, true
	rest := []string{}
	roleGiven := r.roleGiven
	for i := 1; i < len(words); i++ {
		w := words[i]
		name, val, hasVal := strings.Cut(strings.TrimPrefix(w, "--"), "=")
		if strings.HasPrefix(w, "--") && (name == "as" || name == "pin" || name == "secret" || name == "key-file") && !ownFlag(name, rest) {
			if !hasVal {
				if i+1 >= len(words) {
					return fmt.Errorf("--%s needs a value", name)
				}
				i++
				val = words[i]
			}
			switch name {
			case "as":
				role, err := parseRole(val)
				if err != nil {
					return err
				}
				g.Role, roleGiven = role, true
			case "pin":
				g.PIN = val
			case "secret":
				g.Secret = val
			case "key-file":
				g.KeyFile = val
			}
			continue
		}
		if strings.HasPrefix(w, "--") && (name == "db" || name == "at") && !ownFlag(name, rest) {
			return fmt.Errorf("--%s cannot be given inside a script line", name)
		}
		rest = append(rest, w)
	}
	c, cargs, err := lookup(rest)
	if err != nil {
		return err
	}
	if c.name == "play" {
		return fmt.Errorf("a script cannot play another script")
	}
	if r.send != nil {
		if c.writes {
			return r.send(rest, g, roleGiven)
		}
		r.close() // a line that reads sees the station's record as it is now
		r.g = g
		return r.exec(c, cargs)
	}
	r.g = g
	if err := r.loadKey(); err != nil {
		return err
	}
	if err := r.open(true); err != nil {
		return err
	}
	return r.exec(c, cargs)
}
