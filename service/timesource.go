package service

import "arbiter/internal/timesource"

// TimeSource is the live session's time source (package timesource).
//
// Deprecated: use timesource.Source; kept until station/ takes its default
// from package timesource itself (issue 25, phase B).
type TimeSource = timesource.Source

// NewTimeSource is timesource.New.
//
// Deprecated: use timesource.New (see TimeSource).
func NewTimeSource() *TimeSource { return timesource.New() }
