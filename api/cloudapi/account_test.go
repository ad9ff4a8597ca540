package cloudapi

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

func TestAccountSettings(t *testing.T) {
	e := newEnv(t, 0)
	e.run(t, []scenario{
		{name: "view", req: req{path: "/v4/account/settings", token: demoToken}, status: 200,
			exact: `{"managed":false,"monitoring_subscription":null,"longview_subscription":null,"network_helper":true,"backups_enabled":false,"object_storage":"disabled"}`},
		{name: "restricted with account_access read_only may view", req: req{path: "/v4/account/settings", token: carolToken}, status: 200},
		{name: "but not change", req: req{method: "PUT", path: "/v4/account/settings", token: carolToken, body: `{"network_helper":false}`}, status: 403},
		{name: "change", req: req{method: "PUT", path: "/v4/account/settings", token: demoToken, body: `{"network_helper":false,"backups_enabled":true,"managed":true}`}, status: 200,
			exact: `{"managed":false,"monitoring_subscription":null,"longview_subscription":null,"network_helper":false,"backups_enabled":true,"object_storage":"disabled"}`},
		{name: "monitoring plan changes are elsewhere", req: req{method: "PUT", path: "/v4/account/settings", token: demoToken, body: `{"monitoring_subscription":"monitoring-3"}`}, status: 400,
			exact: `{"errors":[{"reason":"monitoring_subscription editing at this location is no longer available. Please use the /monitoring/plan endpoint instead.","field":"monitoring_subscription"}]}`},
		{name: "wrong type", req: req{method: "PUT", path: "/v4/account/settings", token: demoToken, body: `{"network_helper":"on"}`}, status: 400, want: []string{`"field":"network_helper"`}},
		{name: "managed-enable", req: req{method: "POST", path: "/v4/account/settings/managed-enable", token: demoToken, body: `{}`}, status: 200, exact: `{}`},
		{name: "managed now", req: req{path: "/v4/account/settings", token: demoToken}, status: 200, want: []string{`"managed":true`}},
		{name: "enabling again is harmless", req: req{method: "POST", path: "/v4/account/settings/managed-enable", token: demoToken}, status: 200},
	})
	e.db.View(func(tx kv.Tx) error {
		mails, _ := outbox.List(tx, "billing@demo.pocketforge.test", 0)
		if len(mails) != 1 || !strings.Contains(mails[0].Subject, "managed") {
			t.Errorf("managed welcome mail: %+v", mails)
		}
		return nil
	})
}

// TestNetworkTransfer: usage accrues by the clock over the hours each instance was owned this
// month.
func TestNetworkTransfer(t *testing.T) {
	e := newEnv(t, 0)
	e.clock.Set(time.Date(2026, 12, 11, 0, 0, 0, 0, time.UTC)) // ten days into December
	// demo: web-1 12.5 + web-2 9 + worker-1 2 + batch-1 1 + edge-1 3 GB/day = 27.5 × 10 days
	e.run(t, []scenario{
		{name: "demo", req: req{path: "/v4/account/transfer", token: demoToken}, status: 200, exact: `{"billable":0,"quota":16000,"used":275}`},
		{name: "partner", req: req{path: "/v4/account/transfer", token: daveToken}, status: 200, exact: `{"billable":0,"quota":2000,"used":40}`},
	})
}

func TestLoginsAndMaintenance(t *testing.T) {
	e := newEnv(t, 0)
	for _, who := range [][2]string{{"demo", "demo-password"}, {"carol", "carol-password"}, {"dave", "dave-password"}} {
		e.authorize(t, url.Values{"client_id": {cliClient}}, who[0], who[1])
	}
	e.run(t, []scenario{
		{name: "logins of all account users", req: req{path: "/v4/account/logins", token: demoToken}, status: 200,
			want: []string{`"results":2`, `"username":"carol","restricted":true,"status":"successful"`, `"username":"demo"`}, not: []string{"dave"}},
		{name: "restricted users cannot", req: req{path: "/v4/account/logins", token: carolToken}, status: 403},
		{name: "one login", req: req{path: "/v4/account/logins/1", token: demoToken}, status: 200, want: []string{`"id":1,"datetime":"2026-11-22T12:00:00"`}},
		{name: "another account's login", req: req{path: "/v4/account/logins/3", token: demoToken}, status: 404},
		{name: "maintenance is beta only", req: req{path: "/v4/account/maintenance", token: demoToken}, status: 404},
		{name: "maintenance", req: req{path: "/v4beta/account/maintenance", token: demoToken}, status: 200,
			want: []string{`"type":"reboot","status":"pending","reason":"Host BIOS update"`, `"entity":{"id":1,"label":"web-1","type":"instance"`}},
		{name: "maintenance filtered", req: req{path: "/v4beta/account/maintenance", token: demoToken, header: map[string]string{"X-Filter": `{"status":"started"}`}}, status: 200, want: []string{`"results":0`}},
		{name: "maintenance needs its scope", req: req{path: "/v4beta/account/maintenance", token: e.token(t, "demo", "account:read_write", nil)}, status: 403},
	})
	e.clock.Advance(91 * 24 * time.Hour)
	e.run(t, []scenario{{name: "logins older than 90 days are gone", req: req{path: "/v4/account/logins", token: demoToken}, status: 200, want: []string{`"results":0`}}})
}

func TestNotifications(t *testing.T) {
	e := newEnv(t, 0)
	e.run(t, []scenario{
		{name: "maintenance ahead", req: req{path: "/v4/account/notifications", token: demoToken}, status: 200,
			want: []string{`"type":"maintenance","severity":"major"`, "reboot of web-1"}, not: []string{"payment_due"}},
		{name: "carol sees web-1's too", req: req{path: "/v4/account/notifications", token: carolToken}, status: 200, want: []string{"web-1"}},
	})
	// A past-due balance shows until it is paid.
	setAccount := func(fn func(*cloudstore.Account)) {
		e.db.Write(func(tx kv.Tx) error {
			a, _ := cloudstore.GetAccount(tx, 1)
			fn(&a)
			return cloudstore.PutAccount(tx, a)
		})
	}
	since := start.Add(-72 * time.Hour)
	setAccount(func(a *cloudstore.Account) { a.BalanceCents, a.PastDueSince = 4512, &since })
	e.run(t, []scenario{{name: "past due", req: req{path: "/v4/account/notifications", token: demoToken}, status: 200,
		want: []string{`"type":"payment_due","severity":"critical"`, "$45.12"}}})
	setAccount(func(a *cloudstore.Account) { a.BalanceCents, a.PastDueSince = 0, nil })
	e.run(t, []scenario{{name: "paid: gone", req: req{path: "/v4/account/notifications", token: demoToken}, status: 200, not: []string{"payment_due"}}})
	// A card that expires this month.
	e.db.Write(func(tx kv.Tx) error {
		pm := cloudstore.PaymentMethod{ID: 900, AccountID: 2, Type: "credit_card", IsDefault: true, Active: true, CardType: "MasterCard", LastFour: "4444", Expiry: "11/2026"}
		return putTestCard(tx, pm)
	})
	e.run(t, []scenario{{name: "card expiring", req: req{path: "/v4/account/notifications", token: daveToken}, status: 200,
		want: []string{`"label":"Your credit card expires soon"`, "ending in 4444"}}})
	// A pending transfer shows for the sender until it is accepted, cancelled or expires.
	e.run(t, []scenario{
		{name: "offer worker-1", req: req{method: "POST", path: "/v4/account/service-transfers", token: demoToken, body: `{"entities":{"instances":[3]}}`}, status: 200},
		{name: "transfer pending", req: req{path: "/v4/account/notifications", token: demoToken}, status: 200, want: []string{`"label":"A service transfer is pending"`}},
	})
	e.clock.Advance(30 * 24 * time.Hour)
	e.run(t, []scenario{{name: "expired transfer: gone", req: req{path: "/v4/account/notifications", token: demoToken}, status: 200, not: []string{"service transfer"}}})
	e.run(t, []scenario{{name: "card expired", req: req{path: "/v4/account/notifications", token: daveToken}, status: 200,
		want: []string{`"label":"Your credit card has expired","message"`}}})
}
