package cloudstore

import (
	"errors"
	"fmt"
	"slices"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// DatabaseCatalog is what the cloud offers for managed databases: the regions, the engine
// versions and the plans (types) with their prices. It is product data, not an account's: the
// fixtures load it (fixtures/data/databases.json) into the store, so snapshots carry it, and an
// empty world (--no-fixtures) offers nothing.
type DatabaseCatalog struct {
	Regions []string         `json:"regions"`
	Engines []DatabaseEngine `json:"engines"`
	Types   []DatabaseType   `json:"types"`
}

// DatabaseEngine is an engine version; its id is "<engine>/<version>" (mysql/8.0.26). Engine
// names are the real ones: the seed renames only the families.
type DatabaseEngine struct {
	ID      string `json:"id"`
	Engine  string `json:"engine"`
	Version string `json:"version"`
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
func GetDatabaseCatalog(tx *bbolt.Tx) (DatabaseCatalog, error) {
	c, err := store.Get[DatabaseCatalog](tx, store.CloudDatabaseCatalog, catalogKey)
	if errors.Is(err, store.ErrNotFound) {
		return DatabaseCatalog{Regions: []string{}, Engines: []DatabaseEngine{}, Types: []DatabaseType{}}, nil
	}
	return c, err
}

// PutDatabaseCatalog replaces the catalogue after checking that engine ids match their engine
// and version and that every engine is one the families know.
func PutDatabaseCatalog(tx *bbolt.Tx, c DatabaseCatalog) error {
	for _, e := range c.Engines {
		if e.ID != e.Engine+"/"+e.Version || !slices.Contains([]string{"mysql", "postgresql", "mongodb"}, e.Engine) {
			return fmt.Errorf("database engine %q: %w", e.ID, store.ErrInvalid)
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
