package cloudstore

import (
	"encoding/json"
	"fmt"
	"time"
)

// Managed databases come in the seed's two families, named by their path segment: sqldb (the
// real service's mysql and postgresql families) and docdb (its mongodb family).
const (
	FamilySQL = "sqldb"
	FamilyDoc = "docdb"
)

// Database statuses: the seed's four and the real service's transient ones the appliance passes
// through (updating, backing_up, restoring).
const (
	DBProvisioning = "provisioning"
	DBActive       = "active"
	DBUpdating     = "updating"
	DBBackingUp    = "backing_up"
	DBRestoring    = "restoring"
	DBResizing     = "resizing" // a PUT with a new type or cluster size
	DBFailed       = "failed"
	DBDegraded     = "degraded"
	// The later real API's suspend and resume (not in 4.139): a suspended database keeps its
	// data and serves no client.
	DBSuspending = "suspending"
	DBSuspended  = "suspended"
	DBResuming   = "resuming"
)

// Operations that put a database in a transient status (Database.Op).
const (
	OpProvision = "provision"
	OpUpdate    = "update"
	OpPatch     = "patch"
	OpSnapshot  = "snapshot"
	OpRestore   = "restore"
	OpResize    = "resize"
	OpSuspend   = "suspend"
	OpResume    = "resume"
)

// Database is one managed database cluster. Its record is kept compact (secrets and backups
// live in their own buckets) because lists of thousands are decoded and filtered.
//
// A transient status (provisioning, updating, backing_up, restoring) ends by the clock: Next is
// the status it ends in and Until when. Readers see the outcome as soon as Until passes (At);
// the databases job persists it. Nothing about the lifecycle is held in memory, so a restart
// resumes it.
type Database struct {
	ID        uint64 `json:"id"`
	AccountID uint64 `json:"account_id"`
	Family    string `json:"family"`
	Label     string `json:"label"`
	Engine    string `json:"engine"` // mysql, postgresql, mongodb
	Version   string `json:"version"`
	Type      string `json:"type"`
	Region    string `json:"region"`
	Status    string `json:"status"`
	// Op is the operation under way while the status is transient.
	Op    string    `json:"op,omitempty"`
	Next  string    `json:"next,omitempty"`
	Until time.Time `json:"until,omitzero"`
	// Due is when the databases job next has work on this database (zero: never); it mirrors
	// the database's key in store.CloudDatabaseSchedule.
	Due time.Time `json:"due,omitzero"`

	ClusterSize           int               `json:"cluster_size"`
	Encrypted             bool              `json:"encrypted"`
	SSLConnection         bool              `json:"ssl_connection"`
	ReplicationType       string            `json:"replication_type,omitempty"`        // sqldb
	ReplicationCommitType string            `json:"replication_commit_type,omitempty"` // postgresql
	ReplicaSet            *string           `json:"replica_set,omitempty"`             // docdb
	CompressionType       string            `json:"compression_type,omitempty"`        // docdb
	StorageEngine         string            `json:"storage_engine,omitempty"`          // docdb
	AllowList             []string          `json:"allow_list"`
	Updates               MaintenanceWindow `json:"updates"`
	// EngineConfig holds the engine settings chosen (engine_config), keyed "<group>/<name>" or
	// "<name>"; cloudsvc checks them and shows them over the defaults.
	EngineConfig map[string]any `json:"engine_config,omitempty"`
	// DiskGB is the disk of the database's plan (total_disk_size_gb).
	DiskGB int `json:"disk_gb,omitempty"`

	Created   time.Time  `json:"created"`
	Updated   time.Time  `json:"updated"`
	Activated time.Time  `json:"activated,omitzero"` // when provisioning ended; auto backups start after it
	Deleted   *time.Time `json:"deleted,omitempty"`
	// CredentialsReset is the last credentials reset: a backup older than it cannot be restored.
	CredentialsReset time.Time `json:"credentials_reset,omitzero"`
	// DataGeneration counts the restores: each one replaces the data with a backup's.
	DataGeneration uint64 `json:"data_generation,omitempty"`
	// LastAutoBackup is the midnight of the newest auto backup; OldestAutoBackup the oldest kept.
	LastAutoBackup   time.Time `json:"last_auto_backup,omitzero"`
	OldestAutoBackup time.Time `json:"oldest_auto_backup,omitzero"`

	// SQLPort is the port a connectable instance's engine last listened on (0: never), chosen
	// by the OS at its first start and kept, so a restart rebinds the same port when it is free.
	SQLPort int `json:"sql_port,omitempty"`
	// Live is where the instance's engine listens right now: set by cloudsvc on the records it
	// returns (never stored), nil while it does not listen, so the view shows a real host and
	// port only while a client can reach them.
	Live *Endpoint `json:"-"`

	// HourlyPrice and MonthlyPrice (dollars) are the type's price for the cluster size when the
	// database was created; Complimentary databases are not billed (the demo world's).
	HourlyPrice   float64 `json:"hourly_price"`
	MonthlyPrice  float64 `json:"monthly_price"`
	Complimentary bool    `json:"complimentary,omitempty"`
}

// Endpoint is a listening engine's address as clients reach it: --external-url's host name and
// the listener's port.
type Endpoint struct {
	Host string
	Port int
}

// Connectable tells whether the database is of the kind the appliance serves for real: a mysql
// instance of the sqldb family (sqlengine speaks MySQL's wire protocol only; postgresql and
// docdb instances stay simulated records).
func (d Database) Connectable() bool {
	return d.Family == FamilySQL && d.Engine == "mysql"
}

// MaintenanceWindow is a database's `updates`: when OS patches are applied.
type MaintenanceWindow struct {
	Frequency   string `json:"frequency"` // weekly, monthly
	Duration    int    `json:"duration"`  // hours, 1-3
	HourOfDay   int    `json:"hour_of_day"`
	DayOfWeek   *int   `json:"day_of_week"`   // 1 = Monday … 7; null until chosen
	WeekOfMonth *int   `json:"week_of_month"` // 1-4 for monthly, null for weekly
}

// Port is the port the database's engine listens on.
func (d Database) Port() int {
	switch d.Engine {
	case "postgresql":
		return 5432
	case "mongodb":
		return 27017
	}
	return 3306
}

// EventEntity is the database as an event's (or notification's) entity.
func (d Database) EventEntity() *EventEntity {
	return &EventEntity{ID: d.ID, Label: d.Label, Type: "database", URL: d.URI()}
}

// URI is the database's detail path, the generic list's instance_uri.
func (d Database) URI() string {
	return fmt.Sprintf("/v4/databases/%s/instances/%d", d.Family, d.ID)
}

// At is the database as it stands at now: a transient status whose time is up has ended.
func (d Database) At(now time.Time) Database {
	if d.Next != "" && !now.Before(d.Until) {
		if d.Status == DBProvisioning && d.Next == DBActive {
			d.Activated = d.Until
		}
		d.Status, d.Updated = d.Next, d.Until
		d.Next, d.Op, d.Until = "", "", time.Time{}
	}
	return d
}

// DatabasesAt applies At to a list; it returns the list itself (which may be a shared cache)
// when no transient status has ended, and a copy otherwise.
func DatabasesAt(list []Database, now time.Time) []Database {
	for i := range list {
		if list[i].Next != "" && !now.Before(list[i].Until) {
			out := make([]Database, len(list))
			for j := range list {
				out[j] = list[j].At(now)
			}
			return out
		}
	}
	return list
}

// FamilyOf is the family an engine belongs to.
func FamilyOf(engine string) string {
	if engine == "mongodb" {
		return FamilyDoc
	}
	return FamilySQL
}

// NewDatabase is a create request as sent (the input of cloudsvc's CreateDatabase): nil fields
// were not sent (or were null).
type NewDatabase struct {
	Label, Engine, Type, Region            *string
	ClusterSize                            *int
	Encrypted, SSLConnection               *bool
	ReplicationType, ReplicationCommitType *string
	// AllowList holds the raw entries (nil: none sent); cloudsvc normalises them.
	AllowList []string
	// EngineConfig is the engine_config object as sent (nil: none); cloudsvc checks it.
	EngineConfig json.RawMessage
	// Secrets are made by the caller before its transaction (NewDatabaseSecrets).
	Secrets DatabaseSecrets
}

// DatabaseUpdate is a PUT (the input of cloudsvc's UpdateDatabase): nil fields stay as they are.
type DatabaseUpdate struct {
	Label        *string
	AllowList    *[]string // raw entries; an empty list blocks every connection
	Updates      *WindowChange
	EngineConfig json.RawMessage // as sent (nil: none); its settings merge into the chosen ones
	// Type and ClusterSize resize the database; Version upgrades its engine (the current API's).
	Type        *string
	ClusterSize *int
	Version     *string
}

// WindowChange is what an update's `updates` object sent: nil members stay as they are.
// WeekOfMonthSet tells week_of_month was sent, possibly as null.
type WindowChange struct {
	Frequency                      *string
	Duration, HourOfDay, DayOfWeek *int
	WeekOfMonth                    *int
	WeekOfMonthSet                 bool
}
