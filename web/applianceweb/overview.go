package applianceweb

import (
	"errors"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/appliancesvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/web"
)

// homeView is the overview's data: readiness, the clock and the data controls.
type homeView struct {
	Tab    string
	Checks []web.Check
	Ready  bool
	Clock  appliancesvc.ClockState
	// ClockError says why the last clock move was refused ("" when none was).
	ClockError string
	// Moved is the clock move just made, to confirm it ("" when none was).
	Moved string
}

// NowText is the appliance's time as the page prints it.
func (v homeView) NowText() string { return v.Clock.Now.Format(time.RFC3339) }

// renderHome draws the overview with status; clockErr is a refused move's reason.
func (h *handlers) renderHome(c *fiber.Ctx, status int, clockErr string) error {
	v := homeView{Tab: "overview", Ready: true, Clock: h.Appliance.Clock(), ClockError: clockErr, Moved: c.Query("moved")}
	if h.Checks != nil {
		v.Checks = h.Checks()
	}
	v.Ready = web.AllReady(v.Checks)
	return h.Site.Render(c, status, "Appliance", web.SectionAppliance, web.PageOf(homePage, v))
}

// moveClock moves the clock by one of the form's fields (advance, now, offset; empty ones are
// not sent) through appliancesvc.MoveClock, as POST /_appliance/clock does. A refused move
// redraws the overview with the reason.
func (h *handlers) moveClock(c *fiber.Ctx) error {
	if err := h.Appliance.CanMoveClock(); err != nil {
		return err
	}
	var m appliancesvc.ClockMove
	for name, p := range map[string]**string{"advance": &m.Advance, "now": &m.Now, "offset": &m.Offset} {
		if s := c.FormValue(name); s != "" {
			*p = &s
		}
	}
	if _, err := h.Appliance.MoveClock(m); err != nil {
		var refused *fault.Error
		if errors.As(err, &refused) {
			return h.renderHome(c, http.StatusBadRequest, refused.Msg)
		}
		return err
	}
	return c.Redirect("/appliance?moved=1#clock", http.StatusSeeOther)
}
