package unwinnable

import (
	"fmt"
	"math/bits"
	"strings"

	"arbiter/internal/phrase"
)

// Verdict is the answer to "can winner still checkmate?".
type Verdict int

// The three verdicts.
const (
	// Undetermined: the node limit was reached before a proof either way.
	Undetermined Verdict = iota
	// Unwinnable: no series of legal moves ends in a checkmate by winner.
	Unwinnable
	// Winnable: a helpmate exists; Result.Line is one.
	Winnable
)

func (v Verdict) String() string {
	switch v {
	case Unwinnable:
		return "unwinnable"
	case Winnable:
		return "winnable"
	}
	return "undetermined"
}

// Result is a verdict with its proof: for Winnable the helpmate as UCI moves
// from the given position (empty when the loser is already checkmated), for
// Unwinnable the reason in one sentence, for Undetermined why.
//
// Reason is the sentence in English (what 'arbiter unwinnable' prints); Why
// is the same sentence as a code (its English format) and arguments, for a
// face to say in its own language (phrase.Translate): colours, pieces and
// square colours are phrase.Word arguments.
type Result struct {
	Verdict Verdict
	Line    []string
	Reason  string
	Why     *phrase.Error
	// Nodes: the positions visited in all; ProofNodes of them went into
	// making the helpmate short, after the verdict was settled.
	Nodes, ProofNodes int
	// stage: the stage that settled the verdict (for measuring where the
	// positions go).
	stage string
}

// because is a result whose reason is why, begun with a capital letter:
// its format is capitalised (a format beginning with a verb such as %s is
// followed by a colour, already capitalised), so that Why says exactly
// Reason in English.
func because(v Verdict, line []string, why *phrase.Error) Result {
	why = phrase.Errorf(capitalise(why.Format), why.Args...)
	return Result{Verdict: v, Line: line, Reason: why.Error(), Why: why}
}

// Proof is the proof as one line of text: the helpmate's moves separated by
// single spaces (empty when the loser is already checkmated), or the reason.
func (r Result) Proof() string {
	if r.Verdict == Winnable {
		return strings.Join(r.Line, " ") // empty: the loser is already checkmated
	}
	if r.Reason != "" && !strings.HasSuffix(r.Reason, ".") {
		return r.Reason + "."
	}
	return r.Reason
}

// Making a helpmate found short: a full-width search of at most
// shortPlies plies within shortBudget positions; each stage may spend a few
// times what finding the first line cost, and at least shortFloor
// positions.
const (
	shortPlies  = 6
	shortBudget = 20_000
	shortFloor  = 4_000
	longLine    = 24
	// shortenBudget: positions looked at when a found helpmate is made
	// shorter.
	shortenBudget = 50_000
	// improveBudget: positions of the search for a shorter helpmate than
	// the first one found.
	improveBudget = 50_000
	// wImprove: the weight of a ply in that search's score, in quarters
	// (tuned on the lichess rows of the reference files: a heavier weight
	// finds shorter lines where it finds any, but finds far fewer).
	wImprove     = 1
	wImproveMuch = 16
)

// firstRound: the positions of the first best-first search; most
// positions of real games need far fewer. lateRound: the rounds' budget
// a search from which the late stages (the full-width proof, the
// exhaustive search of closed positions, the progress search's second
// run) come first.
const (
	firstRound = 2_000
	// probe: the first search's positions before the static stages.
	probe     = 300
	lateRound = 8_000
	// minorTargets, minorBudget: the shapes of mate a lone minor piece's
	// search is steered to, nearest first, and the positions of each.
	minorTargets = 16
	minorBudget  = 2_000
	minorDepth   = 1
	// minorRoundTargets: the nearest shapes searched again in each round
	// with the round's positions; the others of the minorTargets listed
	// get a minorFarShare-th of them each (a shape far down the list can
	// be the one that mates: Bk6/2b4B/3b2B1/5B2/4B3/p1pB1B2/PpP1B3/1K6 w
	// mates from the 12th). A half before the deepening search (issue
	// 29), which now gets as much as all the shapes but the nearest four.
	minorRoundTargets = 4
	minorFarShare     = 4
)

// roundSearches: the best-first searches of the rounds after the first,
// in turn. Measured each alone on every 10th lichess row of
// unwinnable-chasolver.tsv (4,279 rows searched) at 50,000 positions, and
// the schedule chosen by replaying those counts: the first search alone
// with 20,000 positions, then rounds from 20,000 (as before), 863
// positions a row, 18 rows undetermined; the first with 2,000, then these
// from 4,000, 490 a row, none undetermined.
var roundSearches = []struct {
	block    int
	simplify bool
	offer    bool
	change   bool
	corners  bool
	noise    int
	w        weights
	name     string
	deep     bool
}{
	// The loser's pieces offered on the capture squares of the winner's
	// blocked pawns, a pawn set free run to promotion (offerScore); only
	// where each of the winner's pawns stands behind a pawn. First in the
	// round: on the reference files at 50,000 positions, 465 rows
	// undetermined against 479 with it last (497 without it). Its score
	// counts the corners of the winner's bishops' colour as well where
	// they and its pawns check only on that colour (corners; branch
	// w22a: 397 -> 386 undetermined on the reference files).
	{2, true, true, false, true, 0, nearMate, "offer", false},
	// The loser's pieces counted (it offers them to the winner's few
	// men), another order among near-equal positions.
	{2, true, false, false, false, 8, nearMate, "simplify", false},
	// The deepening search (deepen.go; issue 29), in the place of the
	// greedy search (the first weights of all): depth-first runs with
	// iterative deepening, each in its own order of the moves, that no
	// plateau of equal scores holds up. On the reference files at the
	// default limit: every row still decided, 110.3 M -> 101.3 M
	// positions; on 2,000 generated crowds of one side's bishops against
	// a queen and rooks, 240 undetermined -> 2.
	{2, false, false, false, false, 0, greedy, "deepen", true},
	// The loser's men next to its king weigh more (the mates where they
	// box their king in). Where no pawn of the winner can promote nor
	// take a pawn as the pawns stand (fileChangeRoot), it counts the
	// moves to a pawn's capture onto a file clear ahead and its
	// promotion as well (changeSteps), and is called the change search
	// (branch w24a: a search of its own beside the four cost rows that
	// the simplify and block searches decided near 50,000 positions; in
	// place of the block search it costs none on the reference files).
	{8, false, false, true, false, 0, nearMate, "block", false},
}

// DefaultLimit is the node limit of Analyse when none is given.
const DefaultLimit = 2_000_000

// ParseColour reads "white" or "black".
func ParseColour(s string) (int, error) {
	switch s {
	case "white":
		return White, nil
	case "black":
		return Black, nil
	}
	return 0, fmt.Errorf("the intended winner is %q: write white or black", s)
}

// AnalyseFEN is Analyse on a FEN with 4 or 6 fields.
func AnalyseFEN(fen string, winner int, limit int) (Result, error) {
	b, err := ParseFEN(fen)
	if err != nil {
		return Result{}, err
	}
	return Analyse(b, winner, limit), nil
}

// Options of AnalyseWith.
type Options struct {
	// Limit: the positions the verdict may visit (DefaultLimit if <= 0).
	Limit int
	// Short: a helpmate found is made as short as the shortening stages
	// can within their own budgets — the proof a person reads (the flag
	// verdict, 'arbiter unwinnable --short'). Otherwise the helpmate is the
	// line as found: the verdict needs any helpmate, and shortening it
	// costs several times what finding it did.
	Short bool
	// noDeepen: the rounds without the deepening search (the tests of
	// the other searches, which it often beats to a line).
	noDeepen bool
}

// Analyse decides whether winner can still checkmate from b by any series
// of legal moves, visiting at most limit positions (DefaultLimit if limit
// <= 0), and makes a helpmate found short (Options.Short): the verdict
// shown to the arbiter.
func Analyse(b *Board, winner int, limit int) Result {
	return AnalyseWith(b, winner, Options{Limit: limit, Short: true})
}

// AnalyseWith is Analyse with options.
func AnalyseWith(b *Board, winner int, o Options) Result {
	if o.Limit <= 0 {
		o.Limit = DefaultLimit
	}
	s := &searcher{winner: winner, limit: o.Limit, proven: map[uint64]int16{}, noDeepen: o.noDeepen}
	r := s.analyse(b, o.Short)
	r.Nodes = s.nodes
	r.ProofNodes = s.proofNodes
	r.stage = s.stage
	return r
}

// analyse judges root for s.winner: forced moves played out, then the
// stages of the search in the order they run. It stays one function (the
// 6.9 analyser's search loops may exceed 100 lines, issue 25): the stages
// share the budget, the forced moves' prefix and the searches' state, and
// split apart they would pass all of it around.
func (s *searcher) analyse(root *Board, short bool) Result {
	wn, ln := phrase.Word(colourName(s.winner)), phrase.Word(colourName(1-s.winner))
	b := *root
	var prefix []string
	after := func(reason *phrase.Error) *phrase.Error {
		if len(prefix) == 0 {
			return reason
		}
		return phrase.Errorf("after the forced moves %s, %s", strings.Join(prefix, " "), reason)
	}
	// Forced moves are played out: while the side to move has one legal
	// move, the position after it is the one to judge.
	seen := map[uint64]bool{}
	for {
		switch b.status() {
		case mated:
			if b.stm == s.winner {
				return because(Unwinnable, nil, after(phrase.Errorf("%s is checkmated", wn)))
			}
			return because(Winnable, prefix, after(phrase.Errorf("%s is checkmated", ln)))
		case stalemated:
			return because(Unwinnable, nil, after(phrase.Errorf("%s is stalemated and the game is over", phrase.Word(colourName(b.stm)))))
		}
		if ok, why := materialUnwinnable(&b, s.winner); ok {
			return because(Unwinnable, nil, after(why))
		}
		var l MoveList
		b.Legal(&l)
		if l.N != 1 || seen[b.key] {
			break
		}
		seen[b.key] = true
		prefix = append(prefix, l.Moves[0].UCI())
		b, _ = b.Make(l.Moves[0])
	}
	budget := func(n int) {
		s.aborted = false
		s.limit = s.nodes + n
	}
	total := s.limit
	capped := func(n int) int {
		if left := total - s.nodes; n > left {
			return left
		}
		return n
	}
	// win writes the helpmate found, made short first (the verdict is
	// settled, so that work is not taken from the limit).
	win := func(line []Move, reversed bool, spent int) Result {
		if reversed {
			for i, j := 0, len(line)-1; i < j; i, j = i+1, j-1 {
				line[i], line[j] = line[j], line[i]
			}
		}
		n := s.nodes
		if short {
			line = s.makeShort(&b, line, spent)
		}
		s.proofNodes = s.nodes - n
		out := append([]string(nil), prefix...)
		for _, m := range line {
			out = append(out, m.UCI())
		}
		return because(Winnable, out, phrase.Errorf("%s mates in %d plies", wn, len(out)))
	}
	s.far = bits.OnesCount64(b.all()) <= farMen
	var line []Move
	exhausted := func() Result {
		return because(Unwinnable, nil, after(phrase.Errorf("every position reachable by legal moves was examined and none is a mate by %s", wn)))
	}
	// A greedy best-first look for a helpmate (most positions of real
	// games need a few hundred positions). Its first probe positions come
	// before the static stages, which cost as much as a few hundred
	// positions and prove nothing in a position that has a short
	// helpmate; a queue run empty in the probe is said after them (their
	// reasons first, as before).
	s.wBlock, s.wDepth, s.partial, s.w = 2, 0, true, nearMate
	s.stage = "bf-first"
	first := startBestFirst(&b, 0)
	defer first.release()
	firstBudget := capped(min(total/2, firstRound))
	if l, ok := s.runBestFirst(first, min(probe, firstBudget)); ok {
		return win(l, false, s.nodes)
	}
	s.stage = "static"
	if ok, why := blockedUnwinnable(&b, s.winner); ok {
		return because(Unwinnable, nil, after(why))
	}
	s.stage = "progress"
	proven, n, why := progressUnwinnable(&b, s.winner, progressBudget)
	s.nodes += n
	if proven {
		return because(Unwinnable, nil, after(why))
	}
	// The progress search ran out of states (none allowed a check): it
	// runs again below with more, once the first helpmate search failed.
	progressAgain := n > progressBudget
	s.stage = "bf-first"
	if l, ok := s.runBestFirst(first, firstBudget-first.spent); ok {
		return win(l, false, s.nodes)
	}
	first.release()
	if s.exhausted {
		return exhausted()
	}
	fixed, reached := b.fixedPawns()
	// A lone minor piece (or one behind blocked pawns): its mates are of
	// few shapes, listed; none is a proof, else a search steered to each of
	// the nearest shapes in turn.
	var room *minorRoom
	var roomWhy *phrase.Error
	var targets []matePattern
	if minor, ok := loneMinor(&b, s.winner); ok {
		room = loneMinorRoom(&b, s.winner, minor)
		roomWhy = room.reason(s.winner, false)
	} else if x := blockedMinorRoom(&b, s.winner, fixed, reached); x != nil {
		room, roomWhy = x, x.reason(s.winner, true)
	} else if why, x := s.fixedMenStage(&b, fixed); why != nil {
		return because(Unwinnable, nil, after(why))
	} else if x != nil {
		room, roomWhy = x, x.reason(s.winner, true)
	}
	// Men that can only be taken, followed through their captures (4k).
	var takeMen []int
	if _, lone := loneMinor(&b, s.winner); !lone {
		takeMen = b.phaseMen(s.winner)
		if ok, why := b.phasesProve(s.winner, takeMen); ok {
			s.stage = "phases"
			return because(Unwinnable, nil, after(why))
		}
	}
	if room != nil {
		s.stage = "lone-minor"
		targets = s.mateTargets(&b, room, minorTargets)
		if len(targets) == 0 {
			return because(Unwinnable, nil, after(roomWhy))
		}
		// A quarter for each ply played: lines about half as long (18
		// to 21 plies instead of 36 to 39 for K+N against K+B) for about
		// the same positions.
		s.wBlock, s.simplify, s.noise, s.w, s.wDepth = 2, false, 0, nearMate, minorDepth
		for i := range targets {
			s.target = &targets[i]
			l, ok := s.bestFirst(&b, capped(minorBudget), 0)
			s.target, s.wDepth = nil, 0
			if ok {
				return win(l, false, s.nodes)
			}
			if s.exhausted {
				return exhausted()
			}
			s.wDepth = minorDepth
		}
		s.wDepth = 0
	}
	// Where 4k's men hold the loser's king, a line to the capture of
	// each in turn and the analysis after it (taking.go).
	if len(takeMen) > 0 && s.nodes < total {
		s.stage = "taking"
		if l, ok := s.takeThenMate(&b, takeMen, capped(total/takeShare)); ok {
			return win(l, false, s.nodes)
		}
	}
	// The stages for the positions the greedy searches rarely decide:
	// proofs of unwinnability and closed positions.
	late := func() (Result, bool) {
		// A shallow full-width search proves positions where every line
		// soon ends or reaches a proven-unwinnable position.
		s.stage = "prove"
		for d := 1; d <= 4 && s.nodes < total; d++ {
			budget(capped(5000))
			line = line[:0]
			switch s.prove(&b, d, true, &line) {
			case found:
				return win(line, true, s.nodes), true
			case none:
				return because(Unwinnable, nil, after(phrase.Errorf("every series of legal moves ends within %s in stalemate, in a mate of %s or in a position proven unwinnable (captures, pawn moves and forced moves not counted)", plies(d), wn))), true
			}
		}
		// A closed position (some pawns blocked for good): visit
		// everything reachable.
		if fixed != 0 {
			budget(capped(total / 2))
			line = line[:0]
			s.stage = "exhaust"
			switch s.exhaust(&b, &line) {
			case found:
				return win(line, false, s.nodes), true
			case none:
				return exhausted(), true
			}
		}
		if more := capped(total / progressShare); progressAgain && more > progressBudget {
			s.stage = "progress-again"
			proven, n, why := progressUnwinnable(&b, s.winner, more)
			s.nodes += n
			if proven {
				return because(Unwinnable, nil, after(why)), true
			}
		}
		return Result{}, false
	}
	// Then rounds of three other searches (and first the offer search
	// where each of the winner's pawns stands behind a pawn of the
	// loser), each with twice the positions of the round before, until
	// the limit: the greedy search's cost is heavy-tailed and each
	// search's tail lies on other rows, so several
	// searches with small budgets decide far more positions for the same
	// work than one with a large budget (below). The late stages come
	// first in a closed position (some pawns fixed: the exhaustive search
	// is for those), else once the rounds reach lateRound positions a
	// search, or before the round that would not fit in the limit.
	//
	// Each search of the rounds goes on where it stopped in the round
	// before (resume): a search is deterministic and its budget only
	// stops it, so a search of a round's positions begun afresh would
	// first make again every position it made in the round before, in the
	// same order. Going on, it makes the same positions as that fresh
	// search, each only once: the same search of the same round finds
	// the same line (or runs out of positions) for about half the
	// positions in all, and near the limit each search gets further.
	lateDone := false
	// The offer search only where the winner has pawns and each stands
	// behind a pawn of the loser: a pawn set free is then the winner's
	// only way to promote.
	blocked, _ := blockedPawns(&b, s.winner)
	offers := blocked != 0 && blocked == b.bb[s.winner][Pawn]
	changes := fileChangeRoot(&b, s.winner)
	searches := make([]*bfSearch, len(roundSearches)+len(targets))
	var deep *deepSearch
	defer func() {
		for _, x := range searches {
			if x != nil {
				x.release()
			}
		}
		if deep != nil {
			deep.release()
		}
	}()
	// resume runs search j on up to n positions in all (the count a
	// search begun afresh in this round would have).
	resume := func(j, n int) ([]Move, bool) {
		if searches[j] == nil {
			searches[j] = startBestFirst(&b, 0)
		}
		x := searches[j]
		return s.runBestFirst(x, capped(n-x.spent))
	}
	for round := 2 * firstRound; s.nodes < total; round *= 2 {
		if !lateDone && (fixed != 0 || round >= lateRound || s.nodes+3*round >= total) {
			lateDone = true
			if r, ok := late(); ok {
				return r
			}
		}
		for j, sc := range roundSearches {
			if sc.offer && !offers {
				continue
			}
			s.wBlock, s.simplify, s.offer, s.corners, s.noise, s.w = sc.block, sc.simplify, sc.offer, sc.corners, sc.noise, sc.w
			s.change = sc.change && changes
			name := sc.name
			if s.change {
				name = "change"
			}
			s.stage = fmt.Sprintf("%s-%d", name, round)
			if sc.deep {
				if s.noDeepen {
					continue
				}
				if deep == nil {
					deep = s.startDeep(&b)
				}
				// Beside a lone minor piece's shapes, as much as the
				// nearest of them together and the others' half (the
				// shapes steer best-first searches that a plateau stops
				// where the winner has many bishops).
				n := round
				if len(targets) > 0 {
					n = min(len(targets), minorRoundTargets)*round + max(len(targets)-minorRoundTargets, 0)*round/minorFarShare
				}
				l, ok := deep.run(capped(n - deep.spent))
				if ok {
					return win(l, false, s.nodes)
				}
				continue
			}
			l, ok := resume(j, round)
			s.offer, s.change, s.corners = false, false, false
			if ok {
				return win(l, false, s.nodes)
			}
			if s.exhausted {
				return exhausted()
			}
		}
		// The nearest shapes of a lone minor piece's mate again, each with
		// the round's positions.
		for i := range targets {
			s.wBlock, s.simplify, s.noise, s.w, s.wDepth = 2, false, 0, nearMate, minorDepth
			s.target = &targets[i]
			s.stage = fmt.Sprintf("lone-minor-%d", round)
			n := round
			if i >= minorRoundTargets {
				n = round / minorFarShare
			}
			l, ok := resume(len(roundSearches)+i, n)
			s.target, s.wDepth = nil, 0
			if ok {
				return win(l, false, s.nodes)
			}
			if s.exhausted {
				return exhausted()
			}
		}
	}
	if !lateDone {
		if r, ok := late(); ok {
			return r
		}
	}
	why = phrase.Errorf("neither a mate by %s nor a proof that none exists was found within %d positions", wn, total)
	return Result{Verdict: Undetermined, Reason: why.Error(), Why: why}
}

// fixedMenStage is stages 4c to 4i: pieces that never move hold more
// pawns, or more men; or pawns the loser's king can take only into a
// stalemate, or men of the loser that can move only where they mate the
// winner (held.go); and men that never move though they may be taken
// stand where they are (immobilePieces). It returns a proof, or
// else the lone minor piece's room behind the men when there is one.
func (s *searcher) fixedMenStage(b *Board, fixed uint64) (*phrase.Error, *minorRoom) {
	still := b.immobilePieces(s.winner)
	men, r := b.fixedMenWith(s.winner, still, 0)
	if men&^fixed == 0 && (still.set == 0 || men == 0) {
		return nil, nil // nothing the pawns alone did not show
	}
	if ok, why := menUnwinnable(b, s.winner, men, still, r); ok {
		s.stage = "fixed-men"
		if plain, _ := b.fixedMenRules(s.winner, 0, still, 0); plain != men {
			s.stage = "held-men"
			if ended, _ := b.fixedMenRules(s.winner, heldRule|mateRule|stalemateRule, still, 0); ended != men {
				s.stage = "last-piece-men"
				why = lastPieceWhy(s.winner, why)
			} else if held, hr := b.fixedMenRules(s.winner, heldRule, still, 0); held == men && provedBy(b, s.winner, men, still, hr) {
				// A rule's sentence only where the set and the reaches of
				// that rule alone prove it (the squares the winner's king
				// enters only into a stalemate may shrink the reaches alone).
				wh, wp, lh, sm := b.heldSides(s.winner, men, r)
				why = heldWhy(s.winner, why, wh, wp, lh, sm)
			} else if mated, mr := b.fixedMenRules(s.winner, heldRule|mateRule, still, 0); mated == men && provedBy(b, s.winner, men, still, mr) {
				s.stage = "mate-men"
				why = mateWhy(s.winner, why)
			} else {
				s.stage = "stalemate-men"
				why = gameEndsWhy(s.winner, why)
			}
		}
		return why, nil
	}
	return nil, blockedMinorRoom(b, s.winner, men, r)
}

// provedBy reports whether menUnwinnable proves men with the reaches r.
func provedBy(b *Board, winner int, men uint64, still stillMen, r [2]reach) bool {
	ok, _ := menUnwinnable(b, winner, men, still, r)
	return ok
}

// makeShort makes a helpmate line (in playing order, from b) short for a
// person to read. Each stage grows with the work that found the line
// (spent), so that easy positions stay fast, and has bounds of its own.
func (s *searcher) makeShort(b *Board, line []Move, spent int) []Move {
	// At least shortFloor positions a stage: the partial expansion finds
	// many lines with so few that a budget of a few times that would be
	// too small for the shortest (the initial position's fool's mates
	// need about 3,000).
	floor := shortFloor
	// The ply-counting searches below expand every node fully (as tuned).
	defer func(p bool) { s.partial = p }(s.partial)
	s.partial = false
	// The weights the shortening was tuned with, in the score's own order.
	s.w, s.noise = greedy, 0
	if len(line) > 3 {
		// The shortest helpmate of at most shortPlies plies, by a
		// full-width search.
		if l, ok := s.shortMate(b, min(shortPlies, len(line)-2), min(shortBudget, max(floor, 2*spent))); ok {
			line = l
		}
	}
	// The greedy search again, counting the plies played: much (short
	// lines where it finds one, as in middlegames), then, for a line
	// still long, a little (it finds more, of middling length).
	for _, w := range []struct{ weight, budget, above int }{
		{wImproveMuch, min(shortBudget, max(floor, 4*spent)), shortPlies},
		{wImprove, min(improveBudget, max(floor, 8*spent)), longLine},
	} {
		if len(line) <= w.above {
			continue
		}
		s.wDepth = w.weight
		if l, ok := s.bestFirst(b, w.budget, len(line)-1); ok {
			line = l
		}
	}
	// Shortcuts, again while they help (the lines of the exhaustive
	// search wander most); not on a line of at most 2*shortPlies plies,
	// which the stages above leave as short as shortcuts would (measured
	// on the lichess rows: they cost 6 % of the positions searched there
	// and shortened no such line).
	for pass, left := 0, min(shortenBudget, max(floor, 2*spent)); pass < 8 && left > 0 && len(line) > 2*shortPlies; pass++ {
		before, n := len(line), s.nodes
		line = s.shorten(b, line, left)
		left -= s.nodes - n
		if len(line) == before {
			break
		}
	}
	return line
}

func plies(n int) *phrase.Error {
	if n == 1 {
		return phrase.Errorf("1 ply")
	}
	return phrase.Errorf("%d plies", n)
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Dead reports whether neither side can checkmate: the per-move
// dead-position check, so only the cheap stages run — the game over, the
// material rule, the blocked-pawn analysis (computed once for both
// colours) and, with at most six men on the board (the stalemate traps), a
// full-width search of at most limit positions.
func Dead(b *Board, limit int) bool {
	var l MoveList
	b.Legal(&l)
	if l.N == 0 {
		return !b.InCheck() // stalemate is dead; a mate is not
	}
	var proven [2]bool
	for c := 0; c < 2; c++ {
		proven[c], _ = materialUnwinnable(b, c)
	}
	if proven[0] && proven[1] {
		return true
	}
	if fixed, r := b.fixedPawns(); fixed != 0 {
		for c := 0; c < 2; c++ {
			proven[c] = proven[c] || r[c].attack&r[1-c].kingStand == 0 || staticRoom(b, fixed, r, c).mateSquare() < 0
		}
	}
	if proven[0] && proven[1] {
		return true
	}
	if limit <= 0 || bits.OnesCount64(b.all()) > 6 {
		return false
	}
	for c := 0; c < 2; c++ {
		if proven[c] {
			continue
		}
		s := &searcher{winner: c, limit: limit, proven: map[uint64]int16{}}
		var line []Move
		for d := 1; d <= 3 && !s.aborted && !proven[c]; d++ {
			switch s.prove(b, d, false, &line) {
			case found:
				return false
			case none:
				proven[c] = true
			}
		}
		if !proven[c] {
			return false
		}
	}
	return true
}
