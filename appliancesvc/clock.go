package appliancesvc

import (
	"strconv"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/appliance"
	"github.com/pocketforge/pocketforge/store/kv"
)

// ClockState is the appliance's time as the operator sees it.
type ClockState struct {
	Now    time.Time
	Offset time.Duration // distance from the wall clock
	// DevClock says whether MoveClock may move it (--dev-clock).
	DevClock bool
}

// Clock returns the appliance's time and its offset from the wall clock.
func (s *Service) Clock() ClockState {
	st := ClockState{Now: s.now().UTC(), DevClock: s.devClock}
	if s.clock != nil {
		st.Offset = s.clock.Offset()
	}
	return st
}

// CanMoveClock says whether the clock may move: nil with --dev-clock, else a Forbidden fault. A
// front end asks before it reads a move, so a fixed clock is the answer whatever was sent.
func (s *Service) CanMoveClock() error {
	if !s.devClock || s.clock == nil {
		return fault.Forbidden("", "the clock is fixed: start pocketforge with --dev-clock to move it")
	}
	return nil
}

// ClockMove is one move of the clock: exactly one of its fields is set.
type ClockMove struct {
	Now     *string // RFC 3339, or the cloud API's "2006-01-02T15:04:05" (UTC)
	Advance *string // a Go duration ("36h", "-90m") or whole days ("7d")
	Offset  *string // distance from the wall clock; "0s" returns to real time
}

// MoveClock moves the appliance's time (only with --dev-clock: a fixed clock is a Forbidden
// fault) and returns the clock after the move. The new offset is persisted before it takes
// effect, so a restart resumes the moved time; moves are ordered, so two at once both count.
func (s *Service) MoveClock(m ClockMove) (ClockState, error) {
	if err := s.CanMoveClock(); err != nil {
		return ClockState{}, err
	}
	s.clockMu.Lock()
	defer s.clockMu.Unlock()
	off, err := m.offset(s.clock.Offset(), s.clock.Now())
	if err != nil {
		return ClockState{}, err
	}
	if off > maxSpan || off < -maxSpan {
		return ClockState{}, fault.Invalid("", "the clock may move at most a century away from the wall clock")
	}
	if err := s.db.Write(func(tx kv.Tx) error { return appliance.SetClockOffset(tx, off) }); err != nil {
		return ClockState{}, err
	}
	s.clock.SetOffset(off)
	return s.Clock(), nil
}

// offset computes the new offset from the current one and the current time.
func (m ClockMove) offset(cur time.Duration, now time.Time) (time.Duration, error) {
	given := 0
	for _, p := range []*string{m.Now, m.Advance, m.Offset} {
		if p != nil {
			given++
		}
	}
	if given != 1 {
		return 0, fault.Invalid("", `send exactly one of "now", "advance" or "offset"`)
	}
	switch {
	case m.Now != nil:
		t, err := parseTime(*m.Now)
		if err != nil {
			return 0, fault.Invalid("", "now: %q is not a time like 2026-12-01T00:00:00Z", *m.Now)
		}
		return cur + t.Sub(now), nil
	case m.Advance != nil:
		d, err := parseSpan(*m.Advance)
		if err != nil {
			return 0, fault.Invalid("", "advance: %v", err)
		}
		return cur + d, nil
	default:
		d, err := parseSpan(*m.Offset)
		if err != nil {
			return 0, fault.Invalid("", "offset: %v", err)
		}
		return d, nil
	}
}

// maxSpan keeps moved time within a century of the wall clock (time.Duration holds ±292 years).
const maxSpan = 100 * 365 * 24 * time.Hour

// parseSpan reads a Go duration or a whole number of days ("7d").
func parseSpan(s string) (time.Duration, error) {
	var d time.Duration
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n > 36500 || n < -36500 {
			return 0, fault.Invalid("", "%q is not a duration like 36h, -90m or 7d", s)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, fault.Invalid("", "%q is not a duration like 36h, -90m or 7d", s)
		}
	}
	if d > maxSpan || d < -maxSpan {
		return 0, fault.Invalid("", "%q is more than a century", s)
	}
	return d, nil
}

// parseTime reads RFC 3339 or the cloud API's zone-less UTC format.
func parseTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.ParseInLocation("2006-01-02T15:04:05", s, time.UTC)
}
