package cloudsvc

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
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

// accountNotice is a notification of an account with who may see it, as s.notices keeps it.
type accountNotice struct {
	Notification
	instance uint64 // not 0: shown only to users who may view this instance
	database uint64 // not 0: shown only to users with a permission on this database
	whenRead bool   // When is the moment the list is read
}

// visibleTo says whether u may see n.
func (n accountNotice) visibleTo(u cloudstore.User) bool {
	return (n.instance == 0 || mayViewInstance(u, n.instance)) && (n.database == 0 || DatabasePermission(u, n.database) != "")
}

// noticeSource derives one kind of notification for account acct at now, noting in h when they
// would change as the clock moves on.
type noticeSource func(tx kv.Tx, acct cloudstore.Account, now time.Time, h *horizon) ([]accountNotice, error)

// Notifications derives by's account's notifications as of now, only about what by may see.
// Each source is one function; a new kind of notice adds its own to the list. Deriving them
// reads the account's payment methods, instances, transfers and databases, so the account's
// list is kept (s.notices) until a committed write or the clock moves it, and only what by may
// see is picked from it per read.
func (s *Service) Notifications(by cloudstore.User) ([]Notification, error) {
	now := s.clk.Now()
	all, err := s.notices.get(by.AccountID, now, func(tx kv.Tx, h *horizon) ([]accountNotice, error) {
		return accountNotices(tx, by.AccountID, now, h)
	})
	if err != nil {
		return nil, err
	}
	out := make([]Notification, 0, len(all))
	for _, n := range all {
		if !n.visibleTo(by) {
			continue
		}
		if n.whenRead {
			n.When = &now
		}
		out = append(out, n.Notification)
	}
	return out, nil
}

// accountNotices derives every notification of account at now.
func accountNotices(tx kv.Tx, account uint64, now time.Time, h *horizon) ([]accountNotice, error) {
	acct, err := cloudstore.GetAccount(tx, account)
	if err != nil {
		return nil, err
	}
	var out []accountNotice
	for _, source := range []noticeSource{pastDueNotice, cardNotice, maintenanceNotices, transferNotices, databaseNotices} {
		more, err := source(tx, acct, now, h)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// pastDueNotice: the balance is past due (until it is paid).
func pastDueNotice(_ kv.Tx, acct cloudstore.Account, _ time.Time, _ *horizon) ([]accountNotice, error) {
	if acct.PastDueSince == nil || acct.BalanceCents <= 0 {
		return nil, nil
	}
	msg := fmt.Sprintf("Your account balance of $%.2f is past due. Please make a payment to avoid service interruption.", float64(acct.BalanceCents)/100)
	return []accountNotice{{Notification: Notification{Type: "payment_due", Severity: "critical", Label: "Your account is past due", Message: msg,
		When: acct.PastDueSince, Entity: accountEntity(acct)}}}, nil
}

// cardNotice: the default card expires within CardSoon, or has expired (from the moment it is
// read).
func cardNotice(tx kv.Tx, acct cloudstore.Account, now time.Time, h *horizon) ([]accountNotice, error) {
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
			h.until(end.Add(-CardSoon - time.Nanosecond))
			continue
		}
		label, severity := "Your credit card expires soon", "minor"
		if !now.Before(end) {
			label, severity = "Your credit card has expired", "major"
		} else {
			h.until(end.Add(-time.Nanosecond))
		}
		until := end.Add(-time.Second)
		return []accountNotice{{whenRead: true, Notification: Notification{Type: "notice", Severity: severity, Label: label, Until: &until,
			Message: fmt.Sprintf("%s ending in %s expires %s. Add a new payment method to avoid interruption.", pm.CardType, pm.LastFour, pm.Expiry),
			Entity:  &cloudstore.EventEntity{ID: pm.ID, Label: pm.CardType + " " + pm.LastFour, Type: "payment_method", URL: fmt.Sprintf("/v4/account/payment-methods/%d", pm.ID)}}}}, nil
	}
	return nil, nil
}

// maintenanceNotices: maintenance ahead on the instances (each shown to the users who may see
// its instance), until its time has passed.
func maintenanceNotices(tx kv.Tx, acct cloudstore.Account, now time.Time, h *horizon) ([]accountNotice, error) {
	instances, err := cloudstore.AccountInstances(tx, acct.ID)
	var out []accountNotice
	for _, in := range instances {
		for _, m := range in.Maintenance {
			if m.Status != "pending" || m.When.Before(now) {
				continue
			}
			h.until(m.When)
			when := m.When
			out = append(out, accountNotice{instance: in.ID, Notification: Notification{Type: "maintenance", Severity: "major", Label: "Maintenance scheduled",
				Message: fmt.Sprintf("%s of %s is scheduled for %s: %s.", m.Type, in.Label, m.When.UTC().Format(cloudTime), m.Reason),
				When:    &when, Entity: &cloudstore.EventEntity{ID: in.ID, Label: in.Label, Type: "instance", URL: fmt.Sprintf("/v4/linode/instances/%d", in.ID)}}})
		}
	}
	return out, err
}
