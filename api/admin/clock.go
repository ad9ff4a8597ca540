package admin

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store/appliance"
	"go.etcd.io/bbolt"
)

// clockView is the clock as GET and POST /_appliance/clock show it.
type clockView struct {
	Now           string  `json:"now"`
	Offset        string  `json:"offset"`
	OffsetSeconds float64 `json:"offset_seconds"`
	DevClock      bool    `json:"dev_clock"`
}

func (h *handlers) view() clockView {
	off := h.Clock.Offset()
	return clockView{
		Now: h.Clock.Now().Format(time.RFC3339), Offset: off.String(),
		OffsetSeconds: off.Seconds(), DevClock: h.DevClock,
	}
}

func (h *handlers) getClock(c *fiber.Ctx) error { return c.JSON(h.view()) }

// clockMove is the body of POST /_appliance/clock: exactly one of its fields.
type clockMove struct {
	Now     *string `json:"now"`     // RFC 3339, or the cloud API's "2006-01-02T15:04:05" (UTC)
	Advance *string `json:"advance"` // a Go duration ("36h", "-90m") or whole days ("7d")
	Offset  *string `json:"offset"`  // distance from the wall clock; "0s" returns to real time
}

// setClock moves the appliance's time (only with --dev-clock). The new offset is persisted before
// it takes effect, so a restart resumes the moved time.
func (h *handlers) setClock(c *fiber.Ctx) error {
	if !h.DevClock {
		return kit.Errorf(http.StatusForbidden, "the clock is fixed: start pocketforge with --dev-clock to move it")
	}
	var m clockMove
	dec := json.NewDecoder(strings.NewReader(string(c.Body())))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return kit.Errorf(http.StatusBadRequest, `body must be JSON with one of "now", "advance" or "offset": %v`, err)
	}
	h.clockMu.Lock()
	defer h.clockMu.Unlock()
	off, err := m.offset(h.Clock.Offset(), h.Clock.Now())
	if err != nil {
		return err
	}
	if off > maxSpan || off < -maxSpan {
		return kit.Errorf(http.StatusBadRequest, "the clock may move at most a century away from the wall clock")
	}
	if err := h.Store.Write(func(tx *bbolt.Tx) error { return appliance.SetClockOffset(tx, off) }); err != nil {
		return err
	}
	h.Clock.SetOffset(off)
	return c.JSON(h.view())
}

// offset computes the new offset from the current one and the current time.
func (m clockMove) offset(cur time.Duration, now time.Time) (time.Duration, error) {
	given := 0
	for _, p := range []*string{m.Now, m.Advance, m.Offset} {
		if p != nil {
			given++
		}
	}
	if given != 1 {
		return 0, kit.Errorf(http.StatusBadRequest, `send exactly one of "now", "advance" or "offset"`)
	}
	switch {
	case m.Now != nil:
		t, err := parseTime(*m.Now)
		if err != nil {
			return 0, kit.Errorf(http.StatusBadRequest, "now: %q is not a time like 2026-12-01T00:00:00Z", *m.Now)
		}
		return cur + t.Sub(now), nil
	case m.Advance != nil:
		d, err := parseSpan(*m.Advance)
		if err != nil {
			return 0, kit.Errorf(http.StatusBadRequest, "advance: %v", err)
		}
		return cur + d, nil
	default:
		d, err := parseSpan(*m.Offset)
		if err != nil {
			return 0, kit.Errorf(http.StatusBadRequest, "offset: %v", err)
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
			return 0, kit.Errorf(http.StatusBadRequest, "%q is not a duration like 36h, -90m or 7d", s)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, kit.Errorf(http.StatusBadRequest, "%q is not a duration like 36h, -90m or 7d", s)
		}
	}
	if d > maxSpan || d < -maxSpan {
		return 0, kit.Errorf(http.StatusBadRequest, "%q is more than a century", s)
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
