package cloudapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/cloudsvc"
)

// bindMonitoringPlan registers the monitoring subscription's endpoint, which the seed places
// "outside this document": GET|PUT /monitoring/plan under the seed's name and /longview/plan,
// the real path the Terraform provider and linodego call, plus the plans on sale. The scope
// area is the seed's monitoring (the reference's longview); grants are the domain's.
func (a *api) bindMonitoringPlan(r *routes) {
	acc := access{area: "monitoring"}
	r.addAliased(both, "GET", "/monitoring/plan", []string{"/longview/plan"}, acc, a.getMonitoringPlan)
	r.addAliased(both, "PUT", "/monitoring/plan", []string{"/longview/plan"}, acc, a.putMonitoringPlan)
	r.addAliased(both, "GET", "/monitoring/subscriptions", []string{"/longview/subscriptions"}, acc, a.listMonitoringPlans)
}

// getMonitoringPlan answers the account's plan, {} for the free one (the reference's answer).
func (a *api) getMonitoringPlan(c *fiber.Ctx) error {
	p, err := a.Cloud.AccountMonitoringPlan(callerOf(c).User)
	if err != nil {
		return err
	}
	if p == nil {
		return c.JSON(fiber.Map{})
	}
	return c.JSON(p)
}

// putMonitoringPlan moves the account to the plan named by longview_subscription (the real
// name; the seed's monitoring_subscription is read too); null or "" is the free plan.
func (a *api) putMonitoringPlan(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	id := b.str("longview_subscription")
	if !b.has("longview_subscription") {
		id = b.str("monitoring_subscription")
	}
	if err := b.err(); err != nil {
		return err
	}
	plan := ""
	if id != nil {
		plan = *id
	}
	p, err := a.Cloud.SetMonitoringPlan(callerOf(c).User, plan)
	if err != nil {
		return err
	}
	if p == nil {
		return c.JSON(fiber.Map{})
	}
	return c.JSON(p)
}

// listMonitoringPlans lists the paid plans.
func (a *api) listMonitoringPlans(c *fiber.Ctx) error {
	return renderList(c, cloudsvc.MonitoringPlans, monitoringPlanFields, func(p cloudsvc.MonitoringPlan) cloudsvc.MonitoringPlan { return p })
}

// monitoringPlanFields are the plan's filterable fields.
var monitoringPlanFields = listing.Fields[cloudsvc.MonitoringPlan]{
	"label":            func(p cloudsvc.MonitoringPlan) any { return p.Label },
	"clients_included": func(p cloudsvc.MonitoringPlan) any { return p.ClientsIncluded },
}
