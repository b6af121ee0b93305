package match

import (
	"arbiter/internal/phrase"
	"arbiter/store"
)

// ReplayGuard runs on a record applied command by command (a station's
// replica, docs/stations.md) what verify and the watch check beyond the
// signatures' walk: a command id the record holds already
// (CodeReplayedCommand) and a move given at another station that is not
// the move its role signed on its position (CodeRequestOtherMove), each on
// the new events only, in memory: the command ids of the events checked
// and the match after them are kept from command to command. Before
// branch hharden a replica took a request replayed by whoever could write
// into the stream, and played its move, until its watch read the file.
//
// Check does not change the guard: the step it returns is kept (Keep)
// once the command's transaction committed, so a command applied again
// after a disk error is checked as the first time.
type ReplayGuard struct {
	ids     commandIDs // of the events up to checked
	checked int64
	pos     *State // the match after its events (nil: not known; rebuilt from the events given)
}

// ReplayStep is what ReplayGuard.Check found holding: the command ids it
// adds and the match after the events checked.
type ReplayStep struct {
	from, to int64
	add      commandIDs
	pos      *State
}

// NewReplayGuard is the guard after the record evs with its signature
// rows sigs (as a replica opens it): their command ids (a repeat among
// them is the watch's to say) and the match after them. known is the
// match after the same record as the App beside the replica rebuilt it
// (App.State; nil: none): the guard keeps it when it stands at the
// record's last event (its seq and head), and replays the record only
// when it does not (another record, events appended between the two
// reads, a record whose App stopped at a problem) — before branch hleft a
// station's start replayed the whole record twice, once for the App and
// once here.
func NewReplayGuard(evs []store.Event, sigs []store.Signature, known *State) *ReplayGuard {
	g := &ReplayGuard{ids: commandIDs{}, checked: int64(len(evs))}
	var r RecordReport
	g.ids.check(&r, evs, sigs)
	if known.after(evs) {
		g.pos = known // states are never changed once shared (Check clones)
		return g
	}
	st := NewState()
	for _, e := range evs {
		if st.Apply(e) != nil {
			return g // the first Check replays them again
		}
	}
	g.pos = st
	return g
}

// State is the match after the events checked (nil: not known), for the
// station's App to take (App.TakeReplayed); it is never changed.
func (g *ReplayGuard) State() *State {
	if g == nil || g.pos == nil || g.pos.Seq != g.checked {
		return nil
	}
	return g.pos
}

// Checked is the number of events whose command ids the guard holds: the
// rows of the events after it must be given to Check.
func (g *ReplayGuard) Checked() int64 { return g.checked }

// Check checks the events added after prior (the record's events before
// them, as applied; those after Checked were not checked and are taken
// with them), given sigs, which hold at least the signature rows of every
// event after Checked (others are passed over). It returns what to keep,
// or the problem at the first event that fails, or err when an event
// cannot be played on the match (the record would not open).
func (g *ReplayGuard) Check(prior, added []store.Event, sigs []store.Signature) (step *ReplayStep, p *phrase.Error, err error) {
	to := int64(len(prior) + len(added))
	at := func(seq int64) store.Event {
		if seq <= int64(len(prior)) {
			return prior[seq-1]
		}
		return added[seq-1-int64(len(prior))]
	}
	step = &ReplayStep{from: g.checked, to: to, add: commandIDs{}}
	var replay, of int64
	for _, s := range sigs {
		if s.Seq <= g.checked || s.Seq > to || (s.Kind != store.SigCommand && s.Kind != store.SigRequest) {
			continue
		}
		first, ok := g.ids[s.Cmd]
		if !ok {
			first, ok = step.add[s.Cmd]
		}
		switch {
		case !ok:
			step.add[s.Cmd] = s.Seq
		case s.Seq < first: // rows out of order: the later one repeats
			if replay == 0 || first < replay {
				replay, of = first, s.Seq
			}
			step.add[s.Cmd] = s.Seq
		case replay == 0 || s.Seq < replay:
			replay, of = s.Seq, first
		}
	}
	if replay > 0 {
		e := at(replay)
		return nil, problem(CodeReplayedCommand, e.Seq, e.Kind, of), nil
	}
	st := g.pos
	if st == nil || st.Seq > to {
		st = NewState()
	}
	st = st.clone()
	m := newMovesReplay(rowsAfter(sigs, st.Seq))
	for seq := st.Seq + 1; seq <= to; seq++ {
		e := at(seq)
		if seq > g.checked {
			var r RecordReport
			if ok, stop := m.check(&r, st, e); !ok {
				return nil, r.Why, nil
			} else if stop {
				m = &movesReplay{}
			}
		}
		if err := st.Apply(e); err != nil {
			return nil, nil, err
		}
	}
	step.pos = st
	return step, nil, nil
}

// Keep takes a step Check returned once its events are in the record
// (when the guard is still where the step began).
func (g *ReplayGuard) Keep(s *ReplayStep) {
	if g == nil || s == nil || s.from != g.checked {
		return
	}
	for id, seq := range s.add {
		g.ids[id] = seq
	}
	g.checked, g.pos = s.to, s.pos
}
