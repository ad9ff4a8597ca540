package cloudapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// TestLiveDatabaseView: a database whose engine listens (Live, set by the domain) shows the
// host and port its clients reach; one that does not keeps the simulated name and the engine's
// usual port, and a provisioning one no host at all.
func TestLiveDatabaseView(t *testing.T) {
	base := cloudstore.Database{ID: 7, Family: cloudstore.FamilySQL, Engine: "mysql", Status: cloudstore.DBActive}
	cases := []struct {
		name    string
		live    *cloudstore.Endpoint
		status  string
		primary string // "" = null
		port    int
	}{
		{"listening", &cloudstore.Endpoint{Host: "demo.example.org", Port: 40123}, cloudstore.DBActive, "demo.example.org", 40123},
		{"not listening", nil, cloudstore.DBActive, "lin-7-1007-mysql-primary.servers.db.pocketforge.test", 3306},
		{"suspended", nil, cloudstore.DBSuspended, "lin-7-1007-mysql-primary.servers.db.pocketforge.test", 3306},
		{"provisioning", nil, cloudstore.DBProvisioning, "", 3306},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := base
			d.Live, d.Status = c.live, c.status
			v := viewDatabase(d).(sqlDatabaseView)
			got := ""
			if v.Hosts.Primary != nil {
				got = *v.Hosts.Primary
			}
			if got != c.primary || v.Port != c.port {
				t.Fatalf("hosts.primary %q port %d, want %q %d", got, v.Port, c.primary, c.port)
			}
		})
	}
}
