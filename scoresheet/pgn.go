package scoresheet

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/notnil/chess"

	"arbiter/clock"
)

// Tag is one PGN tag pair.
type Tag struct{ Name, Value string }

// PGNGame is one game to write.
type PGNGame struct {
	// Tags in any order. The writer puts the Seven Tag Roster (Event, Site,
	// Date, Round, White, Black, Result) first, filling "?" (Date
	// "????.??.??", Result from the Result field) for missing ones, then the
	// rest in the given order.
	Tags []Tag
	// StartFEN, when non-empty, is written as [SetUp "1"] and [FEN "..."]
	// (unless Tags has them) and sets the first move number and colour.
	StartFEN string
	// Intro, when non-empty, is a comment before the first move: what
	// happened before it (ReadGame.Intro reads it back).
	Intro  string
	Moves  []PGNMove
	Result string // "1-0" "0-1" "1/2-1/2" "*"; "" is written as "*"
	// Final, when non-empty, is how the game ended: it is added to the last
	// move's comment, or written before the result when there are no moves.
	Final string
}

// PGNMove is one move, the text of its one comment ("" for none) and the
// variations that follow it. A variation is an alternative to this move:
// its first move is played from the position before this move.
type PGNMove struct {
	SAN        string
	Comment    string
	Variations [][]PGNMove
}

var sevenTags = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

const lineWidth = 80

// WritePGN writes games in PGN export format: tags, a blank line, the
// movetext wrapped at 80 columns, a blank line between games. White moves
// are preceded by "N.", a black move by "N..." when it follows a comment or
// starts the game. Comments are sanitised: invalid UTF-8 and control
// characters become spaces or U+FFFD, '}' becomes ')', and no line of
// output starts with '%'.
func WritePGN(w io.Writer, games []PGNGame) error {
	bw := bufio.NewWriter(w)
	for i, g := range games {
		if i > 0 {
			bw.WriteString("\n")
		}
		if err := writeGame(bw, g); err != nil {
			return fmt.Errorf("pgn: game %d: %w", i+1, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("pgn: write: %w", err)
	}
	return nil
}

var sanToken = regexp.MustCompile(`^(?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=[QRBN])?|O-O(?:-O)?)[+#]?$`)

func writeGame(w *bufio.Writer, g PGNGame) error {
	result := g.Result
	switch result {
	case "":
		result = "*"
	case "1-0", "0-1", "1/2-1/2", "*":
	default:
		return fmt.Errorf("result %q is not one of 1-0, 0-1, 1/2-1/2, *", g.Result)
	}
	given := map[string]string{}
	for _, t := range g.Tags {
		if _, ok := given[t.Name]; !ok {
			given[t.Name] = t.Value
		}
	}
	for _, name := range sevenTags {
		v, ok := given[name]
		if !ok {
			switch name {
			case "Date":
				v = "????.??.??"
			case "Result":
				v = result
			default:
				v = "?"
			}
		}
		writeTag(w, name, v)
	}
	if g.StartFEN != "" {
		if _, ok := given["SetUp"]; !ok {
			writeTag(w, "SetUp", "1")
		}
		if _, ok := given["FEN"]; !ok {
			writeTag(w, "FEN", g.StartFEN)
		}
	}
	seven := map[string]bool{}
	for _, n := range sevenTags {
		seven[n] = true
	}
	done := map[string]bool{}
	for _, t := range g.Tags {
		if seven[t.Name] || done[t.Name] {
			continue
		}
		done[t.Name] = true
		writeTag(w, t.Name, t.Value)
	}
	w.WriteString("\n")

	num, black := 1, false
	if g.StartFEN != "" {
		f := strings.Fields(g.StartFEN)
		if len(f) == 6 {
			black = f[1] == "b"
			if n, err := strconv.Atoi(f[5]); err == nil && n > 0 {
				num = n
			}
		}
	}
	lw := lineWriter{w: w}
	if c := sanitizeComment(g.Intro); c != "" {
		lw.comment(c)
	}
	moves := g.Moves
	if g.Final != "" && len(moves) > 0 {
		// One comment per move (chess.js reads no more): the final comment
		// joins the last move's.
		moves = append([]PGNMove(nil), moves...)
		last := &moves[len(moves)-1]
		last.Comment = strings.TrimSpace(last.Comment + " " + g.Final)
	}
	if err := writeMoves(&lw, moves, num, black, 0); err != nil {
		return err
	}
	if c := sanitizeComment(g.Final); c != "" && len(moves) == 0 {
		lw.comment(c)
	}
	lw.unit(result)
	lw.flush()
	return nil
}

// writeMoves writes moves from move number num (black: Black to move),
// each with its comment and variations. depth is the variation depth (0:
// the game's own moves); variations nest at most a few levels.
func writeMoves(lw *lineWriter, moves []PGNMove, num int, black bool, depth int) error {
	if depth > 8 {
		return fmt.Errorf("variations nest deeper than 8 levels")
	}
	needNumber := true
	for i, m := range moves {
		if !sanToken.MatchString(m.SAN) {
			if depth > 0 {
				return fmt.Errorf("variation move %d: %q is not a SAN move", i+1, m.SAN)
			}
			return fmt.Errorf("move %d: %q is not a SAN move", i+1, m.SAN)
		}
		switch {
		case !black:
			lw.unit(strconv.Itoa(num)+".", m.SAN)
		case needNumber:
			lw.unit(strconv.Itoa(num)+"...", m.SAN)
		default:
			lw.unit(m.SAN)
		}
		needNumber = false
		if c := sanitizeComment(m.Comment); c != "" {
			lw.comment(c)
			needNumber = true
		}
		for _, v := range m.Variations {
			if len(v) == 0 {
				continue
			}
			lw.open()
			if err := writeMoves(lw, v, num, black, depth+1); err != nil {
				return err
			}
			lw.close()
			needNumber = true
		}
		if black {
			num++
		}
		black = !black
	}
	return nil
}

func writeTag(w *bufio.Writer, name, value string) {
	name = strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			return r
		}
		return '_'
	}, name)
	if name == "" {
		name = "_"
	}
	v := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(sanitizeText(value))
	fmt.Fprintf(w, "[%s \"%s\"]\n", name, v)
}

// sanitizeText makes s valid UTF-8 on one line: invalid bytes become
// U+FFFD, control characters (newlines included) become spaces.
func sanitizeText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

// sanitizeComment is the text of a comment as written: one line of valid
// UTF-8 without '}' ('}' becomes ')'), runs of spaces collapsed.
func sanitizeComment(s string) string {
	s = strings.ReplaceAll(sanitizeText(s), "}", ")")
	return strings.Join(strings.Fields(s), " ")
}

// lineWriter fills lines of at most lineWidth columns. A unit (e.g. "12."
// and its move) is kept together when it fits.
type lineWriter struct {
	w    *bufio.Writer
	line string
	glue bool // a variation was opened: "(" goes before the next unit
}

func (l *lineWriter) word(s string) {
	switch {
	case l.line == "":
		l.line = s
	case utf8.RuneCountInString(l.line)+1+utf8.RuneCountInString(s) <= lineWidth:
		l.line += " " + s
	default:
		l.w.WriteString(l.line + "\n")
		l.line = s
	}
}

func (l *lineWriter) unit(parts ...string) {
	word := strings.Join(parts, " ")
	if l.glue {
		l.glue = false
		word = "(" + word
	}
	l.word(word)
}

// open starts a variation: "(" is glued to the first move that follows.
func (l *lineWriter) open() { l.glue = true }

// close ends a variation: ")" is glued to what was written last.
func (l *lineWriter) close() {
	l.glue = false
	if l.line == "" {
		l.line = ")"
		return
	}
	if utf8.RuneCountInString(l.line)+1 > lineWidth {
		// Move the last word to the next line with its ")".
		i := strings.LastIndexByte(l.line, ' ')
		for i > 0 && strings.HasPrefix(l.line[i+1:], "%") {
			// A line never starts with '%' (an escape line): move one word more.
			i = strings.LastIndexByte(l.line[:i], ' ')
		}
		if i > 0 {
			last := l.line[i+1:]
			l.w.WriteString(l.line[:i] + "\n")
			l.line = last + ")"
			return
		}
	}
	l.line += ")"
}

// comment writes {text}, breaking it between words. A word that starts with
// '%' is never put at the start of a line (that would make the line an
// escape line); a word longer than a line is split.
func (l *lineWriter) comment(text string) {
	words := strings.Fields(text)
	var units []string
	for i, wd := range words {
		if i == 0 {
			wd = "{" + wd
		}
		if i == len(words)-1 {
			wd += "}"
		}
		if strings.HasPrefix(wd, "%") && len(units) > 0 {
			units[len(units)-1] += " " + wd
			continue
		}
		units = append(units, wd)
	}
	for _, u := range units {
		for utf8.RuneCountInString(u) > lineWidth {
			r := []rune(u)
			cut := lineWidth
			for cut > 1 && r[cut-1] == '%' || cut > 1 && r[cut] == '%' {
				cut--
			}
			l.word(string(r[:cut]))
			u = string(r[cut:])
		}
		l.word(u)
	}
}

func (l *lineWriter) flush() {
	if l.line != "" {
		l.w.WriteString(l.line + "\n")
		l.line = ""
	}
}

// ReadGame is one game as read by ReadPGN.
type ReadGame struct {
	Tags     []Tag
	Moves    []string // SAN as read
	Comments []string // per move, "" if none; several comments after one move are joined with a space
	Intro    string   // comment(s) before the first move
	Result   string   // the termination marker; "" if the game had none
	FinalFEN string
}

// Tag returns the value of the named tag and whether it is present.
func (g ReadGame) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// ReadPGN reads every game of a PGN file and replays its moves with
// ParseMove (from the SetUp/FEN position when given). It never panics and
// never drops a game silently: any problem is an error naming the game and
// line, e.g. "pgn: game 3 (line 57): move 24... Qh4+ is not legal: ...".
// Comments ({...} and ;...), NAGs, variations, move numbers and escape
// lines (% in the first column) are handled; CRLF line ends are accepted.
func ReadPGN(r io.Reader) ([]ReadGame, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("pgn: read: %w", err)
	}
	p := &pgnReader{src: []rune(strings.ToValidUTF8(string(data), "\uFFFD")), line: 1, col: 0}
	return p.read()
}

type pgnReader struct {
	src       []rune
	i         int
	line, col int

	games []ReadGame
	cur   *ReadGame
	pos   *chess.Position
	num   int
	black bool
	// started: the current game has movetext (a move, comment or number).
	started bool
}

func (p *pgnReader) errf(line int, format string, a ...any) error {
	return fmt.Errorf("pgn: game %d (line %d): %s", len(p.games)+1, line, fmt.Sprintf(format, a...))
}

func (p *pgnReader) next() rune {
	r := p.src[p.i]
	p.i++
	if r == '\n' {
		p.line++
		p.col = 0
	} else {
		p.col++
	}
	return r
}

func (p *pgnReader) eof() bool { return p.i >= len(p.src) }

func (p *pgnReader) newGame() {
	p.cur = &ReadGame{}
	p.pos = nil
	p.started = false
}

// begin sets up the position when the first movetext token arrives.
func (p *pgnReader) begin(line int) error {
	if p.cur == nil {
		p.newGame()
	}
	if p.pos != nil {
		return nil
	}
	fen := StandardFEN
	if v, ok := p.cur.Tag("FEN"); ok {
		fen = v
	}
	pos, err := ParseFEN(fen)
	if err != nil {
		return p.errf(line, "%v", err)
	}
	p.pos = pos
	f := strings.Fields(pos.String())
	p.black = f[1] == "b"
	p.num, _ = strconv.Atoi(f[5])
	p.started = true
	return nil
}

func (p *pgnReader) finish(line int) error {
	if p.cur == nil {
		return nil
	}
	if err := p.begin(line); err != nil {
		return err
	}
	p.cur.FinalFEN = p.pos.String()
	p.games = append(p.games, *p.cur)
	p.cur = nil
	p.pos = nil
	return nil
}

func (p *pgnReader) addComment(text string) {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return
	}
	g := p.cur
	if len(g.Moves) == 0 {
		g.Intro = strings.TrimSpace(g.Intro + " " + text)
		return
	}
	n := len(g.Moves) - 1
	g.Comments[n] = strings.TrimSpace(g.Comments[n] + " " + text)
}

var (
	numberRe = regexp.MustCompile(`^(\d+)(\.+|…)(.*)$`)
	glyphRe  = regexp.MustCompile(`^(?:[!?]+|\.+|…)$`)
)

func (p *pgnReader) read() ([]ReadGame, error) {
	for {
		// Skip white space; handle escape lines.
		for !p.eof() && unicode.IsSpace(p.src[p.i]) {
			p.next()
		}
		if p.eof() {
			break
		}
		line := p.line
		c := p.src[p.i]
		if c == '%' && p.col == 0 {
			for !p.eof() && p.src[p.i] != '\n' {
				p.next()
			}
			continue
		}
		switch c {
		case '[':
			if p.cur != nil && p.started {
				// A new tag section without a result: the previous game ended.
				if err := p.finish(line); err != nil {
					return nil, err
				}
			}
			if p.cur == nil {
				p.newGame()
			}
			t, err := p.readTag()
			if err != nil {
				return nil, err
			}
			p.cur.Tags = append(p.cur.Tags, t)
		case '{':
			p.next()
			var b strings.Builder
			for !p.eof() && p.src[p.i] != '}' {
				b.WriteRune(p.next())
			}
			if p.eof() {
				return nil, p.errf(line, "a comment opened with '{' is never closed with '}'")
			}
			p.next()
			if err := p.begin(line); err != nil {
				return nil, err
			}
			p.addComment(b.String())
		case ';':
			var b strings.Builder
			p.next()
			for !p.eof() && p.src[p.i] != '\n' {
				b.WriteRune(p.next())
			}
			if err := p.begin(line); err != nil {
				return nil, err
			}
			p.addComment(b.String())
		case '(':
			if err := p.skipVariation(line); err != nil {
				return nil, err
			}
		case ')':
			return nil, p.errf(line, "a ')' closes a variation that was never opened")
		case ']', '}':
			return nil, p.errf(line, "unexpected %q outside a tag or comment", c)
		case '$':
			p.next()
			for !p.eof() && unicode.IsDigit(p.src[p.i]) {
				p.next()
			}
		default:
			var b strings.Builder
			for !p.eof() && !unicode.IsSpace(p.src[p.i]) && !strings.ContainsRune("[]{}();$", p.src[p.i]) {
				b.WriteRune(p.next())
			}
			if err := p.symbol(b.String(), line); err != nil {
				return nil, err
			}
		}
	}
	if p.cur != nil {
		if err := p.finish(p.line); err != nil {
			return nil, err
		}
	}
	return p.games, nil
}

func (p *pgnReader) readTag() (Tag, error) {
	line := p.line
	p.next() // '['
	bad := func(why string) (Tag, error) {
		return Tag{}, p.errf(line, "malformed tag: %s; write tags as [Name \"value\"]", why)
	}
	for !p.eof() && (p.src[p.i] == ' ' || p.src[p.i] == '\t') {
		p.next()
	}
	var name strings.Builder
	for !p.eof() && (unicode.IsLetter(p.src[p.i]) || unicode.IsDigit(p.src[p.i]) || p.src[p.i] == '_') {
		name.WriteRune(p.next())
	}
	if name.Len() == 0 {
		return bad("the tag has no name")
	}
	for !p.eof() && (p.src[p.i] == ' ' || p.src[p.i] == '\t') {
		p.next()
	}
	if p.eof() || p.src[p.i] != '"' {
		return bad("the value of " + name.String() + " is not in double quotes")
	}
	p.next()
	var v strings.Builder
	for {
		if p.eof() || p.src[p.i] == '\n' {
			return bad("the value of " + name.String() + " is not closed by '\"' on its line")
		}
		r := p.next()
		if r == '\\' && !p.eof() && (p.src[p.i] == '"' || p.src[p.i] == '\\') {
			v.WriteRune(p.next())
			continue
		}
		if r == '"' {
			break
		}
		v.WriteRune(r)
	}
	for !p.eof() && (p.src[p.i] == ' ' || p.src[p.i] == '\t' || p.src[p.i] == '\r') {
		p.next()
	}
	if p.eof() || p.src[p.i] != ']' {
		return bad("the tag " + name.String() + " is not closed by ']'")
	}
	p.next()
	return Tag{Name: name.String(), Value: v.String()}, nil
}

func (p *pgnReader) skipVariation(line int) error {
	depth := 0
	for !p.eof() {
		switch r := p.next(); r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return nil
			}
		case '{':
			for !p.eof() && p.src[p.i] != '}' {
				p.next()
			}
			if p.eof() {
				return p.errf(line, "a comment inside a variation is never closed with '}'")
			}
			p.next()
		case ';':
			for !p.eof() && p.src[p.i] != '\n' {
				p.next()
			}
		}
	}
	return p.errf(line, "a variation opened with '(' is never closed with ')'")
}

func (p *pgnReader) symbol(tok string, line int) error {
	switch tok {
	case "1-0", "0-1", "1/2-1/2", "*":
		if p.cur == nil {
			return p.errf(line, "the result %s stands alone, with no tags or moves before it", tok)
		}
		p.cur.Result = tok
		return p.finish(line)
	}
	if glyphRe.MatchString(tok) {
		return nil
	}
	if g := numberRe.FindStringSubmatch(tok); g != nil {
		if err := p.begin(line); err != nil {
			return err
		}
		if g[3] == "" {
			return nil
		}
		tok = g[3]
	} else if isDigits(tok) {
		if err := p.begin(line); err != nil {
			return err
		}
		return nil
	}
	if err := p.begin(line); err != nil {
		return err
	}
	label := fmt.Sprintf("%d.", p.num)
	if p.black {
		label = fmt.Sprintf("%d...", p.num)
	}
	if tok == "--" || tok == "Z0" {
		return p.errf(line, "move %s %s is a null move, which a game record cannot contain", label, tok)
	}
	m, err := ParseMove(p.pos, tok)
	if err != nil {
		return p.errf(line, "move %s %v", label, err)
	}
	p.pos = p.pos.Update(m)
	p.cur.Moves = append(p.cur.Moves, tok)
	p.cur.Comments = append(p.cur.Comments, "")
	if p.black {
		p.num++
	}
	p.black = !p.black
	return nil
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// PGN builds the game for WritePGN from the record. Each move's comment
// holds, in this order: "(=)" when the mover offered a draw, "[%clk H:MM:SS]"
// (the mover's clock after the move) and "[%emt H:MM:SS]" (Entry.Elapsed: the
// running time of the mover's turn up to the press, delay included, stopped
// time excluded) when the match layer set At, then the notes. The time
// charged follows from consecutive [%clk]. result "" means "*".
func (s *Sheet) PGN(tags []Tag, result string) PGNGame {
	g := PGNGame{Tags: append([]Tag(nil), tags...), Result: result}
	if s.startFEN != StandardFEN {
		g.StartFEN = s.startFEN
	}
	for _, e := range s.entries {
		var parts []string
		if e.DrawOffer {
			parts = append(parts, "(=)")
		}
		if !e.At.IsZero() {
			clk := e.ClockWhite
			if e.Color == chess.Black {
				clk = e.ClockBlack
			}
			parts = append(parts, "[%clk "+clock.FormatShown(clk)+"]", "[%emt "+clock.FormatShown(e.Elapsed)+"]")
		}
		parts = append(parts, e.Notes...)
		g.Moves = append(g.Moves, PGNMove{SAN: e.SAN, Comment: strings.Join(parts, " ")})
	}
	return g
}

// Values the PGN standard (1994, §8.1.1 and §9) allows for the tags it
// defines.
var (
	// TerminationValues are §9.8.1's values of the Termination tag.
	TerminationValues = []string{"abandoned", "adjudication", "death", "emergency", "normal", "rules infraction", "time forfeit", "unterminated"}
	// PlayerTypes are §9.3.1's values of WhiteType and BlackType.
	PlayerTypes = []string{"human", "program"}

	dateRe      = regexp.MustCompile(`^(?:\d{4}|\?{4})\.(?:\d\d|\?\?)\.(?:\d\d|\?\?)$`)
	timeRe      = regexp.MustCompile(`^\d\d:\d\d:\d\d$`)
	roundRe     = regexp.MustCompile(`^(?:\?|-|\d+(?:\.\d+)*)$`)
	tcFieldRe   = regexp.MustCompile(`^(?:\d+/\d+|\d+|\d+\+\d+|\*\d+)$`)
	plyCountRe  = regexp.MustCompile(`^\d+$`)
	resultTagRe = regexp.MustCompile(`^(?:1-0|0-1|1/2-1/2|\*)$`)
)

// ValidTimeControl reports whether s is a TimeControl value by §9.6.1: "?",
// "-", or fields "moves/seconds", "seconds", "seconds+increment" or
// "*seconds" separated by ":".
func ValidTimeControl(s string) bool {
	if s == "?" || s == "-" {
		return true
	}
	for _, f := range strings.Split(s, ":") {
		if !tcFieldRe.MatchString(f) {
			return false
		}
	}
	return true
}

// TagProblems checks the tags the standard defines against its lists and
// formats and returns one sentence per problem (nil when all are right):
// the Seven Tag Roster present, Date/UTCDate "YYYY.MM.DD", UTCTime
// "HH:MM:SS", Round, Result, TimeControl (§9.6.1), WhiteType/BlackType
// (§9.3.1), Termination (§9.8.1), PlyCount. Tags the standard does not
// define are allowed and not checked.
func TagProblems(tags []Tag) []string {
	var out []string
	seen := map[string]bool{}
	in := func(v string, list []string) bool {
		for _, x := range list {
			if v == x {
				return true
			}
		}
		return false
	}
	for _, t := range tags {
		if seen[t.Name] {
			out = append(out, fmt.Sprintf("the tag %s is given twice", t.Name))
		}
		seen[t.Name] = true
		bad := false
		switch t.Name {
		case "Date", "UTCDate", "EventDate":
			bad = !dateRe.MatchString(t.Value)
		case "UTCTime", "Time":
			bad = !timeRe.MatchString(t.Value)
		case "Round":
			bad = !roundRe.MatchString(t.Value)
		case "Result":
			bad = !resultTagRe.MatchString(t.Value)
		case "TimeControl":
			bad = !ValidTimeControl(t.Value)
		case "WhiteType", "BlackType":
			bad = !in(t.Value, PlayerTypes)
		case "Termination":
			bad = !in(t.Value, TerminationValues)
		case "PlyCount":
			bad = !plyCountRe.MatchString(t.Value)
		case "Mode":
			bad = !in(t.Value, []string{"OTB", "PM", "EM", "ICS", "TC"})
		}
		if bad {
			out = append(out, fmt.Sprintf("the tag %s has the value %q, which the PGN standard does not allow", t.Name, t.Value))
		}
	}
	for _, n := range sevenTags {
		if !seen[n] {
			out = append(out, fmt.Sprintf("the tag %s of the Seven Tag Roster is missing", n))
		}
	}
	return out
}
