package cloudapi

import (
	"fmt"

	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// dbHosts are a database's hosts: null members until it has been provisioned, as the real
// service answers ({"primary": null, "secondary": null}).
type dbHosts struct {
	Primary   *string `json:"primary"`
	Secondary *string `json:"secondary"`
	// Standby is the current API's name of the private host (the Terraform provider reads
	// it); secondary is the older one, which earlier clients read.
	Standby *string `json:"standby"`
}

// dbHead is what every database view starts with, in the real service's field order.
type dbHead struct {
	ID          uint64   `json:"id"`
	Label       string   `json:"label"`
	Type        string   `json:"type"`
	Engine      string   `json:"engine"`
	Version     string   `json:"version"`
	Region      string   `json:"region"`
	Status      string   `json:"status"`
	Encrypted   bool     `json:"encrypted"`
	AllowList   []string `json:"allow_list"`
	ClusterSize int      `json:"cluster_size"`
	Hosts       dbHosts  `json:"hosts"`
}

// dbTail is what every database view ends with.
type dbTail struct {
	Port    int                          `json:"port"`
	Updates cloudstore.MaintenanceWindow `json:"updates"`
	Created string                       `json:"created"`
	Updated string                       `json:"updated"`
}

// databaseView is the generic Database of GET /databases/instances.
type databaseView struct {
	dbHead
	dbTail
	InstanceURI string `json:"instance_uri"`
}

// sqlDatabaseView is a SqlDatabase (the real DatabaseMySQL, and DatabasePostgreSQL with its
// replication_commit_type).
type sqlDatabaseView struct {
	dbHead
	SSLConnection         bool    `json:"ssl_connection"`
	ReplicationType       string  `json:"replication_type"`
	ReplicationCommitType *string `json:"replication_commit_type,omitempty"`
	dbTail
	sqlCurrent
}

// sqlCurrent is what the current real API adds to a sql database (the Terraform provider's v2
// database resources read it; engine_config it dereferences, so it is always an object with
// every group): the platform, the nodes by address and role, the disk, the earliest instant a
// fork may restore, the fork's source (null: none) and the engine settings.
type sqlCurrent struct {
	Platform          string            `json:"platform"`
	Members           map[string]string `json:"members"`
	UsedDiskSizeGB    int               `json:"used_disk_size_gb"`
	TotalDiskSizeGB   int               `json:"total_disk_size_gb"`
	OldestRestoreTime *string           `json:"oldest_restore_time"`
	Fork              *struct{}         `json:"fork"`
	EngineConfig      map[string]any    `json:"engine_config"`
}

// current renders sqlCurrent: members (TEST-NET-3 addresses, never reachable) once provisioned.
func current(d cloudstore.Database) sqlCurrent {
	v := sqlCurrent{Platform: "rdbms-default", Members: map[string]string{}, TotalDiskSizeGB: d.DiskGB,
		EngineConfig: cloudsvc.EngineConfigView(d.Engine, d.EngineConfig)}
	if d.Status == cloudstore.DBProvisioning {
		return v
	}
	for i := range d.ClusterSize {
		role := "failover"
		if i == 0 {
			role = "primary"
		}
		v.Members[fmt.Sprintf("203.0.113.%d", (d.ID*3+uint64(i))%250+1)] = role
	}
	if d.DiskGB > 0 {
		v.UsedDiskSizeGB = 1
	}
	oldest := formatTime(d.Created)
	v.OldestRestoreTime = &oldest
	return v
}

// docDatabaseView is a DocDatabase (the real DatabaseMongoDB).
type docDatabaseView struct {
	dbHead
	Peers           []string `json:"peers"`
	ReplicaSet      *string  `json:"replica_set"`
	SSLConnection   bool     `json:"ssl_connection"`
	CompressionType string   `json:"compression_type"`
	StorageEngine   string   `json:"storage_engine"`
	dbTail
}

// hostDomain is the (reserved, never resolving) domain of the simulated database hosts.
const hostDomain = "servers.db.pocketforge.test"

// head renders the shared first part; hosts are named once provisioning is over. A connectable
// instance that listens now (d.Live, set by the domain) shows the host its clients reach;
// otherwise the simulated names stand.
func head(d cloudstore.Database) dbHead {
	h := dbHead{ID: d.ID, Label: d.Label, Type: d.Type, Engine: d.Engine, Version: d.Version, Region: d.Region,
		Status: d.Status, Encrypted: d.Encrypted, AllowList: d.AllowList, ClusterSize: d.ClusterSize}
	if h.AllowList == nil {
		h.AllowList = []string{}
	}
	if d.Status == cloudstore.DBProvisioning {
		return h
	}
	short := map[string]string{"mysql": "mysql", "postgresql": "pgsql", "mongodb": "mongo"}[d.Engine]
	primary := fmt.Sprintf("lin-%d-%d-%s-primary.%s", d.ID, 1000+d.ID%9000, short, hostDomain)
	if d.Live != nil {
		primary = d.Live.Host
	}
	h.Hosts.Primary = &primary
	if d.Family == cloudstore.FamilySQL {
		secondary := fmt.Sprintf("lin-%d-%d-%s-primary-private.%s", d.ID, 1000+d.ID%9000, short, hostDomain)
		h.Hosts.Secondary, h.Hosts.Standby = &secondary, &secondary
	}
	return h
}

// tail renders the shared last part: the port a listening instance's clients use (d.Live),
// else the engine's usual one.
func tail(d cloudstore.Database) dbTail {
	port := d.Port()
	if d.Live != nil {
		port = d.Live.Port
	}
	return dbTail{Port: port, Updates: d.Updates, Created: formatTime(d.Created), Updated: formatTime(d.Updated)}
}

// viewDatabase renders a database in its family's shape.
func viewDatabase(d cloudstore.Database) any {
	if d.Family == cloudstore.FamilyDoc {
		return viewDocDatabase(d)
	}
	v := sqlDatabaseView{dbHead: head(d), SSLConnection: d.SSLConnection, ReplicationType: d.ReplicationType, dbTail: tail(d), sqlCurrent: current(d)}
	if d.Engine == "postgresql" {
		v.ReplicationCommitType = &d.ReplicationCommitType
	}
	return v
}

// viewDocDatabase renders a docdb database: a peer per node once provisioned.
func viewDocDatabase(d cloudstore.Database) docDatabaseView {
	v := docDatabaseView{dbHead: head(d), Peers: []string{}, ReplicaSet: d.ReplicaSet, SSLConnection: d.SSLConnection,
		CompressionType: d.CompressionType, StorageEngine: d.StorageEngine, dbTail: tail(d)}
	if d.Status != cloudstore.DBProvisioning {
		for i := range d.ClusterSize {
			v.Peers = append(v.Peers, fmt.Sprintf("lin-%d-%d.%s", d.ID, 1000+d.ID%9000+uint64(i), hostDomain))
		}
	}
	return v
}

// viewGenericDatabase renders a database for the all-families list, with its instance_uri.
func viewGenericDatabase(d cloudstore.Database) any {
	return databaseView{dbHead: head(d), dbTail: tail(d), InstanceURI: d.URI()}
}

// databaseFields are the filterable fields of every database list (the reference's: label,
// type, engine, version, region, status).
var databaseFields = listing.Fields[cloudstore.Database]{
	"label":   func(d cloudstore.Database) any { return d.Label },
	"type":    func(d cloudstore.Database) any { return d.Type },
	"engine":  func(d cloudstore.Database) any { return d.Engine },
	"version": func(d cloudstore.Database) any { return d.Version },
	"region":  func(d cloudstore.Database) any { return d.Region },
	"status":  func(d cloudstore.Database) any { return d.Status },
}

// backupView is a DatabaseBackup.
type backupView struct {
	ID      uint64 `json:"id"`
	Type    string `json:"type"`
	Label   string `json:"label"`
	Created string `json:"created"`
}

// viewBackup renders a backup.
func viewBackup(b cloudstore.DatabaseBackup) backupView {
	return backupView{ID: b.ID, Type: b.Type, Label: b.Label, Created: formatTime(b.Created)}
}

// backupFields are the backup's filterable fields (type, created).
var backupFields = listing.Fields[cloudstore.DatabaseBackup]{
	"type":    func(b cloudstore.DatabaseBackup) any { return b.Type },
	"created": func(b cloudstore.DatabaseBackup) any { return b.Created },
}
