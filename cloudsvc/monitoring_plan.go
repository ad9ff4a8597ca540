package cloudsvc

import (
	"fmt"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The monitoring subscription (the real service's Longview plan): the seed names it in the
// account settings (monitoring_subscription) and says it "is changed through a different
// endpoint outside this document"; that endpoint is GET|PUT /monitoring/plan (the real path
// /longview/plan too), which the Terraform provider's linode_account_settings calls (issue 33).

// MonitoringPlan is a paid monitoring plan (LongviewSubscription).
type MonitoringPlan struct {
	ID              string           `json:"id"`
	Label           string           `json:"label"`
	ClientsIncluded int              `json:"clients_included"`
	Price           cloudstore.Price `json:"price"`
}

// MonitoringPlans are the paid plans, as the real service sells them; no plan is the free one.
var MonitoringPlans = []MonitoringPlan{
	{ID: "longview-3", Label: "Longview Pro 3 pack", ClientsIncluded: 3, Price: cloudstore.Price{Hourly: 0.03, Monthly: 20}},
	{ID: "longview-10", Label: "Longview Pro 10 pack", ClientsIncluded: 10, Price: cloudstore.Price{Hourly: 0.06, Monthly: 40}},
	{ID: "longview-40", Label: "Longview Pro 40 pack", ClientsIncluded: 40, Price: cloudstore.Price{Hourly: 0.15, Monthly: 100}},
	{ID: "longview-100", Label: "Longview Pro 100 pack", ClientsIncluded: 100, Price: cloudstore.Price{Hourly: 0.3, Monthly: 200}},
}

// monitoringPlanOf finds a paid plan by id.
func monitoringPlanOf(id string) (MonitoringPlan, bool) {
	for _, p := range MonitoringPlans {
		if p.ID == id {
			return p, true
		}
	}
	return MonitoringPlan{}, false
}

// AccountMonitoringPlan is by's account's plan (nil: the free one). A restricted user needs the
// account_access grant or one of the monitoring grants (monitoring_subscription, add_monitoring),
// as the reference says.
func (s *Service) AccountMonitoringPlan(by cloudstore.User) (*MonitoringPlan, error) {
	if by.Restricted && by.Grants.AccountAccess() == "" && (by.Grants == nil || !by.Grants.Global.MonitoringSubscription && !by.Grants.Global.AddMonitoring) {
		return nil, errUnauthorized
	}
	acct, err := s.Account(by.AccountID)
	if err != nil {
		return nil, err
	}
	return planOf(acct.Settings.MonitoringSubscription), nil
}

// SetMonitoringPlan moves by's account to plan id ("": the free plan) and records
// account_settings_update; a restricted user needs the monitoring_subscription grant.
func (s *Service) SetMonitoringPlan(by cloudstore.User, id string) (*MonitoringPlan, error) {
	if by.Restricted && (by.Grants == nil || !by.Grants.Global.MonitoringSubscription) {
		return nil, errUnauthorized
	}
	var ids []string
	for _, p := range MonitoringPlans {
		ids = append(ids, p.ID)
	}
	if _, ok := monitoringPlanOf(id); !ok && id != "" {
		return nil, store.Problems{{Field: "longview_subscription", Reason: fmt.Sprintf("Must be one of %s, or empty for the free plan", strings.Join(ids, ", "))}}
	}
	now := s.clk.Now()
	err := s.db.Write(func(tx kv.Tx) error {
		acct, err := cloudstore.GetAccount(tx, by.AccountID)
		if err != nil {
			return err
		}
		acct.Settings.MonitoringSubscription = nil
		if id != "" {
			acct.Settings.MonitoringSubscription = &id
		}
		if err := cloudstore.PutAccount(tx, acct); err != nil {
			return err
		}
		return record(tx, by, "account_settings_update", accountEntity(acct), now)
	})
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, nil
	}
	return planOf(&id), nil
}

// planOf is the plan of a subscription id (nil: none or unknown, the free plan).
func planOf(id *string) *MonitoringPlan {
	if id == nil {
		return nil
	}
	p, ok := monitoringPlanOf(*id)
	if !ok {
		return nil
	}
	return &p
}
