package cli

import (
	"arbiter/match"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// args is a parsed argument list: positional arguments and --flags. A flag
// takes the next argument as its value unless it is declared boolean; the
// form --flag=value works too. Single-dash arguments such as "-5m" are
// positional, except -o and -v.
type args struct {
	pos   []string
	flags map[string][]string
}

func parseArgs(in []string, boolFlags ...string) (*args, error) {
	isBool := map[string]bool{}
	for _, b := range boolFlags {
		isBool[b] = true
	}
	a := &args{flags: map[string][]string{}}
	for i := 0; i < len(in); i++ {
		s := in[i]
		if !utf8.ValidString(s) {
			return nil, fmt.Errorf("argument %d is not valid UTF-8 text", i+1)
		}
		name := ""
		switch {
		case s == "--":
			a.pos = append(a.pos, in[i+1:]...)
			return a, nil
		case strings.HasPrefix(s, "--") && len(s) > 2:
			name = s[2:]
		case s == "-o" || s == "-v" || s == "-h":
			name = s[1:]
		default:
			a.pos = append(a.pos, s)
			continue
		}
		if k, v, ok := strings.Cut(name, "="); ok {
			a.flags[k] = append(a.flags[k], v)
			continue
		}
		if isBool[name] {
			a.flags[name] = append(a.flags[name], "true")
			continue
		}
		if i+1 >= len(in) {
			return nil, fmt.Errorf("%s needs a value", s) // as typed: "-o", "--game"
		}
		i++
		a.flags[name] = append(a.flags[name], in[i])
	}
	return a, nil
}

// take removes and returns the last value of a flag.
func (a *args) take(name string) (string, bool) {
	v, ok := a.flags[name]
	if !ok {
		return "", false
	}
	delete(a.flags, name)
	return v[len(v)-1], true
}

func (a *args) takeAll(name string) []string {
	v := a.flags[name]
	delete(a.flags, name)
	return v
}

func (a *args) bool(name string) bool {
	v, ok := a.take(name)
	return ok && v != "false"
}

func (a *args) int(name string, def int) (int, error) {
	v, ok := a.take(name)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("--%s %q is not a whole number", name, v)
	}
	return n, nil
}

// done refuses leftover flags and surplus positional arguments, with the
// command's usage: what to give instead, not the list of every command.
func (a *args) done(command string, maxPos int) error {
	for k := range a.flags {
		return fmt.Errorf("%s does not take --%s: %s", command, k, usageOf(command))
	}
	if len(a.pos) > maxPos {
		return fmt.Errorf("%s: unexpected argument %q: %s", command, a.pos[maxPos], usageOf(command))
	}
	return nil
}

// usageOf is the command's usage line for a refusal.
func usageOf(command string) string {
	if c, ok := commands[command]; ok {
		return "usage: arbiter " + c.usage
	}
	return "see 'arbiter help'"
}

// parseTime reads an RFC 3339 instant with optional fractional seconds.
func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a time: write RFC 3339, e.g. 1996-02-10T15:00:00Z or 1996-02-10T10:00:00.250-05:00", s)
	}
	if err := match.CheckInstant(t); err != nil {
		return time.Time{}, err // the year 1, Go's zero time, is no instant of a match either
	}
	return t.UTC(), nil
}

// splitLine splits a script line into words as a POSIX shell would for
// quoting: 'single', "double" (with \" \\ \$ escapes), and backslash escapes.
// No expansions are performed.
func splitLine(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated single quote")
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; ; i++ {
				if i >= len(line) {
					return nil, fmt.Errorf("unterminated double quote")
				}
				if line[i] == '"' {
					break
				}
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(line[i])
			}
		case c == '\\':
			inWord = true
			if i+1 >= len(line) {
				return nil, fmt.Errorf("a backslash ends the line")
			}
			i++
			cur.WriteByte(line[i])
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// parseOffset reads a script line's OFFSET: H:MM:SS[.fff] after the start, or
// an RFC 3339 instant.
func parseOffset(s string, start time.Time) (time.Time, error) {
	if strings.Contains(s, "T") {
		return parseTime(s)
	}
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return time.Time{}, fmt.Errorf("%q is not an offset: write H:MM:SS[.fff] after the script's start, or an RFC 3339 time", s)
	}
	h, err1 := strconv.Atoi(parts[0])
	m, err2 := strconv.Atoi(parts[1])
	secs := parts[2]
	frac := ""
	if i := strings.IndexByte(secs, '.'); i >= 0 {
		secs, frac = secs[:i], secs[i+1:]
	}
	sec, err3 := strconv.Atoi(secs)
	bad := err1 != nil || err2 != nil || err3 != nil || h < 0 || h > 1000 || m < 0 || m > 59 || sec < 0 || sec > 59 || len(parts[1]) != 2 || len(secs) != 2 || len(frac) > 9
	ns := 0
	if frac != "" {
		for _, r := range frac {
			if r < '0' || r > '9' {
				bad = true
			}
		}
		if !bad {
			ns, _ = strconv.Atoi((frac + "000000000")[:9])
		}
	} else if strings.HasSuffix(parts[2], ".") {
		bad = true
	}
	if bad {
		return time.Time{}, fmt.Errorf("%q is not an offset: write H:MM:SS[.fff] after the script's start, or an RFC 3339 time", s)
	}
	d := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second + time.Duration(ns)
	return start.Add(d), nil
}
