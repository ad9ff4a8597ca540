package cloudstore

import (
	"errors"
	"fmt"
	"slices"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// DatabaseCatalog is what the cloud offers for managed databases: the regions, the engine
// versions and the plans (types) with their prices. It is product data, not an account's: the
// fixtures load it (fixtures/data/databases.json) into the store, so snapshots carry it, and an
// empty world (--no-fixtures) offers nothing.
type DatabaseCatalog struct {
	Regions []string         `json:"regions"`
	Engines []DatabaseEngine `json:"engines"`
	Types   []DatabaseType   `json:"types"`
	// InstanceTypes are the compute plans (GET /linode/types) the database plans are sized by:
	// every database type is one of them.
	InstanceTypes []InstanceType `json:"instance_types"`
}

// InstanceType is a compute plan, with the real service's fields (LinodeType): sizes in MB,
// transfer in MB a month, network_out in Mbit/s, prices in dollars. Successor is the plan an
// instance of this one moves to when mutated (nil: none).
type InstanceType struct {
	ID           string        `json:"id"`
	Label        string        `json:"label"`
	Class        string        `json:"class"`
	Disk         int           `json:"disk"`
	Memory       int           `json:"memory"`
	VCPUs        int           `json:"vcpus"`
	GPUs         int           `json:"gpus"`
	Transfer     int           `json:"transfer"`
	NetworkOut   int           `json:"network_out"`
	Price        Price         `json:"price"`
	RegionPrices []RegionPrice `json:"region_prices"`
	Addons       struct {
		Backups struct {
			Price        Price         `json:"price"`
			RegionPrices []RegionPrice `json:"region_prices"`
		} `json:"backups"`
	} `json:"addons"`
	Successor          *string `json:"successor"`
	AcceleratedDevices int     `json:"accelerated_devices"`
}

// Price is an hourly and a monthly price in dollars.
type Price struct {
	Hourly  float64 `json:"hourly"`
	Monthly float64 `json:"monthly"`
}

// RegionPrice is a plan's price in a region that charges differently.
type RegionPrice struct {
	ID      string  `json:"id"`
	Hourly  float64 `json:"hourly"`
	Monthly float64 `json:"monthly"`
}

// InstanceType finds a compute plan by id.
func (c DatabaseCatalog) InstanceType(id string) (InstanceType, bool) {
	for _, t := range c.InstanceTypes {
		if t.ID == id {
			return t, true
		}
	}
	return InstanceType{}, false
}

// DatabaseEngine is an engine version; its id is "<engine>/<version>". Engine names are the
// real ones: the seed renames only the families. The current real service lists major versions
// (mysql/8, postgresql/16: Version "8", "16") and provisions the latest release of the major,
// Current (8.0.35), which a database's view shows as its version; older clients (linodego's
// recorded checks) use full-version ids (mysql/8.0.26), which have no Current.
type DatabaseEngine struct {
	ID      string `json:"id"`
	Engine  string `json:"engine"`
	Version string `json:"version"`
	Current string `json:"current,omitempty"`
}

// Release is the version a database created with e runs.
func (e DatabaseEngine) Release() string {
	if e.Current != "" {
		return e.Current
	}
	return e.Version
}

// DatabaseType is a plan: the node size and, per engine, the price of each cluster size.
type DatabaseType struct {
	ID         string                     `json:"id"`
	Label      string                     `json:"label"`
	Class      string                     `json:"class"`
	Memory     int                        `json:"memory"` // MB
	Disk       int                        `json:"disk"`   // MB
	VCPUs      int                        `json:"vcpus"`
	Deprecated bool                       `json:"deprecated"`
	Engines    map[string][]DatabasePrice `json:"engines"` // mysql, postgresql, mongodb
}

// DatabasePrice is what a cluster of Quantity nodes costs, in dollars.
type DatabasePrice struct {
	Quantity int `json:"quantity"`
	Price    struct {
		Hourly  float64 `json:"hourly"`
		Monthly float64 `json:"monthly"`
	} `json:"price"`
}

var catalogKey = []byte("catalog")

// GetDatabaseCatalog returns the stored catalogue (empty when none was loaded).
func GetDatabaseCatalog(tx kv.Tx) (DatabaseCatalog, error) {
	c, err := store.Get[DatabaseCatalog](tx, store.CloudDatabaseCatalog, catalogKey)
	if errors.Is(err, store.ErrNotFound) {
		return DatabaseCatalog{Regions: []string{}, Engines: []DatabaseEngine{}, Types: []DatabaseType{}, InstanceTypes: []InstanceType{}}, nil
	}
	return c, err
}

// PutDatabaseCatalog replaces the catalogue after checking that engine ids match their engine
// and version, that every engine is one the families know, and that every database type is the
// compute plan of the same id and size.
func PutDatabaseCatalog(tx kv.Tx, c DatabaseCatalog) error {
	for _, e := range c.Engines {
		if e.ID != e.Engine+"/"+e.Version || !slices.Contains([]string{"mysql", "postgresql", "mongodb"}, e.Engine) {
			return fmt.Errorf("database engine %q: %w", e.ID, store.ErrInvalid)
		}
	}
	for _, t := range c.Types { // a database plan is a compute plan's size
		if len(c.InstanceTypes) == 0 {
			break
		}
		it, ok := c.InstanceType(t.ID)
		if !ok || it.Class != t.Class || it.Memory != t.Memory || it.Disk != t.Disk || it.VCPUs != t.VCPUs {
			return fmt.Errorf("database type %q is not the compute plan of that id: %w", t.ID, store.ErrInvalid)
		}
	}
	return store.Put(tx, store.CloudDatabaseCatalog, catalogKey, c)
}

// Engine finds an engine version by id.
func (c DatabaseCatalog) Engine(id string) (DatabaseEngine, bool) {
	for _, e := range c.Engines {
		if e.ID == id {
			return e, true
		}
	}
	return DatabaseEngine{}, false
}

// Type finds a plan by id.
func (c DatabaseCatalog) Type(id string) (DatabaseType, bool) {
	for _, t := range c.Types {
		if t.ID == id {
			return t, true
		}
	}
	return DatabaseType{}, false
}

// Price is the plan's price for an engine and cluster size.
func (t DatabaseType) Price(engine string, nodes int) (DatabasePrice, bool) {
	for _, p := range t.Engines[engine] {
		if p.Quantity == nodes {
			return p, true
		}
	}
	return DatabasePrice{}, false
}

// Creatable lists the engine ids of a family in the catalogue.
func (c DatabaseCatalog) Creatable(family string) []string {
	var out []string
	for _, e := range c.Engines {
		if FamilyOf(e.Engine) == family {
			out = append(out, e.ID)
		}
	}
	return out
}
