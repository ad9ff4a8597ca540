package cloudapi

import (
	"fmt"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// loginView is a Login as the API shows it.
type loginView struct {
	ID         uint64 `json:"id"`
	Datetime   string `json:"datetime"`
	IP         string `json:"ip"`
	Username   string `json:"username"`
	Restricted bool   `json:"restricted"`
	Status     string `json:"status"` // the real API's later field; only successful logins are kept
}

func viewLogin(l cloudstore.Login) loginView {
	return loginView{ID: l.ID, Datetime: formatTime(l.Datetime), IP: l.IP, Username: l.Username, Restricted: l.Restricted, Status: "successful"}
}

// listLogins shows the successful logins of every user of the account in the last 90 days,
// newest first. The reference marks no Login field filterable.
func (a *api) listLogins(c *fiber.Ctx) error {
	recent, err := a.Cloud.RecentLogins(callerOf(c).User.AccountID)
	if err != nil {
		return err
	}
	return renderList(c, recent, listing.Fields[cloudstore.Login]{}, viewLogin)
}

func (a *api) getLogin(c *fiber.Ctx) error {
	id, err := strconv.ParseUint(c.Params("loginId"), 10, 64)
	if err != nil {
		return fmt.Errorf("login: %w", store.ErrNotFound)
	}
	l, err := a.Cloud.Login(callerOf(c).User.AccountID, id)
	if err != nil {
		return err
	}
	return c.JSON(viewLogin(l))
}

// maintenanceView is a maintenance item of an instance.
type maintenanceView struct {
	Type   string                 `json:"type"`
	Status string                 `json:"status"`
	Reason string                 `json:"reason"`
	When   string                 `json:"when"`
	Entity cloudstore.EventEntity `json:"entity"`
}

type maintenanceItem = cloudsvc.MaintenanceItem

var maintenanceFields = listing.Fields[maintenanceItem]{
	"type":   func(m maintenanceItem) any { return m.Type },
	"status": func(m maintenanceItem) any { return m.Status },
	"when":   func(m maintenanceItem) any { return m.When },
}

func viewMaintenance(m maintenanceItem) maintenanceView {
	return maintenanceView{Type: m.Type, Status: m.Status, Reason: m.Reason, When: formatTime(m.When),
		Entity: cloudstore.EventEntity{ID: m.Instance.ID, Label: m.Instance.Label, Type: "instance", URL: fmt.Sprintf("/v4/linode/instances/%d", m.Instance.ID)}}
}

// listMaintenance lists the maintenance scheduled on the account's instances (beta prefix only);
// a restricted user sees only instances they hold a grant on.
func (a *api) listMaintenance(c *fiber.Ctx) error {
	items, err := a.Cloud.Maintenance(callerOf(c).User)
	if err != nil {
		return err
	}
	return renderList(c, items, maintenanceFields, viewMaintenance)
}
