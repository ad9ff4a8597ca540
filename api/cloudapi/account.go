package cloudapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/cloudstore"
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
// longview), and the monitoring plan under its real name too, longview_subscription, which
// linodego and the Terraform provider read (linode_account_settings compares it with the plan
// it set through /longview/plan).
type settingsView struct {
	Managed                bool    `json:"managed"`
	MonitoringSubscription *string `json:"monitoring_subscription"`
	LongviewSubscription   *string `json:"longview_subscription"`
	NetworkHelper          bool    `json:"network_helper"`
	BackupsEnabled         bool    `json:"backups_enabled"`
	ObjectStorage          string  `json:"object_storage"`
}

func viewSettings(s cloudstore.AccountSettings) settingsView {
	if s.ObjectStorage == "" {
		s.ObjectStorage = "disabled"
	}
	return settingsView{Managed: s.Managed, MonitoringSubscription: s.MonitoringSubscription, LongviewSubscription: s.MonitoringSubscription, NetworkHelper: s.NetworkHelper,
		BackupsEnabled: s.BackupsEnabled, ObjectStorage: s.ObjectStorage}
}

func (a *api) getSettings(c *fiber.Ctx) error {
	acct, err := a.Cloud.Account(callerOf(c).User.AccountID)
	if err != nil {
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
	acct, err := a.Cloud.UpdateSettings(callerOf(c).User, helper, backups)
	if err != nil {
		return err
	}
	return c.JSON(viewSettings(acct.Settings))
}

// enableManaged turns the managed service on for the whole account (see
// cloudsvc.EnableManaged).
func (a *api) enableManaged(c *fiber.Ctx) error {
	if err := a.Cloud.EnableManaged(callerOf(c).User); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
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
	used, quota, err := a.Cloud.NetworkUsage(callerOf(c).User.AccountID)
	if err != nil {
		return err
	}
	return c.JSON(transferView{Used: int(used), Quota: quota, Billable: max(0, int(used)-quota)})
}
