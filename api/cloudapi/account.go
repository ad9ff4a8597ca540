package cloudapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/outbox"
	"go.etcd.io/bbolt"
)

// bindAccount registers the account's own endpoints: settings, managed-enable, network
// transfer, logins, maintenance (beta only) and notifications.
func (a *api) bindAccount(r *routes) {
	r.add(both, "GET", "/account/settings", account(accountGrant), a.getSettings)
	r.add(both, "PUT", "/account/settings", account(accountGrant), a.putSettings)
	r.add(both, "POST", "/account/settings/managed-enable", account(accountGrant), a.enableManaged)
	r.add(both, "GET", "/account/transfer", account(accountGrant), a.getTransfer)
	r.add(both, "GET", "/account/logins", account(unrestrictedOnly), a.listLogins)
	r.add(both, "GET", "/account/logins/:loginId", account(unrestrictedOnly), a.getLogin)
	r.add(betaOnly, "GET", "/account/maintenance", access{area: "maintenance", level: cloudstore.ReadOnly}, a.listMaintenance)
	r.add(both, "GET", "/account/notifications", account(accountGrant), a.listNotifications)
}

// settingsView is AccountSettings with the seed's names (monitoring, not the reference's
// longview).
type settingsView struct {
	Managed                bool    `json:"managed"`
	MonitoringSubscription *string `json:"monitoring_subscription"`
	NetworkHelper          bool    `json:"network_helper"`
	BackupsEnabled         bool    `json:"backups_enabled"`
	ObjectStorage          string  `json:"object_storage"`
}

func viewSettings(s cloudstore.AccountSettings) settingsView {
	if s.ObjectStorage == "" {
		s.ObjectStorage = "disabled"
	}
	return settingsView{Managed: s.Managed, MonitoringSubscription: s.MonitoringSubscription, NetworkHelper: s.NetworkHelper,
		BackupsEnabled: s.BackupsEnabled, ObjectStorage: s.ObjectStorage}
}

// callerAccount reads the caller's account.
func (a *api) callerAccount(tx *bbolt.Tx, c *fiber.Ctx) (cloudstore.Account, error) {
	return cloudstore.GetAccount(tx, callerOf(c).user.AccountID)
}

func (a *api) getSettings(c *fiber.Ctx) error {
	var acct cloudstore.Account
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) { acct, err = a.callerAccount(tx, c); return }); err != nil {
		return err
	}
	return c.JSON(viewSettings(acct.Settings))
}

// putSettings changes network_helper and backups_enabled. The monitoring plan is changed
// elsewhere: sending it is refused with the reference's message; the other read-only fields are
// ignored, as unknown keys are.
func (a *api) putSettings(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	if b.has("monitoring_subscription") {
		b.problems.Add("monitoring_subscription", "monitoring_subscription editing at this location is no longer available. Please use the /monitoring/plan endpoint instead.")
	}
	helper, backups := b.boolean("network_helper"), b.boolean("backups_enabled")
	if err := b.err(); err != nil {
		return err
	}
	cl, now := callerOf(c), a.Clock.Now()
	var acct cloudstore.Account
	err = a.Store.Write(func(tx *bbolt.Tx) (err error) {
		if acct, err = a.callerAccount(tx, c); err != nil {
			return err
		}
		if helper != nil {
			acct.Settings.NetworkHelper = *helper
		}
		if backups != nil {
			acct.Settings.BackupsEnabled = *backups
		}
		if err := cloudstore.PutAccount(tx, acct); err != nil {
			return err
		}
		return a.record(tx, cl, "account_settings_update", accountEntity(acct), now)
	})
	if err != nil {
		return err
	}
	return c.JSON(viewSettings(acct.Settings))
}

// enableManaged turns the managed service on for the whole account and mails the welcome to
// the account's address. Enabling it again changes nothing and sends nothing.
func (a *api) enableManaged(c *fiber.Ctx) error {
	cl, now := callerOf(c), a.Clock.Now()
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		acct, err := a.callerAccount(tx, c)
		if err != nil || acct.Settings.Managed {
			return err
		}
		acct.Settings.Managed = true
		if err := cloudstore.PutAccount(tx, acct); err != nil {
			return err
		}
		mail := &outbox.Mail{Time: now, API: "cloud", From: "managed@pocketforge.test", To: []string{acct.Email},
			Subject: "Welcome to the managed service",
			Body:    "The managed service is now enabled for your whole account. Our team monitors your services around the clock.\n"}
		if err := outbox.Send(tx, mail); err != nil {
			return err
		}
		return a.record(tx, cl, "managed_enabled", accountEntity(acct), now)
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

// accountEntity is the account as an event's entity.
func accountEntity(acct cloudstore.Account) *cloudstore.EventEntity {
	return &cloudstore.EventEntity{ID: acct.Euuid, Label: acct.Name, Type: "account", URL: "/v4/account"}
}

// transferView is the account's network use this month, in GB.
type transferView struct {
	Billable int `json:"billable"`
	Quota    int `json:"quota"`
	Used     int `json:"used"`
}

// getTransfer accrues each instance's simulated traffic over the hours the account owned it this
// month, by the clock; the quota is the sum of the instances owned now.
func (a *api) getTransfer(c *fiber.Ctx) error {
	now := a.Clock.Now()
	var v transferView
	err := a.Store.View(func(tx *bbolt.Tx) error {
		acct, err := a.callerAccount(tx, c)
		if err != nil {
			return err
		}
		used, quota, err := cloudstore.NetworkUsage(tx, acct.ID, now)
		v = transferView{Used: int(used), Quota: quota, Billable: max(0, int(used)-quota)}
		return err
	})
	if err != nil {
		return err
	}
	return c.JSON(v)
}
