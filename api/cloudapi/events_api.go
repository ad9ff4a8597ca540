package cloudapi

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// eventHistory is how far back the events list reaches (the seed's 90 days).
const eventHistory = cloudsvc.EventHistory

// bindEvents registers the events endpoints. /seen needs read_write grants but only the
// events:read_only scope, as the reference says; every one of them is read_only by scope.
func (a *api) bindEvents(r *routes) {
	events := access{area: "events", level: cloudstore.ReadOnly}
	r.add(both, "GET", "/account/events", accessOf(cloudsvc.NeedListEvents), a.listEvents)
	r.add(both, "GET", "/account/events/:eventId", events, a.getEvent)
	r.add(both, "POST", "/account/events/:eventId/read", events, a.readEvent)
	r.add(both, "POST", "/account/events/:eventId/seen", events, a.seenEvent)
}

// eventView is an Event as the API shows it.
type eventView struct {
	ID              uint64                  `json:"id"`
	Action          string                  `json:"action"`
	Created         string                  `json:"created"`
	Duration        *float64                `json:"duration"`
	Entity          *cloudstore.EventEntity `json:"entity"`
	PercentComplete *int                    `json:"percent_complete"`
	Rate            *string                 `json:"rate"`
	Read            bool                    `json:"read"`
	SecondaryEntity *cloudstore.EventEntity `json:"secondary_entity"`
	Seen            bool                    `json:"seen"`
	Status          string                  `json:"status"`
	TimeRemaining   *string                 `json:"time_remaining"`
	Username        *string                 `json:"username"`
	Message         string                  `json:"message"`
}

func viewEvent(e cloudstore.Event) eventView {
	return eventView{ID: e.ID, Action: e.Action, Created: formatTime(e.Created), Duration: e.Duration, Entity: e.Entity,
		PercentComplete: e.PercentComplete, Read: e.Read, SecondaryEntity: e.SecondaryEntity, Seen: e.Seen,
		Status: e.Status, TimeRemaining: timeRemaining(e.Remaining), Username: e.Username, Message: e.Message}
}

// timeRemaining writes the time left of an action under way as the real service does,
// "HH:MM:SS" (nil: none; linodego reads either form).
func timeRemaining(d *time.Duration) *string {
	if d == nil {
		return nil
	}
	secs := int(d.Round(time.Second) / time.Second)
	s := fmt.Sprintf("%02d:%02d:%02d", secs/3600, secs/60%60, secs%60)
	return &s
}

// eventFields are the Event's filterable fields (the reference's: id, action, created,
// entity.id, entity.type).
var eventFields = listing.Fields[cloudstore.Event]{
	"id":      func(e cloudstore.Event) any { return e.ID },
	"action":  func(e cloudstore.Event) any { return e.Action },
	"created": func(e cloudstore.Event) any { return e.Created },
	"entity.id": func(e cloudstore.Event) any {
		if e.Entity == nil {
			return nil
		}
		return e.Entity.ID
	},
	"entity.type": func(e cloudstore.Event) any {
		if e.Entity == nil {
			return nil
		}
		return e.Entity.Type
	},
}

// eventID reads the event id of the path; a malformed one is simply not found.
func eventID(c *fiber.Ctx) (uint64, error) {
	id, err := strconv.ParseUint(c.Params("eventId"), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("event %q: %w", c.Params("eventId"), store.ErrNotFound)
	}
	return id, nil
}

func (a *api) getEvent(c *fiber.Ctx) error {
	id, err := eventID(c)
	if err != nil {
		return err
	}
	e, err := a.Cloud.Event(callerOf(c).User, id)
	if err != nil {
		return err
	}
	return c.JSON(viewEvent(e))
}

// readEvent marks one event read.
func (a *api) readEvent(c *fiber.Ctx) error {
	id, err := eventID(c)
	if err != nil {
		return err
	}
	if err := a.Cloud.MarkEventRead(callerOf(c).User, id); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

// seenEvent marks every event up to and including the id as seen (restricted users need the
// read_write account grant).
func (a *api) seenEvent(c *fiber.Ctx) error {
	id, err := eventID(c)
	if err != nil {
		return err
	}
	if err := a.Cloud.MarkEventsSeen(callerOf(c).User, id); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}
