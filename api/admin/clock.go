package admin

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/appliancesvc"
)

// clockView is the clock as GET and POST /_appliance/clock show it.
type clockView struct {
	Now           string  `json:"now"`
	Offset        string  `json:"offset"`
	OffsetSeconds float64 `json:"offset_seconds"`
	DevClock      bool    `json:"dev_clock"`
}

func viewOf(st appliancesvc.ClockState) clockView {
	return clockView{
		Now: st.Now.Format(time.RFC3339), Offset: st.Offset.String(),
		OffsetSeconds: st.Offset.Seconds(), DevClock: st.DevClock,
	}
}

func (h *handlers) getClock(c *fiber.Ctx) error { return c.JSON(viewOf(h.Appliance.Clock())) }

// clockMove is the body of POST /_appliance/clock: exactly one of its fields
// (appliancesvc.ClockMove says what each takes).
type clockMove struct {
	Now     *string `json:"now"`
	Advance *string `json:"advance"`
	Offset  *string `json:"offset"`
}

// setClock moves the appliance's time (only with --dev-clock; appliancesvc.MoveClock decides
// and persists).
func (h *handlers) setClock(c *fiber.Ctx) error {
	if err := h.Appliance.CanMoveClock(); err != nil {
		return err
	}
	var m clockMove
	dec := json.NewDecoder(strings.NewReader(string(c.Body())))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return kit.Errorf(http.StatusBadRequest, `body must be JSON with one of "now", "advance" or "offset": %v`, err)
	}
	st, err := h.Appliance.MoveClock(appliancesvc.ClockMove{Now: m.Now, Advance: m.Advance, Offset: m.Offset})
	if err != nil {
		return err
	}
	return c.JSON(viewOf(st))
}
