package e2e

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linode/linodego"
)

// TestLinodegoTerraformNeeds (issue 33): each thing Terraform's linode provider needs, asked
// with linodego as the provider asks it, against the built binary.
func TestLinodegoTerraformNeeds(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--bootstrap-token", e2eToken, "--dev-clock", "--db-provision-time", "10s")
	p.waitReady(t)
	ctx := context.Background()
	c := cloudClient(p, e2eToken)
	advance := func(d string) {
		request(t, "POST", p.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"`+d+`"}`))
	}
	var apiErr *linodego.Error

	t.Run("instance types", func(t *testing.T) {
		types, err := c.ListTypes(ctx, &linodego.ListOptions{PageOptions: &linodego.PageOptions{Page: 1}, PageSize: 100})
		if err != nil || len(types) < 6 {
			t.Fatalf("ListTypes: %+v %v", types, err)
		}
		nano, err := c.GetType(ctx, "g6-nanode-1")
		if err != nil || nano.Class != "nanode" || nano.Memory != 1024 || nano.Price == nil || nano.Price.Monthly != 5 || nano.Addons == nil || nano.Addons.Backups == nil {
			t.Fatalf("GetType: %+v %v", nano, err)
		}
		// every database plan is a compute plan of the same size
		dbTypes, err := c.ListDatabaseTypes(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dbTypes {
			it, err := c.GetType(ctx, d.ID)
			if err != nil || it.Memory != d.Memory || it.VCPUs != d.VirtualCPUs || it.Disk != d.Disk {
				t.Errorf("database type %s: compute plan %+v %v", d.ID, it, err)
			}
		}
		// the seed's name for compute, public as on the real service
		if code, body := request(t, "GET", p.url+"/v4/instances/types/g6-standard-2", "", nil); code != 200 || !strings.Contains(body, `"label":"Linode 4GB"`) {
			t.Fatalf("/v4/instances/types: %d %s", code, body)
		}
		if _, err := c.GetType(ctx, "g9-nope"); !errors.As(err, &apiErr) || apiErr.Code != 404 {
			t.Fatalf("an unknown type: %v", err)
		}
	})

	t.Run("a lone +order", func(t *testing.T) {
		users, err := c.ListUsers(ctx, &linodego.ListOptions{Filter: `{"+and":[],"+order":"desc"}`})
		if err != nil || len(users) == 0 {
			t.Fatalf("ListUsers with the provider's filter: %+v %v", users, err)
		}
		plain, _ := c.ListUsers(ctx, nil)
		if users[0].Username != plain[0].Username {
			t.Errorf("a lone +order changed the order: %s, not %s", users[0].Username, plain[0].Username)
		}
		if _, err := c.ListUsers(ctx, &linodego.ListOptions{Filter: `{"+order":"down"}`}); !errors.As(err, &apiErr) || apiErr.Code != 400 {
			t.Fatalf("+order down: %v", err)
		}
	})

	t.Run("major engine versions", func(t *testing.T) {
		eng, err := c.GetDatabaseEngine(ctx, nil, "mysql/8")
		if err != nil || eng.Version != "8" {
			t.Fatalf("GetDatabaseEngine mysql/8: %+v %v", eng, err)
		}
		pg, err := c.ListDatabaseEngines(ctx, &linodego.ListOptions{Filter: `{"engine":"postgresql","version":"17"}`})
		if err != nil || len(pg) != 1 || pg[0].ID != "postgresql/17" {
			t.Fatalf("postgresql/17: %+v %v", pg, err)
		}
		if old, err := c.GetDatabaseEngine(ctx, nil, "mysql/8.0.26"); err != nil || old.Version != "8.0.26" {
			t.Fatalf("the full-version id still answers: %+v %v", old, err)
		}
	})

	t.Run("engine config", func(t *testing.T) {
		info, err := c.GetMySQLDatabaseConfig(ctx)
		if err != nil || info.MySQL.ConnectTimeout.Minimum != 2 || info.MySQL.ConnectTimeout.Maximum != 3600 || info.BinlogRetentionPeriod.Minimum != 600 {
			t.Fatalf("GetMySQLDatabaseConfig: %+v %v", info, err)
		}
		pgInfo, err := c.GetPostgresDatabaseConfig(ctx)
		if err != nil || pgInfo.WorkMem.Maximum != 1024 || len(pgInfo.PG.PasswordEncryption.Enum) != 2 {
			t.Fatalf("GetPostgresDatabaseConfig: %+v %v", pgInfo, err)
		}
		bad := linodego.MySQLCreateOptions{Label: "tf-bad", Region: "us-east", Type: "g6-nanode-1", Engine: "mysql/8",
			EngineConfig: &linodego.MySQLDatabaseEngineConfig{MySQL: &linodego.MySQLDatabaseEngineConfigMySQL{ConnectTimeout: linodego.Pointer(1)}}}
		if _, err := c.CreateMySQLDatabase(ctx, bad); !errors.As(err, &apiErr) || apiErr.Code != 400 || !strings.Contains(err.Error(), "engine_config.mysql.connect_timeout") {
			t.Fatalf("connect_timeout 1: %v", err)
		}
		pgDB, err := c.CreatePostgresDatabase(ctx, linodego.PostgresCreateOptions{Label: "tf-pg", Region: "us-east", Type: "g6-nanode-1", Engine: "postgresql/16",
			EngineConfig: &linodego.PostgresDatabaseEngineConfig{WorkMem: linodego.Pointer(8), PG: &linodego.PostgresDatabaseEngineConfigPG{Timezone: linodego.Pointer("Europe/Helsinki")}}})
		if err != nil || pgDB.Version != "16.4" || pgDB.EngineConfig.WorkMem == nil || *pgDB.EngineConfig.WorkMem != 8 ||
			pgDB.EngineConfig.PG == nil || *pgDB.EngineConfig.PG.Timezone != "Europe/Helsinki" || *pgDB.EngineConfig.PG.JIT != true || pgDB.EngineConfig.PGLookout == nil {
			t.Fatalf("CreatePostgresDatabase with engine_config: %+v %v", pgDB, err)
		}
	})

	t.Run("a database's events, credentials in every status, engine_config on update", func(t *testing.T) {
		db, err := c.CreateMySQLDatabase(ctx, linodego.MySQLCreateOptions{Label: "tf-mysql", Region: "us-east", Type: "g6-nanode-1", Engine: "mysql/8",
			EngineConfig: &linodego.MySQLDatabaseEngineConfig{MySQL: &linodego.MySQLDatabaseEngineConfigMySQL{ConnectTimeout: linodego.Pointer(20)}}})
		if err != nil || db.Version != "8.0.35" || db.EngineConfig.MySQL == nil || *db.EngineConfig.MySQL.ConnectTimeout != 20 || *db.EngineConfig.MySQL.WaitTimeout != 28800 {
			t.Fatalf("CreateMySQLDatabase mysql/8: %+v %v", db, err)
		}
		event := databaseEvent(t, c, db.ID, linodego.ActionDatabaseCreate)
		// The percent follows the wall clock over the provisioning time: a loaded machine may
		// have let a percent or two pass between the create and this read.
		if event.Status != linodego.EventStarted || event.PercentComplete > 5 {
			t.Fatalf("database_create at once: %s %d%%", event.Status, event.PercentComplete)
		}
		// the credentials and the CA exist from the start
		if _, err := c.GetMySQLDatabaseCredentials(ctx, db.ID); err != nil {
			t.Fatalf("credentials while provisioning: %v", err)
		}
		advance("5s")
		if e, err := c.GetEvent(ctx, event.ID); err != nil || e.Status != linodego.EventStarted || e.PercentComplete < 40 || e.PercentComplete > 60 || e.TimeRemaining == nil {
			t.Fatalf("database_create half way: %+v %v", e, err)
		}
		advance("6s")
		if e, err := c.GetEvent(ctx, event.ID); err != nil || e.Status != linodego.EventFinished || e.PercentComplete != 100 || e.Duration != 10 {
			t.Fatalf("database_create after provisioning: %+v %v", e, err)
		}
		waitStatus(t, c, db.ID, "active")
		up, err := c.UpdateMySQLDatabase(ctx, db.ID, linodego.MySQLUpdateOptions{Label: "tf-mysql-2",
			EngineConfig: &linodego.MySQLDatabaseEngineConfig{MySQL: &linodego.MySQLDatabaseEngineConfigMySQL{SQLRequirePrimaryKey: linodego.Pointer(true)}}})
		if err != nil || up.Status != "updating" || *up.EngineConfig.MySQL.ConnectTimeout != 20 || up.EngineConfig.MySQL.SQLRequirePrimaryKey == nil || !*up.EngineConfig.MySQL.SQLRequirePrimaryKey {
			t.Fatalf("UpdateMySQLDatabase: %+v %v", up, err)
		}
		// read right after the update, as the provider does
		if _, err := c.GetMySQLDatabaseSSL(ctx, db.ID); err != nil {
			t.Fatalf("ssl while updating: %v", err)
		}
		if _, err := c.GetMySQLDatabaseCredentials(ctx, db.ID); err != nil {
			t.Fatalf("credentials while updating: %v", err)
		}
		update := databaseEvent(t, c, db.ID, linodego.ActionDatabaseUpdate)
		if update.Status != linodego.EventStarted {
			t.Fatalf("database_update at once: %s", update.Status)
		}
		advance("11s")
		if e, err := c.GetEvent(ctx, update.ID); err != nil || e.Status != linodego.EventFinished {
			t.Fatalf("database_update after updating: %+v %v", e, err)
		}
	})

	t.Run("resize and upgrade", func(t *testing.T) {
		db, err := c.CreateMySQLDatabase(ctx, linodego.MySQLCreateOptions{Label: "tf-grow", Region: "us-east", Type: "g6-nanode-1", Engine: "mysql/8.0.26"})
		if err != nil {
			t.Fatal(err)
		}
		advance("11s")
		waitStatus(t, c, db.ID, "active")
		for _, bad := range []linodego.MySQLUpdateOptions{{Type: "g5-standard-1"}, {ClusterSize: 2}, {Version: "5.7.30"}, {Version: "9"}} {
			if _, err := c.UpdateMySQLDatabase(ctx, db.ID, bad); !errors.As(err, &apiErr) || apiErr.Code != 400 {
				t.Errorf("%+v: %v", bad, err)
			}
		}
		up, err := c.UpdateMySQLDatabase(ctx, db.ID, linodego.MySQLUpdateOptions{Type: "g6-standard-1", ClusterSize: 3})
		if err != nil || up.Status != "resizing" || up.Type != "g6-standard-1" || up.ClusterSize != 3 || up.TotalDiskSizeGB != 50 {
			t.Fatalf("a resize: %+v %v", up, err)
		}
		resize := databaseEvent(t, c, db.ID, linodego.ActionDatabaseResize)
		advance("21s")
		if e, err := c.GetEvent(ctx, resize.ID); err != nil || e.Status != linodego.EventFinished {
			t.Fatalf("database_resize: %+v %v", e, err)
		}
		waitStatus(t, c, db.ID, "active")
		if _, err := c.UpdateMySQLDatabase(ctx, db.ID, linodego.MySQLUpdateOptions{ClusterSize: 1}); !errors.As(err, &apiErr) || apiErr.Code != 400 {
			t.Fatalf("a cluster that shrinks: %v", err)
		}
		// engine_id mysql/8.0.26 → mysql/8, as the provider sends it: version "8"
		if up, err = c.UpdateMySQLDatabase(ctx, db.ID, linodego.MySQLUpdateOptions{Version: "8"}); err != nil || up.Version != "8.0.35" || up.Status != "updating" {
			t.Fatalf("an upgrade: %+v %v", up, err)
		}
		if e := databaseEvent(t, c, db.ID, linodego.ActionDatabaseUpdate); e.Status != linodego.EventStarted {
			t.Fatalf("the upgrade's database_update: %+v", e)
		}
	})

	t.Run("the monitoring plan", func(t *testing.T) {
		plan, err := c.UpdateLongviewPlan(ctx, linodego.LongviewPlanUpdateOptions{LongviewSubscription: "longview-10"})
		if err != nil || plan.ID != "longview-10" || plan.ClientsIncluded != 10 {
			t.Fatalf("UpdateLongviewPlan: %+v %v", plan, err)
		}
		if got, err := c.GetLongviewPlan(ctx); err != nil || got.ID != "longview-10" {
			t.Fatalf("GetLongviewPlan: %+v %v", got, err)
		}
		s, err := c.GetAccountSettings(ctx)
		if err != nil || s.LongviewSubscription == nil || *s.LongviewSubscription != "longview-10" {
			t.Fatalf("GetAccountSettings: %+v %v", s, err)
		}
		if code, body := request(t, "GET", p.url+"/v4/monitoring/plan", e2eToken, nil); code != 200 || !strings.Contains(body, `"id":"longview-10"`) {
			t.Fatalf("/v4/monitoring/plan: %d %s", code, body)
		}
		if _, err := c.UpdateLongviewPlan(ctx, linodego.LongviewPlanUpdateOptions{LongviewSubscription: "longview-7"}); !errors.As(err, &apiErr) || apiErr.Code != 400 {
			t.Fatalf("an unknown plan: %v", err)
		}
		if _, err := c.UpdateLongviewPlan(ctx, linodego.LongviewPlanUpdateOptions{}); err != nil {
			t.Fatalf("back to the free plan: %v", err)
		}
		if code, body := request(t, "GET", p.url+"/v4/longview/plan", e2eToken, nil); code != 200 || body != "{}" {
			t.Fatalf("the free plan: %d %s", code, body)
		}
	})
}

// databaseEvent finds the newest event of action on database id, as linodego's event poller
// lists them.
func databaseEvent(t *testing.T, c *linodego.Client, id int, action linodego.EventAction) linodego.Event {
	t.Helper()
	f := linodego.Filter{OrderBy: "created", Order: linodego.Descending}
	f.AddField(linodego.Eq, "entity.type", linodego.EntityDatabase)
	f.AddField(linodego.Eq, "entity.id", id)
	f.AddField(linodego.Eq, "action", action)
	raw, _ := f.MarshalJSON()
	events, err := c.ListEvents(context.Background(), &linodego.ListOptions{Filter: string(raw)})
	if err != nil || len(events) == 0 {
		t.Fatalf("%s events of database %d: %+v %v", action, id, events, err)
	}
	return events[0]
}
