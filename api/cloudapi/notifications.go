package cloudapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// notificationView is a Notification (cloudsvc.Notification) as the API shows it.
type notificationView struct {
	Entity   *cloudstore.EventEntity `json:"entity"`
	Label    string                  `json:"label"`
	Message  string                  `json:"message"`
	Body     *string                 `json:"body"`
	Type     string                  `json:"type"`
	Severity string                  `json:"severity"`
	When     *string                 `json:"when"`
	Until    *string                 `json:"until"`
}

func (a *api) listNotifications(c *fiber.Ctx) error {
	list, err := a.Cloud.Notifications(callerOf(c).User)
	if err != nil {
		return err
	}
	views := make([]notificationView, len(list))
	for i, n := range list {
		views[i] = viewNotification(n)
	}
	return renderList(c, views, listing.Fields[notificationView]{}, func(n notificationView) notificationView { return n })
}

func viewNotification(n cloudsvc.Notification) notificationView {
	return notificationView{Entity: n.Entity, Label: n.Label, Message: n.Message, Body: n.Body, Type: n.Type,
		Severity: n.Severity, When: formatTimePtr(n.When), Until: formatTimePtr(n.Until)}
}
