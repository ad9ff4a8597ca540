package cloudapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// withDatabases gives the demo account n more sqldb databases in a spread of statuses, regions
// and engines (straight in the store: the benchmark is about reading them).
func (e *env) withDatabases(tb testing.TB, n int) {
	regions := []string{"us-east", "us-west", "eu-west", "eu-central", "ap-south"}
	statuses := []string{cloudstore.DBActive, cloudstore.DBActive, cloudstore.DBActive, cloudstore.DBDegraded, cloudstore.DBFailed}
	err := e.db.Exclusive(func(tx kv.Tx) error {
		for i := 0; i < n; i++ {
			d := cloudstore.Database{AccountID: 1, Family: cloudstore.FamilySQL, Label: fmt.Sprintf("bench-%05d", i), Engine: "mysql", Version: "8.0.26",
				Type: "g6-nanode-1", Region: regions[i%len(regions)], Status: statuses[i%len(statuses)], ClusterSize: 1, SSLConnection: true,
				ReplicationType: "none", AllowList: []string{"203.0.113.0/24"}, Created: start, Updated: start, Activated: start,
				HourlyPrice: 0.0225, MonthlyPrice: 15, Updates: cloudstore.MaintenanceWindow{Frequency: "weekly", Duration: 3}}
			if i%2 == 1 {
				d.Engine, d.Version = "postgresql", "14.6"
			}
			if err := cloudstore.ImportDatabase(tx, &d, cloudstore.DatabaseSecrets{}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkListDatabases: GET /v4/databases/sqldb/instances with an X-Filter over the demo
// account's 10,000 databases, through HTTP on loopback; raw is the same answer built straight
// from bbolt (the account's index, every record decoded, the filter written by hand, the page
// encoded), no HTTP. p50/p99 are the app's per request. Budget: p50 ≤ 10 ms.
func BenchmarkListDatabases(b *testing.B) {
	e := newEnv(b, 0)
	e.withDatabases(b, 10_000)
	e.app = fiber.New(fiber.Config{ErrorHandler: RenderError, JSONEncoder: kit.MarshalJSON, DisableStartupMessage: true})
	Bind(e.app, Deps{Store: e.db, Clock: e.clock, Log: nopLog(), ExternalURL: func() string { return "" },
		Cloud: cloudsvc.New(e.db, e.clock, nopLog(), cloudsvc.Options{}), Limiter: newLimiter(e)})
	base := serveLoopback(b, e.app) + "/v4/databases/sqldb/instances"
	cases := []struct {
		name, filter string
		match        func(d cloudstore.Database) bool
	}{
		{"status and region", `{"status":"active","region":"eu-west"}`,
			func(d cloudstore.Database) bool { return d.Status == "active" && d.Region == "eu-west" }},
		{"engine, label contains, ordered", `{"engine":"postgresql","label":{"+contains":"7"},"+order_by":"label","+order":"desc"}`,
			func(d cloudstore.Database) bool { return d.Engine == "postgresql" && strings.Contains(d.Label, "7") }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			gets := newTimedGets(b, base, c.filter)
			raw := func(int) { rawDatabasePage(b, e.db, c.match) }
			gets.get(0) // the first request after a write loads the account's list into the cache
			gets.forget()
			bench.Compare(b, 1, gets.get, raw)
			gets.report()
		})
	}
}

// rawDatabasePage builds the first page of matching databases straight from bbolt.
func rawDatabasePage(b *testing.B, db *store.DB, match func(cloudstore.Database) bool) {
	err := db.View(func(tx kv.Tx) error {
		all, err := store.IndexedRecords[cloudstore.Database](tx, store.CloudAccountDatabases, store.Itob(1), store.CloudDatabases)
		var hits []cloudstore.Database
		for _, d := range all {
			if d.Family == cloudstore.FamilySQL && match(d) {
				hits = append(hits, d)
			}
		}
		page := listing.Paginate(hits, listing.Page{Page: 1, Size: 100})
		views := make([]any, len(page.Data))
		for i, d := range page.Data {
			views[i] = viewDatabase(d)
		}
		_, jerr := json.Marshal(views)
		return errors.Join(err, jerr)
	})
	if err != nil {
		b.Fatal(err)
	}
}
