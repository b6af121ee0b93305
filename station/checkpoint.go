package station

import "time"

// checkpointQuiet is how long a station's record must stand unchanged
// before the station copies its log into the file (store.CheckpointIfDue):
// longer than the few milliseconds between the commands of one exchange (a
// move and the press that follows it), far shorter than the seconds between
// the actions of people.
const checkpointQuiet = 5 * time.Millisecond

// checkpointLoop checkpoints the station's record between commands
// (docs/stations.md, "The record's file"): SQLite's own checkpoint runs
// inside the commit that takes the log past its length, a few milliseconds
// added to that command — on every record holder at the same command, as
// they hold the same events. Here the station waits until neither its
// record has changed nor a command has come to it (a request at the
// authority, a message from the stream, a command given here: busy) for
// checkpointQuiet, then copies the log if it is due. Every commit stays
// synced (synchronous=FULL); a record that is never idle that long is
// still checkpointed by SQLite, at four times the length. changed is the
// replica's change signal when the loop was started (Replica.changes).
func (s *Station) checkpointLoop(changed <-chan struct{}) {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-changed:
		}
		changed = s.rep.changes()
		quiet, stop := s.quiet()
	wait:
		for {
			select {
			case <-s.ctx.Done():
				stop()
				return
			case <-changed:
				changed = s.rep.changes()
			case <-s.busy:
			case <-quiet:
				if s.underway.Load() == 0 {
					break wait
				}
				// a command under way whose answer or stream message is
				// later than the wait (a slow publish): its end starts
				// the wait again (underWay)
			}
			stop()
			quiet, stop = s.quiet()
		}
		done, err := s.cfg.DB.CheckpointIfDue(s.ctx)
		if err != nil && s.ctx.Err() == nil {
			s.cfg.Logf("%s: the record's log was not copied into its file (tried again after the next command): %v", s.cfg.Name, err)
		}
		if done {
			// The checkpoint wrote the main file, which the watch cannot
			// tell from another program's write: its next look checks the
			// record whole, holding the record's connection while it
			// reads. It looks now, in the same quiet moment, rather than
			// at its next tick, which may fall in a command.
			s.watchFile(s.ctx)
		}
	}
}

// quiet is the wait of checkpointQuiet (a test's own, when quietTimer is set).
func (s *Station) quiet() (<-chan time.Time, func()) {
	if s.quietTimer != nil {
		return s.quietTimer()
	}
	t := time.NewTimer(checkpointQuiet)
	return t.C, func() { t.Stop() }
}

// underWay notes that a command given at this station (Submit) or run by
// it (the authority's worker) is under way until the function it returns
// is called: checkpointLoop takes no pause in it for idle, where a command
// whose publish was acknowledged later than checkpointQuiet had the
// station checkpoint while it waited, and the record's apply of that
// command then wait for the checkpoint's copy and syncs.
func (s *Station) underWay() func() {
	s.underway.Add(1)
	s.working()
	return func() {
		s.underway.Add(-1)
		s.working() // the quiet wait starts again from the command's end
	}
}

// working notes that a command is under way at this station (its record
// is not idle: checkpointLoop).
func (s *Station) working() {
	select {
	case s.busy <- struct{}{}:
	default:
	}
}

// changes is closed at the replica's next change.
func (r *Replica) changes() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.changed
}
