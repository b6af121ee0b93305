package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/notnil/chess"

	"arbiter/clock"
	"arbiter/match"
	"arbiter/scoresheet"
)

// MatchPGN is the PGN of game n of the match, or of every game started so far
// when n is 0 (games never started, postponed or forfeited without play are
// left out). See the package documentation for the tags and comments.
func MatchPGN(st *match.State, n int) []scoresheet.PGNGame {
	var out []scoresheet.PGNGame
	if st == nil || st.Match == nil {
		return out
	}
	for _, g := range st.Games {
		if g.Sheet == nil || (n != 0 && g.Number != n) {
			continue
		}
		out = append(out, gamePGN(st, g, false))
	}
	return out
}

// MatchPGNMainLine is MatchPGN as a relay reads a live game: the movetext
// is the game as it stands, and each run of moves a correction struck out
// is said in the comment of the move before it (in the comment before the
// first move when it began there), with what happened after its moves —
// the stop that opened the correction — in the order things happened:
// "[%evt pause …] … struck out: operator error, rule 10: REASON: 16...
// Rb7 17. Qa4 (#113 Arbiter: pause …)". Before, the live feed dropped the
// variation and with it the struck moves and every incident placed after
// them (TestTheLiveFeedSaysTheStruckMovesAndWhatHappenedAfterThem).
func MatchPGNMainLine(st *match.State, n int) []scoresheet.PGNGame {
	var out []scoresheet.PGNGame
	if st == nil || st.Match == nil {
		return out
	}
	for _, g := range st.Games {
		if g.Sheet == nil || (n != 0 && g.Number != n) {
			continue
		}
		out = append(out, gamePGN(st, g, true))
	}
	return out
}

// WritePGN writes MatchPGN(st, n) to w. It fails when there is nothing to
// write: no match, or game n not started.
func WritePGN(w io.Writer, st *match.State, n int) error {
	games, err := pgnGames(st, n)
	if err != nil {
		return err
	}
	if err := scoresheet.WritePGN(w, games); err != nil {
		return fmt.Errorf("report: write PGN: %w", err)
	}
	return nil
}

// CheckPGN refuses what WritePGN would refuse (no match, game n not
// there or not started, no game started), before anything is done for the
// export: the command line checks it before an export given with --pin has
// the arbiter sign the head, which a refused export did before.
func CheckPGN(st *match.State, n int) error {
	_, err := pgnGames(st, n)
	return err
}

// pgnGames is the PGN of every game started, or of game n, or the refusal.
func pgnGames(st *match.State, n int) ([]scoresheet.PGNGame, error) {
	if st == nil || st.Match == nil {
		return nil, fmt.Errorf("report: there is no match in this record: create one with 'arbiter match new' first")
	}
	games := MatchPGN(st, n)
	if len(games) == 0 {
		if n != 0 {
			if st.Game(n) == nil {
				return nil, fmt.Errorf("report: there is no game %d: the match has games 1 to %d", n, len(st.Games))
			}
			return nil, fmt.Errorf("report: game %d has not started: there are no moves to export yet", n)
		}
		return nil, fmt.Errorf("report: no game has started yet: there is nothing to export")
	}
	return games, nil
}

func gamePGN(st *match.State, g *match.Game, mainLine bool) scoresheet.PGNGame {
	m := st.Match
	loc := m.Location()
	date, utcDate, utcTime := "????.??.??", "????.??.??", ""
	if !g.Started.IsZero() {
		date = g.Started.In(loc).Format("2006.01.02")
		utcDate = g.Started.UTC().Format("2006.01.02")
		utcTime = g.Started.UTC().Format("15:04:05")
	}
	result := g.Result
	if result == "" || !g.Over() {
		result = "*"
	}
	tags := []scoresheet.Tag{
		{Name: "Event", Value: orQ(m.Title)},
		{Name: "Site", Value: orQ(m.Site)},
		{Name: "Date", Value: date},
		{Name: "Round", Value: strconv.Itoa(g.Number)},
		{Name: "White", Value: orQ(PGNName(g.White, g.White == m.Computer))},
		{Name: "Black", Value: orQ(PGNName(g.Black, g.Black == m.Computer))},
		{Name: "Result", Value: result},
	}
	add := func(name, value string) { tags = append(tags, scoresheet.Tag{Name: name, Value: value}) }
	if m.Arbiter != "" {
		add("Annotator", PGNName(m.Arbiter, false))
	}
	add("UTCDate", utcDate)
	if utcTime != "" {
		add("UTCTime", utcTime)
	}
	add("Mode", "OTB")
	wc, bc := g.Clock.Control(clock.White), g.Clock.Control(clock.Black)
	if wc.String() == bc.String() {
		add("TimeControl", PGNTimeControl(wc))
		add("ArbiterTimeControl", wc.String())
	} else {
		add("TimeControl", "?")
		add("WhiteTimeControl", PGNTimeControl(wc))
		add("BlackTimeControl", PGNTimeControl(bc))
		add("ArbiterWhiteTimeControl", wc.String())
		add("ArbiterBlackTimeControl", bc.String())
	}
	add("WhiteType", playerType(m, g.White))
	add("BlackType", playerType(m, g.Black))
	term := "unterminated"
	if g.Over() {
		term = StandardTermination(g.Termination)
	}
	entries := g.Sheet.Entries()
	add("Termination", term)
	add("PlyCount", strconv.Itoa(len(entries)))
	if m.Arbiter != "" {
		add("Arbiter", m.Arbiter)
	}
	if m.TimeZone != "" {
		add("ArbiterTimeZone", m.TimeZone)
	}
	pg := scoresheet.PGNGame{Tags: tags, Result: result}
	if fen := g.Sheet.StartFEN(); fen != scoresheet.StandardFEN {
		pg.StartFEN = fen
	}
	pl := placeIncidents(g)
	// What was logged after the game ended (an appeal, a note) follows the
	// end in the last comment, as it follows it in the record.
	var afterEnd incidents
	if len(entries) > 0 {
		last := entries[len(entries)-1].Ply
		pl.after[last], afterEnd = pl.after[last].splitAfter(endSeq(g))
	} else {
		pl.before, afterEnd = pl.before.splitAfter(endSeq(g))
	}
	struck, unplaced := struckVariations(g, pl)
	inline := map[int][]struckInline{} // main line: the struck runs by the ply before them
	if mainLine {
		for p, runs := range struck {
			for _, v := range runs {
				inline[p-1] = append(inline[p-1], v.inline)
			}
		}
		struck = nil
	}
	for _, e := range entries {
		cmds, notes := withStruck(pl.after[e.Ply], inline[e.Ply])
		pg.Moves = append(pg.Moves, scoresheet.PGNMove{SAN: e.SAN, Comment: moveComment(e, cmds, notes)})
	}
	for i := range pg.Moves {
		for _, v := range struck[i+1] {
			pg.Moves[i].Variations = append(pg.Moves[i].Variations, v.moves)
		}
	}
	if cmds, notes := withStruck(pl.before, inline[0]); len(cmds) > 0 || len(notes) > 0 {
		pg.Intro = strings.TrimSpace(strings.Join(append(cmds, commentText(strings.Join(notes, "; "))), " "))
	}
	final := unplaced
	if g.Over() {
		final = append(final, endNote(g))
	}
	if cmds, notes := afterEnd.words(); len(cmds) > 0 {
		final = append(final, strings.Join(append(cmds, commentText(strings.Join(notes, "; "))), " "))
	}
	pg.Final = strings.Join(final, " ")
	return pg
}

func orQ(s string) string {
	if strings.TrimSpace(s) == "" {
		return "?"
	}
	return s
}

// PGNName is a player's name as PGN tags write it: a person's as "Last,
// First" ("Garry Kasparov" → "Kasparov, Garry", "Jan van der Wiel" → "van der
// Wiel, Jan"); a name that has a comma already, a single word and a
// computer's name (Deep Blue) stay as they are.
func PGNName(name string, computer bool) string {
	name = strings.Join(strings.Fields(name), " ")
	if computer || strings.Contains(name, ",") {
		return name
	}
	w := strings.Fields(name)
	if len(w) < 2 {
		return name
	}
	last := len(w) - 1
	// Lower-case particles (van, der, de, von, da) belong to the last name.
	for last > 1 && isParticle(w[last-1]) {
		last--
	}
	return strings.Join(w[last:], " ") + ", " + strings.Join(w[:last], " ")
}

func isParticle(s string) bool {
	r := []rune(s)
	return len(r) > 0 && r[0] >= 'a' && r[0] <= 'z'
}

func playerType(m *match.Match, name string) string {
	if name != "" && name == m.Computer {
		return "program"
	}
	return "human"
}

// PGNTimeControl is c as a TimeControl value of the PGN standard (§9.6.1):
// "40/7200:20/3600:1800", "5400+30" (an increment only in a final sudden-death
// period), "-" for no control. A control the standard cannot express — a
// delay (7200d5, 7200b5), an increment in a period with a move count
// (40/5400+30:1800+30) — is "?"; ArbiterTimeControl keeps it exactly.
func PGNTimeControl(c clock.Control) string {
	switch c.Mode {
	case clock.Untimed:
		return "-"
	case clock.Timed:
	default:
		return "?"
	}
	if len(c.Periods) == 0 {
		return "?"
	}
	for _, p := range c.Periods {
		switch p.Method {
		case clock.MethodNone:
		case clock.Fischer:
			if p.Moves > 0 {
				return "?"
			}
		default:
			return "?"
		}
	}
	s := c.String()
	if !scoresheet.ValidTimeControl(s) {
		return "?"
	}
	return s
}

// StandardTermination maps the scoresheet's termination to §9.8.1 of the
// PGN standard: mate, stalemate, resignation, agreement, repetition, the
// fifty-move rule and a dead position are "normal"; a fallen flag "time
// forfeit"; the arbiter's decision "adjudication"; a forfeit (6.6, a
// penalty) "rules infraction". The detail goes into the game's last comment.
func StandardTermination(t scoresheet.Termination) string {
	switch t {
	case scoresheet.TermTimeForfeit:
		return "time forfeit"
	case scoresheet.TermArbiter:
		return "adjudication"
	case scoresheet.TermForfeit:
		return "rules infraction"
	case scoresheet.TermNone:
		return "unterminated"
	}
	return "normal"
}

// endNote says how a finished game ended, in the words of the record:
// "[%evt end resignation 1996-02-10T19:43:00Z] Game over: resignation; …".
func endNote(g *match.Game) string {
	term := string(g.Termination)
	if term == "" {
		term = "unknown"
	}
	s := ""
	if !g.Ended.IsZero() {
		s = fmt.Sprintf("[%%evt end %s %s system] ", token(term), evtInstant(g.Ended))
	}
	text := "Game over: " + term
	if g.Reason != "" && !g.ReasonSaidByFlag() { // a flag's verdict is said once, by its incident
		text += " (" + g.Reason + ")"
	}
	return s + commentText(text)
}

// MoveComment is the one comment after a move: "(=) " when the mover offered
// a draw with it, the mover's clock and the time used, then the notes (free
// text, made safe). The entry's own Notes are not used: they repeat
// incidents that the caller passes in notes.
func MoveComment(e *scoresheet.Entry, notes []string) string {
	return moveComment(e, nil, notes)
}

// moveComment is MoveComment with the incidents' structured commands
// (IncidentCommand) between the clock commands and the notes.
func moveComment(e *scoresheet.Entry, cmds, notes []string) string {
	var b strings.Builder
	if e.DrawOffer {
		b.WriteString("(=) ")
	}
	left := e.ClockWhite
	if e.Color == chess.Black {
		left = e.ClockBlack
	}
	fmt.Fprintf(&b, "[%%clk %s] [%%emt %s]", clock.FormatShown(left), clock.FormatShown(e.Elapsed))
	for _, c := range cmds {
		b.WriteString(" " + c)
	}
	if len(notes) > 0 {
		b.WriteString(" ")
		b.WriteString(commentText(strings.Join(notes, "; ")))
	}
	return b.String()
}

// placed are the incidents of a game by the move they follow
// (match.Game.Follows), each group in the order they happened.
type placed struct {
	before incidents               // before the first move
	after  map[int]incidents       // after the standing move at ply p
	struck map[struckKey]incidents // after a move struck out since
}

// struckKey names a struck-out move: its ply and the instant it was played.
type struckKey struct {
	ply int
	at  int64
}

func keyOf(e scoresheet.Entry) struckKey { return struckKey{e.Ply, e.At.UnixNano()} }

type incidents []match.Incident

// words are the incidents' structured commands and their notes.
func (ins incidents) words() (cmds, notes []string) {
	for _, in := range ins {
		cmds = append(cmds, IncidentCommand(in))
		notes = append(notes, IncidentNote(in))
	}
	return cmds, notes
}

// splitAfter is ins in two: those recorded up to event seq, and those
// recorded after it (each in the order of ins). seq 0 keeps them all in the
// first.
func (ins incidents) splitAfter(seq int64) (upTo, after incidents) {
	for _, in := range ins {
		if seq > 0 && in.Seq > seq {
			after = append(after, in)
		} else {
			upTo = append(upTo, in)
		}
	}
	return upTo, after
}

// endSeq is the record's event that ended g (its result incident), 0 while
// g is not over or when it is not known.
func endSeq(g *match.Game) int64 {
	if !g.Over() {
		return 0
	}
	var seq int64
	for _, in := range g.Incidents {
		if in.Kind == match.IncidentResult && in.Seq > seq {
			seq = in.Seq
		}
	}
	return seq
}

func placeIncidents(g *match.Game) placed {
	pl := placed{after: map[int]incidents{}, struck: map[struckKey]incidents{}}
	for _, in := range g.ByInstant() {
		switch e := g.Follows(in); {
		case e == nil:
			pl.before = append(pl.before, in)
		case e.Struck:
			pl.struck[keyOf(*e)] = append(pl.struck[keyOf(*e)], in)
		default:
			pl.after[e.Ply] = append(pl.after[e.Ply], in)
		}
	}
	return pl
}

// IncidentCommand is an incident as a structured comment command that a
// program can read (docs/pgn.md):
//
//	[%evt KIND RULE TIME ROLE]   e.g. [%evt pause 6.12a 1996-02-10T18:43:05Z arbiter]
//
// KIND is the incident kind, RULE the rule it applies (ruleToken: "r10",
// "6.12a"; "-" for none), TIME the instant in UTC (RFC 3339), ROLE who
// logged it.
func IncidentCommand(in match.Incident) string {
	role := string(in.Role)
	if role == "" {
		role = "system"
	}
	rule := in.Rule
	if rule == "" {
		rule = "-"
	}
	return fmt.Sprintf("[%%evt %s %s %s %s]", token(in.Kind), ruleToken(rule), evtInstant(in.At), token(role))
}

// evtInstant is an [%evt] command's TIME: the instant in UTC, RFC 3339 to
// the millisecond ("1996-02-11T23:42:46.451Z"), as `status` and the
// record's flag instants say it. Before, it was cut to the second, so two
// adjustments 1.384 s apart read 23:42:45Z and 23:42:46Z and a flag that
// fell at .076 read as its whole second
// (TestTheOutputsSayEachIncidentsInstantToTheMillisecond).
func evtInstant(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// ruleToken writes a rule reference as one word: the match regulations'
// rules as "r10", "r6,7,12", "r8/14"; the FIDE Laws' articles as they are
// ("6.12a", "6.8/6.9").
func ruleToken(rule string) string {
	for _, p := range []string{"rules ", "rule "} {
		if rest, ok := strings.CutPrefix(rule, p); ok {
			return token("r" + strings.ReplaceAll(rest, " ", ""))
		}
	}
	return token(rule)
}

// IncidentNote is an incident as words in a PGN comment, led by the
// record's event that logged it: "#12 Arbiter: pause (6.12a) noise; W
// 1:59:00 B 1:58:00"; an appeal names the decision it contests and a
// decision the appeal it closes ("#15 Black: appeal (rule 19) against #14:
// …"), as the PDF does.
func IncidentNote(in match.Incident) string {
	var b strings.Builder
	role := string(in.Role)
	if role == "" {
		role = "system"
	}
	if n := eventNumber(in); n != "" {
		b.WriteString(n + " ")
	}
	b.WriteString(strings.ToUpper(role[:1]) + role[1:] + ": " + in.Kind)
	if in.Rule != "" {
		b.WriteString(" (" + in.Rule + ")")
	}
	switch {
	case in.Refers == 0:
	case in.Kind == match.IncidentAppeal:
		fmt.Fprintf(&b, " against #%d", in.Refers)
		if in.Text != "" {
			b.WriteString(":")
		}
	case in.Kind == match.IncidentAppealDecision:
		fmt.Fprintf(&b, " on appeal #%d", in.Refers)
		if in.Text != "" {
			b.WriteString(":")
		}
	}
	if in.Text != "" {
		b.WriteString(" " + in.Text)
	}
	if in.Effect != "" {
		b.WriteString(" (" + in.Effect + ")")
	}
	b.WriteString("; " + clocksWords(in))
	return b.String()
}

// clocksWords are both clocks at an incident, exact to the millisecond
// (clock.FormatReading: "W 1:27:32 B 1:00:20.250"); for an adjustment or
// a correction both before and after it: "W 1:27:32.019 B 1:01:03.087
// before, W 1:27:32 B 1:00:20 after". Before, the clocks were cut to the
// second and only those after it were said, so an appeal against a
// clock set again could not be judged from the PGN
// (TestTheOutputsSayTheClocksBeforeAndAfterAnAdjustment).
func clocksWords(in match.Incident) string {
	pair := func(w, b time.Duration) string {
		return "W " + clock.FormatReading(max(w, 0)) + " B " + clock.FormatReading(max(b, 0))
	}
	after := pair(in.WhiteClock, in.BlackClock)
	if in.Before == nil {
		return after
	}
	return pair(in.Before[0], in.Before[1]) + " before, " + after + " after"
}

// token makes s one word of a comment command: spaces become "-", and
// nothing that would end the command or the comment is left.
func token(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '[', ']', '{', '}', '%', ';':
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), "-")
	if s == "" {
		return "-"
	}
	return s
}

// struckRun is the run of moves one correction struck out: they stood at
// plies Entries[0].Ply and on, where the entry now at that ply replaced the
// first of them.
type struckRun struct {
	Entries []scoresheet.Entry
	Cause   string // "operator error, rule 10: REASON"; "" when no correction names it
	Rule    string // "rule 10", "6.13"
}

// struckRuns groups a game's struck-out moves by the correction that struck
// them, in the order of the corrections.
func struckRuns(g *match.Game) []struckRun {
	struck := g.Sheet.Struck()
	var runs []struckRun
	for i, e := range struck {
		if i == 0 || e.Ply != struck[i-1].Ply+1 {
			runs = append(runs, struckRun{})
		}
		runs[len(runs)-1].Entries = append(runs[len(runs)-1].Entries, e)
	}
	k := 0
	for _, in := range g.Incidents {
		if in.Kind == match.IncidentCorrect && k < len(runs) {
			runs[k].Cause, runs[k].Rule = struckCause(in), in.Rule
			k++
		}
	}
	return runs
}

// struckVar is a run of struck moves as a variation (moves) and as the
// note that says it in the main line's comment (inline).
type struckVar struct {
	moves  []scoresheet.PGNMove
	inline struckInline
}

// struckInline is a struck run said in a comment: its first move's
// instant (it stands among the comment's incidents by it), the commands
// of what happened after its moves, and the words.
type struckInline struct {
	at   time.Time
	cmds []string
	note string
}

// withStruck are the commands and notes of a comment: the incidents ins
// and the struck runs said inline, each run before the incidents that
// happened after its first move.
func withStruck(ins incidents, runs []struckInline) (cmds, notes []string) {
	i := 0
	for _, run := range runs {
		for ; i < len(ins) && ins[i].At.Before(run.at); i++ {
			cmds, notes = append(cmds, IncidentCommand(ins[i])), append(notes, IncidentNote(ins[i]))
		}
		cmds, notes = append(cmds, run.cmds...), append(notes, run.note)
	}
	for ; i < len(ins); i++ {
		cmds, notes = append(cmds, IncidentCommand(ins[i])), append(notes, IncidentNote(ins[i]))
	}
	return cmds, notes
}

// struckVariations are the moves struck out by corrections, as variations:
// vars[p] follow ply p, the move that replaced the first struck move.
// A run of moves struck by one correction is one variation, its last move
// commented "struck out: operator error, rule 10: REASON". A struck run
// whose replacement has not been played yet, or that no longer fits the
// position, is returned as a note instead.
func struckVariations(g *match.Game, pl placed) (vars map[int][]struckVar, notes []string) {
	vars = map[int][]struckVar{}
	entries := g.Sheet.Entries()
	for _, run := range struckRuns(g) {
		why := "struck out"
		if run.Cause != "" {
			why += ": " + run.Cause
		}
		p := run.Entries[0].Ply // the replacement is the entry at ply p
		// the moves named, each followed by what happened after it
		var parts []string
		for _, e := range run.Entries {
			parts = append(parts, e.Label())
			if cmds, ns := pl.struck[keyOf(e)].words(); len(cmds) > 0 {
				parts = append(parts, "("+strings.Join(ns, "; ")+")")
			}
		}
		said := commentText(why + ": " + strings.Join(parts, " "))
		if p > len(entries) || !fits(g.Sheet, p, run.Entries) {
			notes = append(notes, struckCommands(pl, run)+said)
			continue
		}
		in := struckInline{at: run.Entries[0].At, note: said}
		for _, e := range run.Entries {
			cmds, _ := pl.struck[keyOf(e)].words()
			in.cmds = append(in.cmds, cmds...)
		}
		var v []scoresheet.PGNMove
		for _, e := range run.Entries {
			cmds, ns := pl.struck[keyOf(e)].words()
			c := strings.Join(cmds, " ")
			if len(ns) > 0 {
				c += " " + commentText(strings.Join(ns, "; "))
			}
			if !e.At.IsZero() {
				// the struck move's clock and time, as it stood when it
				// was made: when the wrong move was made and what it cost
				// (TestAStruckMoveKeepsItsClockInTheVariation)
				c = moveComment(&e, cmds, ns)
			}
			v = append(v, scoresheet.PGNMove{SAN: e.SAN, Comment: strings.TrimSpace(c)})
		}
		last := &v[len(v)-1]
		sep := "; "
		if last.Comment == "" {
			sep = ""
		}
		last.Comment += sep + commentText(why)
		vars[p] = append(vars[p], struckVar{moves: v, inline: in})
	}
	return vars, notes
}

// struckCommands are the structured commands of the incidents that
// followed the moves of a struck run, each followed by a space.
func struckCommands(pl placed, run struckRun) string {
	var b strings.Builder
	for _, e := range run.Entries {
		cmds, _ := pl.struck[keyOf(e)].words()
		for _, c := range cmds {
			b.WriteString(c + " ")
		}
	}
	return b.String()
}

// struckCause is the cause of a correction in a few words: "operator error,
// rule 10: REASON" or "irregularity, 6.13: REASON".
func struckCause(in match.Incident) string {
	cause := "operator error"
	if in.Rule == "6.13" {
		cause = "irregularity"
	}
	s := cause + ", " + in.Rule
	// The correction's text ends "…(method): REASON".
	if _, reason, ok := strings.Cut(in.Text, "): "); ok && reason != "" {
		s += ": " + reason
	}
	return s
}

// fits reports whether the struck run can be replayed from the position
// before ply p of the sheet (a variation must be legal where it stands).
func fits(s *scoresheet.Sheet, p int, run []scoresheet.Entry) bool {
	fen := s.StartFEN()
	if p > 1 {
		fen = s.Entries()[p-2].FENAfter
	}
	pos, err := scoresheet.ParseFEN(fen)
	if err != nil {
		return false
	}
	for _, e := range run {
		m, err := scoresheet.ParseMove(pos, e.SAN)
		if err != nil {
			return false
		}
		pos = pos.Update(m)
	}
	return true
}

// commentText makes free text safe inside a PGN comment: no braces, no
// "[%" that a reader would take for a command, no line breaks, no "%" at the
// start of a line.
func commentText(s string) string {
	s = strings.NewReplacer("{", "(", "}", ")", "[%", "[ %", "\r", " ", "\n", " ", "\t", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}
