package cloudapi

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/internal/testkit/testdb"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// at moves the env's clock to start+d and runs the jobs, as the appliance does each second.
func (e *env) at(d time.Duration) {
	e.clock.Set(start.Add(d))
	e.runJobs()
}

// TestDatabaseProvisioning: a new database provisions for the configured time, refusing what
// needs it active (each refusal naming the status), then is active with hosts.
func TestDatabaseProvisioning(t *testing.T) {
	e := newEnv(t, 0)
	r := e.do(t, req{method: "POST", path: "/v4/databases/sqldb/instances", token: demoToken, body: createBody()})
	if r.Status != 200 {
		t.Fatal(r.Body)
	}
	const id = 6
	prov := `{"errors":[{"reason":"Database is provisioning; this operation requires an active database"}]}`
	e.at(29 * time.Second)
	e.run(t, []scenario{
		{name: "still provisioning", req: req{path: dbPath("sqldb", id, ""), token: demoToken}, status: 200, want: []string{`"status":"provisioning"`, `"primary":null`}},
		// credentials and the CA exist from the start and are read in every status (issue 33)
		{name: "credentials", req: req{path: dbPath("sqldb", id, "/credentials"), token: demoToken}, status: 200, want: []string{`"username":"linroot"`}},
		{name: "ssl", req: req{path: dbPath("sqldb", id, "/ssl"), token: demoToken}, status: 200, want: []string{`"ca_certificate":"LS0t`}},
		{name: "patch", req: req{method: "POST", path: dbPath("sqldb", id, "/patch"), token: demoToken}, status: 400, exact: prov},
		{name: "snapshot", req: req{method: "POST", path: dbPath("sqldb", id, "/backups"), token: demoToken, body: `{"label":"first"}`}, status: 400, exact: prov},
		{name: "reset", req: req{method: "POST", path: dbPath("sqldb", id, "/credentials/reset"), token: demoToken}, status: 400, exact: prov},
		{name: "backups", req: req{path: dbPath("sqldb", id, "/backups"), token: demoToken}, status: 400,
			exact: `{"errors":[{"reason":"Database is provisioning; its backups are available once it is active"}]}`},
		{name: "a backup", req: req{path: dbPath("sqldb", id, "/backups/1"), token: demoToken}, status: 400, want: []string{"provisioning"}},
		{name: "delete", req: req{method: "DELETE", path: dbPath("sqldb", id, ""), token: demoToken}, status: 400,
			exact: `{"errors":[{"reason":"Database is provisioning; this operation requires an active, failed or degraded database"}]}`},
	})
	e.at(30 * time.Second)
	e.run(t, []scenario{
		{name: "active", req: req{path: dbPath("sqldb", id, ""), token: demoToken}, status: 200,
			want: []string{`"status":"active"`, `"primary":"lin-6-1006-mysql-primary.servers.db.pocketforge.test"`, `"updated":"2026-11-22T12:00:30"`}},
		{name: "credentials", req: req{path: dbPath("sqldb", id, "/credentials"), token: demoToken}, status: 200, want: []string{`"username":"linroot"`}},
		{name: "no backups yet", req: req{path: dbPath("sqldb", id, "/backups"), token: demoToken}, status: 200, exact: `{"data":[],"page":1,"pages":1,"results":0}`},
		{name: "the fixture provisioning at the first start is active too", req: req{path: dbPath("sqldb", reportsPG, ""), token: demoToken}, status: 200,
			want: []string{`"status":"active"`, `"primary":"lin-4-1004-pgsql-primary`}},
		{name: "postgres user", req: req{path: dbPath("sqldb", reportsPG, "/credentials"), token: demoToken}, status: 200, want: []string{`"username":"linpostgres"`}},
	})
}

// TestDatabaseProvisionTimeOption: --db-provision-time reaches the API.
func TestDatabaseProvisionTimeOption(t *testing.T) {
	e := newEnv(t, 0)
	e.app = newApp(e, cloudsvc.Options{DatabaseProvisionTime: 5 * time.Minute})
	e.do(t, req{method: "POST", path: "/v4/databases/sqldb/instances", token: demoToken, body: createBody()})
	e.at(5*time.Minute - time.Second)
	e.run(t, []scenario{{name: "provisioning", req: req{path: dbPath("sqldb", 6, ""), token: demoToken}, status: 200, want: []string{`"status":"provisioning"`}}})
	e.at(5 * time.Minute)
	e.run(t, []scenario{{name: "active", req: req{path: dbPath("sqldb", 6, ""), token: demoToken}, status: 200, want: []string{`"status":"active"`}}})
}

// TestDatabaseBackups: the snapshot label rule and target, backing_up until it is taken; the
// 00:00 UTC auto backup, seven kept; delete; restore erases the data (restoring → active).
func TestDatabaseBackups(t *testing.T) {
	e := newEnv(t, 0)
	snap := func(body string) req {
		return req{method: "POST", path: dbPath("sqldb", ordersSQL, "/backups"), token: demoToken, body: body}
	}
	list := req{path: dbPath("sqldb", ordersSQL, "/backups"), token: demoToken}
	e.run(t, []scenario{
		{name: "the fixture's week and snapshot", req: list, status: 200,
			want: []string{`"results":8`, `{"id":1,"type":"auto","label":"Scheduled - 11/16/26 00:00 UTC-`, `"created":"2026-11-16T00:00:00"`,
				`{"id":8,"type":"snapshot","label":"before-v2-migration","created":"2026-11-19T12:00:00"}`},
			header: map[string]string{"X-Accepted-OAuth-Scopes": "databases:read_write"}},
		{name: "filter by type", req: req{path: list.path, token: demoToken, header: xfilter(`{"type":"snapshot"}`)}, status: 200, want: []string{`"results":1`}},
		{name: "filter by created", req: req{path: list.path, token: demoToken, header: xfilter(`{"created":{"+gte":"2026-11-20T00:00:00"}}`)}, status: 200, want: []string{`"results":3`}},
		{name: "one backup", req: req{path: dbPath("sqldb", ordersSQL, "/backups/8"), token: demoToken}, status: 200,
			exact: `{"id":8,"type":"snapshot","label":"before-v2-migration","created":"2026-11-19T12:00:00"}`},
		{name: "another database's backup", req: req{path: dbPath("sqldb", ordersSQL, "/backups/9"), token: demoToken}, status: 404},
		{name: "label missing", req: snap(`{}`), status: 400, exact: `{"errors":[{"reason":"label is required","field":"label"}]}`},
		{name: "label short", req: snap(`{"label":"ab"}`), status: 400, exact: `{"errors":[{"reason":"Label must be 3-64 characters","field":"label"}]}`},
		{name: "label long", req: snap(`{"label":"` + strings.Repeat("b", 65) + `"}`), status: 400, want: []string{"3-64"}},
		{name: "label doubled periods", req: snap(`{"label":"v1..2"}`), status: 400, want: []string{"in a row"}},
		{name: "label starts with a dash", req: snap(`{"label":"-v1"}`), status: 400, want: []string{"begin and end"}},
		{name: "bad target", req: snap(`{"label":"v1.0","target":"tertiary"}`), status: 400, exact: `{"errors":[{"reason":"Must be one of primary, secondary","field":"target"}]}`},
		{name: "secondary on one node", req: req{method: "POST", path: dbPath("sqldb", partnerPG, "/backups"), token: daveToken, body: `{"label":"v1.0","target":"secondary"}`},
			status: 400, exact: `{"errors":[{"reason":"A secondary target needs a high availability (3-node) cluster","field":"target"}]}`},
		{name: "snapshot of a replica", req: snap(`{"label":"pre.release_2","target":"secondary"}`), status: 200, exact: `{}`},
		{name: "backing up", req: req{path: dbPath("sqldb", ordersSQL, ""), token: demoToken}, status: 200, want: []string{`"status":"backing_up"`}},
		{name: "not listed while taken", req: list, status: 200, want: []string{`"results":8`}},
		{name: "no second snapshot meanwhile", req: snap(`{"label":"again"}`), status: 400, want: []string{"Database is backing up; this operation requires an active database"}},
	})
	e.at(cloudsvc.SnapshotTime)
	e.run(t, []scenario{
		{name: "taken", req: list, status: 200, want: []string{`"results":9`, `"label":"pre.release_2","created":"2026-11-22T12:00:00"`}},
		{name: "active again", req: req{path: dbPath("sqldb", ordersSQL, ""), token: demoToken}, status: 200, want: []string{`"status":"active"`}},
		{name: "delete the old snapshot", req: req{method: "DELETE", path: dbPath("sqldb", ordersSQL, "/backups/8"), token: demoToken}, status: 200, exact: `{}`},
		{name: "gone", req: req{path: dbPath("sqldb", ordersSQL, "/backups/8"), token: demoToken}, status: 404},
		{name: "restore", req: req{method: "POST", path: dbPath("sqldb", ordersSQL, "/backups/3/restore"), token: demoToken}, status: 200, exact: `{}`},
		{name: "restoring", req: req{path: dbPath("sqldb", ordersSQL, ""), token: demoToken}, status: 200, want: []string{`"status":"restoring"`}},
		{name: "restore while restoring", req: req{method: "POST", path: dbPath("sqldb", ordersSQL, "/backups/3/restore"), token: demoToken}, status: 400, want: []string{"restoring"}},
		{name: "events", req: req{path: "/v4/account/events", token: demoToken, header: xfilter(`{"entity.id":1,"entity.type":"database"}`)}, status: 200,
			want: []string{`"results":2`, `"action":"database_backup_restore"`, `"action":"database_backup_create"`}},
	})
	e.at(cloudsvc.SnapshotTime + 20*time.Second)
	e.run(t, []scenario{{name: "restored", req: req{path: dbPath("sqldb", ordersSQL, ""), token: demoToken}, status: 200, want: []string{`"status":"active"`}}})

	// The next 00:00 UTC takes an auto backup and lets the oldest go: seven are kept, day after day.
	for day := 1; day <= 9; day++ {
		midnight := time.Date(2026, 11, 22+day, 0, 0, 0, 0, time.UTC)
		e.clock.Set(midnight)
		e.runJobs()
		e.run(t, []scenario{{name: fmt.Sprintf("day %d", day), req: req{path: list.path, token: demoToken, header: xfilter(`{"type":"auto"}`)}, status: 200,
			want: []string{`"results":7`, `"created":"` + formatTime(midnight) + `"`, `"created":"` + formatTime(midnight.AddDate(0, 0, -6)) + `"`},
			not:  []string{`"created":"` + formatTime(midnight.AddDate(0, 0, -7)) + `"`}}})
	}
}

// newApp rebinds the API over e's data file and clock with other options (e.jobs becomes the
// new app's jobs).
func newApp(e *env, opts cloudsvc.Options) *fiber.App {
	app := fiber.New(fiber.Config{ErrorHandler: RenderError, JSONEncoder: kit.MarshalJSON})
	url := func() string { return "http://pocketforge.test" }
	opts.ExternalURL = url
	cloud := cloudsvc.New(e.db, e.clock, nopLog(), opts)
	e.jobs = &jobs.Runner{}
	cloud.RegisterJobs(e.jobs)
	Bind(app, Deps{Store: e.db, Clock: e.clock, Log: nopLog(), ExternalURL: url, Limiter: newLimiter(e), Cloud: cloud})
	return app
}

// TestDatabaseRestartResumes: nothing of the lifecycle lives in memory — a database created
// before a restart finishes provisioning after it, and the job takes it from there.
func TestDatabaseRestartResumes(t *testing.T) {
	e := newEnv(t, 0)
	e.do(t, req{method: "POST", path: "/v4/databases/sqldb/instances", token: demoToken, body: createBody()})
	e.do(t, req{method: "POST", path: dbPath("sqldb", ordersSQL, "/patch"), token: demoToken})
	e.db = testdb.Reopen(t, e.db)
	e.app = newApp(e, cloudsvc.Options{})
	e.at(time.Minute)
	var got []string
	e.db.View(func(tx kv.Tx) error {
		for _, id := range []uint64{ordersSQL, 6} {
			d, _ := cloudstore.GetDatabase(tx, id)
			got = append(got, d.Label+" "+d.Status+" "+d.Next)
		}
		return nil
	})
	if strings.Join(got, ", ") != "orders-sql active , new-db active " {
		t.Fatalf("after the restart: %v", got)
	}
	e.run(t, []scenario{{name: "credentials", req: req{path: dbPath("sqldb", 6, "/credentials"), token: demoToken}, status: 200}})
}
