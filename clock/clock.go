// Package clock owns the appliance's notion of "now". Nothing in pocketforge reads time.Now
// directly: every expiry, schedule and timestamp goes through a Clock, so demos and tests can move
// time (token expiry, the 00:00 UTC backups, transfer deadlines) without waiting for it.
package clock

import (
	"sync/atomic"
	"time"
)

// Clock tells the current time.
type Clock interface {
	// Now returns the current time in UTC.
	Now() time.Time
}

// Real is the wall clock.
type Real struct{}

// Now returns the wall-clock time in UTC.
func (Real) Now() time.Time { return time.Now().UTC() }

// Settable is the wall clock shifted by an offset that can be changed while it runs. Time keeps
// flowing after a move (a jump of 24 h still lets a 30 s provisioning delay elapse normally), which
// is what a demo of "tomorrow" needs. It is safe for concurrent use.
type Settable struct {
	offset atomic.Int64     // nanoseconds added to the wall clock
	base   func() time.Time // nil: time.Now (a test's stand-in otherwise)
}

// NewSettable returns a Settable clock starting at the wall clock plus offset.
func NewSettable(offset time.Duration) *Settable {
	s := &Settable{}
	s.offset.Store(int64(offset))
	return s
}

// Now returns the wall clock plus the current offset, in UTC.
func (s *Settable) Now() time.Time { return s.wall().Add(s.Offset()).UTC() }

// wall is the wall clock the offset is added to.
func (s *Settable) wall() time.Time {
	if s.base == nil {
		return time.Now()
	}
	return s.base()
}

// Offset returns how far this clock is ahead of (positive) or behind (negative) the wall clock.
func (s *Settable) Offset() time.Duration { return time.Duration(s.offset.Load()) }

// SetOffset sets the distance to the wall clock.
func (s *Settable) SetOffset(d time.Duration) { s.offset.Store(int64(d)) }

// Set moves the clock so that Now returns t at this instant and flows on from there.
func (s *Settable) Set(t time.Time) { s.SetOffset(t.Sub(s.wall())) }

// Advance moves the clock forward by d (backward when d is negative).
func (s *Settable) Advance(d time.Duration) { s.offset.Add(int64(d)) }

// At is the time c shows at the wall-clock instant wall, just read with time.Now by the caller:
// a request's middleware that has read the wall clock to time the request dates its journal
// entry with it instead of reading the clock again (a clock read costs ~50 ns on a VM, and a
// small request reads it often). A clock not tied to the wall clock (Fixed, a test's) shows
// its own Now.
func At(c Clock, wall time.Time) time.Time {
	switch c := c.(type) {
	case Real:
		return wall.UTC()
	case *Settable:
		if c.base == nil {
			return wall.Add(c.Offset()).UTC()
		}
	}
	return c.Now()
}

// Fixed is a clock that stands still until moved; for tests that compare exact timestamps.
type Fixed struct{ t atomic.Int64 }

// NewFixed returns a Fixed clock showing t.
func NewFixed(t time.Time) *Fixed {
	f := &Fixed{}
	f.t.Store(t.UnixNano())
	return f
}

// Now returns the time the clock shows, in UTC.
func (f *Fixed) Now() time.Time { return time.Unix(0, f.t.Load()).UTC() }

// Set makes the clock show t.
func (f *Fixed) Set(t time.Time) { f.t.Store(t.UnixNano()) }

// Advance moves the clock by d.
func (f *Fixed) Advance(d time.Duration) { f.t.Add(int64(d)) }
