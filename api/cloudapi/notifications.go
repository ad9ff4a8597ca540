package cloudapi

import (
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// notificationView is a Notification: derived from the account's state at each request, never
// stored, so it disappears the moment its cause is resolved.
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

// cardSoon is how far ahead an expiring card is announced.
const cardSoon = 31 * 24 * time.Hour

func (a *api) listNotifications(c *fiber.Ctx) error {
	now := a.Clock.Now()
	var list []notificationView
	err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		list, err = notifications(tx, callerOf(c).user, now)
		return err
	})
	if err != nil {
		return err
	}
	return renderList(c, list, listing.Fields[notificationView]{}, func(n notificationView) notificationView { return n })
}

// notifications derives the account's notifications. Each source is one function; a later
// issue adds its own (a database being patched) to the list.
func notifications(tx *bbolt.Tx, u cloudstore.User, now time.Time) ([]notificationView, error) {
	acct, err := cloudstore.GetAccount(tx, u.AccountID)
	if err != nil {
		return nil, err
	}
	out := []notificationView{}
	for _, source := range []func(*bbolt.Tx, cloudstore.Account, cloudstore.User, time.Time) ([]notificationView, error){
		pastDueNotice, cardNotice, maintenanceNotices, transferNotices, databaseNotices,
	} {
		more, err := source(tx, acct, u, now)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// pastDueNotice: the balance is past due (until it is paid).
func pastDueNotice(_ *bbolt.Tx, acct cloudstore.Account, _ cloudstore.User, _ time.Time) ([]notificationView, error) {
	if acct.PastDueSince == nil || acct.BalanceCents <= 0 {
		return nil, nil
	}
	msg := fmt.Sprintf("Your account balance of $%.2f is past due. Please make a payment to avoid service interruption.", float64(acct.BalanceCents)/100)
	return []notificationView{{Type: "payment_due", Severity: "critical", Label: "Your account is past due", Message: msg,
		When: formatTimePtr(acct.PastDueSince), Entity: accountEntity(acct)}}, nil
}

// cardNotice: the default card expires within a month, or has expired.
func cardNotice(tx *bbolt.Tx, acct cloudstore.Account, _ cloudstore.User, now time.Time) ([]notificationView, error) {
	pms, err := cloudstore.AccountPaymentMethods(tx, acct.ID)
	if err != nil {
		return nil, err
	}
	for _, pm := range pms {
		var month, year int
		if !pm.Active || !pm.IsDefault || pm.Type != "credit_card" {
			continue
		}
		if _, err := fmt.Sscanf(pm.Expiry, "%d/%d", &month, &year); err != nil {
			continue
		}
		end := time.Date(year, time.Month(month)+1, 1, 0, 0, 0, 0, time.UTC) // the card works through its month
		if end.Sub(now) > cardSoon {
			continue
		}
		label, severity := "Your credit card expires soon", "minor"
		if !now.Before(end) {
			label, severity = "Your credit card has expired", "major"
		}
		until := end.Add(-time.Second)
		return []notificationView{{Type: "notice", Severity: severity, Label: label, When: formatTimePtr(&now), Until: formatTimePtr(&until),
			Message: fmt.Sprintf("%s ending in %s expires %s. Add a new payment method to avoid interruption.", pm.CardType, pm.LastFour, pm.Expiry),
			Entity:  &cloudstore.EventEntity{ID: pm.ID, Label: pm.CardType + " " + pm.LastFour, Type: "payment_method", URL: fmt.Sprintf("/v4/account/payment-methods/%d", pm.ID)}}}, nil
	}
	return nil, nil
}

// maintenanceNotices: maintenance ahead on the instances the user may see.
func maintenanceNotices(tx *bbolt.Tx, acct cloudstore.Account, u cloudstore.User, now time.Time) ([]notificationView, error) {
	instances, err := cloudstore.AccountInstances(tx, acct.ID)
	var out []notificationView
	for _, in := range instances {
		if u.Restricted && u.Grants.Permission("instance", in.ID) == "" {
			continue
		}
		for _, m := range in.Maintenance {
			if m.Status != "pending" || m.When.Before(now) {
				continue
			}
			out = append(out, notificationView{Type: "maintenance", Severity: "major", Label: "Maintenance scheduled",
				Message: fmt.Sprintf("%s of %s is scheduled for %s: %s.", m.Type, in.Label, formatTime(m.When), m.Reason),
				When:    formatTimePtr(&m.When), Entity: &cloudstore.EventEntity{ID: in.ID, Label: in.Label, Type: "instance", URL: fmt.Sprintf("/v4/linode/instances/%d", in.ID)}})
		}
	}
	return out, err
}
