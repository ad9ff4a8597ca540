package cloudsvc

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// Notification is something the account should act on. Notifications are derived from the
// account's state at each request, never stored, so one disappears the moment its cause is
// resolved.
type Notification struct {
	Entity   *cloudstore.EventEntity
	Label    string
	Message  string
	Body     *string
	Type     string // notice, maintenance, payment_due
	Severity string // minor, major, critical
	When     *time.Time
	Until    *time.Time
}

// CardSoon is how far ahead an expiring card is announced.
const CardSoon = 31 * 24 * time.Hour

// noticeSource derives one kind of notification for user u of account acct.
type noticeSource func(tx *bbolt.Tx, acct cloudstore.Account, u cloudstore.User, now time.Time) ([]Notification, error)

// Notifications derives by's account's notifications as of now, only about what by may see.
// Each source is one function; a new kind of notice adds its own to the list.
func (s *Service) Notifications(by cloudstore.User) ([]Notification, error) {
	now := s.clk.Now()
	out := []Notification{}
	err := s.db.View(func(tx *bbolt.Tx) error {
		acct, err := cloudstore.GetAccount(tx, by.AccountID)
		if err != nil {
			return err
		}
		for _, source := range []noticeSource{pastDueNotice, cardNotice, maintenanceNotices, transferNotices, databaseNotices} {
			more, err := source(tx, acct, by, now)
			if err != nil {
				return err
			}
			out = append(out, more...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// pastDueNotice: the balance is past due (until it is paid).
func pastDueNotice(_ *bbolt.Tx, acct cloudstore.Account, _ cloudstore.User, _ time.Time) ([]Notification, error) {
	if acct.PastDueSince == nil || acct.BalanceCents <= 0 {
		return nil, nil
	}
	msg := fmt.Sprintf("Your account balance of $%.2f is past due. Please make a payment to avoid service interruption.", float64(acct.BalanceCents)/100)
	return []Notification{{Type: "payment_due", Severity: "critical", Label: "Your account is past due", Message: msg,
		When: acct.PastDueSince, Entity: accountEntity(acct)}}, nil
}

// cardNotice: the default card expires within CardSoon, or has expired.
func cardNotice(tx *bbolt.Tx, acct cloudstore.Account, _ cloudstore.User, now time.Time) ([]Notification, error) {
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
		if end.Sub(now) > CardSoon {
			continue
		}
		label, severity := "Your credit card expires soon", "minor"
		if !now.Before(end) {
			label, severity = "Your credit card has expired", "major"
		}
		until := end.Add(-time.Second)
		return []Notification{{Type: "notice", Severity: severity, Label: label, When: &now, Until: &until,
			Message: fmt.Sprintf("%s ending in %s expires %s. Add a new payment method to avoid interruption.", pm.CardType, pm.LastFour, pm.Expiry),
			Entity:  &cloudstore.EventEntity{ID: pm.ID, Label: pm.CardType + " " + pm.LastFour, Type: "payment_method", URL: fmt.Sprintf("/v4/account/payment-methods/%d", pm.ID)}}}, nil
	}
	return nil, nil
}

// maintenanceNotices: maintenance ahead on the instances the user may see.
func maintenanceNotices(tx *bbolt.Tx, acct cloudstore.Account, u cloudstore.User, now time.Time) ([]Notification, error) {
	instances, err := cloudstore.AccountInstances(tx, acct.ID)
	var out []Notification
	for _, in := range instances {
		if !mayViewInstance(u, in.ID) {
			continue
		}
		for _, m := range in.Maintenance {
			if m.Status != "pending" || m.When.Before(now) {
				continue
			}
			when := m.When
			out = append(out, Notification{Type: "maintenance", Severity: "major", Label: "Maintenance scheduled",
				Message: fmt.Sprintf("%s of %s is scheduled for %s: %s.", m.Type, in.Label, m.When.UTC().Format(cloudTime), m.Reason),
				When:    &when, Entity: &cloudstore.EventEntity{ID: in.ID, Label: in.Label, Type: "instance", URL: fmt.Sprintf("/v4/linode/instances/%d", in.ID)}})
		}
	}
	return out, err
}
