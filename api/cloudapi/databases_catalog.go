package cloudapi

import (
	"fmt"
	"net/url"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// catalogue returns the cached catalogue.
func (d *dbAPI) catalogue() (cloudstore.DatabaseCatalog, error) {
	return d.Cloud.DatabaseCatalog()
}

// engineFields are the DatabaseEngine's filterable fields.
var engineFields = listing.Fields[cloudstore.DatabaseEngine]{
	"engine":  func(e cloudstore.DatabaseEngine) any { return e.Engine },
	"version": func(e cloudstore.DatabaseEngine) any { return e.Version },
}

// listEngines lists the engine versions (public).
func (d *dbAPI) listEngines(c *fiber.Ctx) error {
	cat, err := d.catalogue()
	if err != nil {
		return err
	}
	return renderList(c, cat.Engines, engineFields, viewEngine)
}

// engineView is a DatabaseEngine as the API shows it (the release a major version provisions
// is shown by the databases made with it).
type engineView struct {
	ID      string `json:"id"`
	Engine  string `json:"engine"`
	Version string `json:"version"`
}

func viewEngine(e cloudstore.DatabaseEngine) engineView {
	return engineView{ID: e.ID, Engine: e.Engine, Version: e.Version}
}

// getEngine answers /databases/engines/mysql/8.0.26 (two path segments, as older clients send
// it) and /databases/engines/mysql%2F8.0.26 (one escaped segment, as linodego sends it).
func (d *dbAPI) getEngine(c *fiber.Ctx) error {
	id := c.Params("engine") + "/" + c.Params("version")
	if c.Params("engineId") != "" {
		var err error
		if id, err = url.PathUnescape(c.Params("engineId")); err != nil {
			return fmt.Errorf("engine: %w", store.ErrNotFound)
		}
	}
	cat, err := d.catalogue()
	if err != nil {
		return err
	}
	e, ok := cat.Engine(id)
	if !ok {
		return fmt.Errorf("engine %q: %w", id, store.ErrNotFound)
	}
	return c.JSON(viewEngine(e))
}

// typeView is a DatabaseType with its engines in the real service's order.
type typeView struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Engines struct {
		MySQL      []cloudstore.DatabasePrice `json:"mysql"`
		PostgreSQL []cloudstore.DatabasePrice `json:"postgresql"`
		MongoDB    []cloudstore.DatabasePrice `json:"mongodb"`
	} `json:"engines"`
	Memory     int    `json:"memory"`
	Disk       int    `json:"disk"`
	VCPUs      int    `json:"vcpus"`
	Deprecated bool   `json:"deprecated"`
	Class      string `json:"class"`
}

// viewType renders a plan; an engine without prices shows [].
func viewType(t cloudstore.DatabaseType) typeView {
	v := typeView{ID: t.ID, Label: t.Label, Memory: t.Memory, Disk: t.Disk, VCPUs: t.VCPUs, Deprecated: t.Deprecated, Class: t.Class}
	prices := func(engine string) []cloudstore.DatabasePrice {
		if p := t.Engines[engine]; p != nil {
			return p
		}
		return []cloudstore.DatabasePrice{}
	}
	v.Engines.MySQL, v.Engines.PostgreSQL, v.Engines.MongoDB = prices("mysql"), prices("postgresql"), prices("mongodb")
	return v
}

// typeFields are the DatabaseType's filterable fields.
var typeFields = listing.Fields[cloudstore.DatabaseType]{
	"deprecated": func(t cloudstore.DatabaseType) any { return t.Deprecated },
}

// listTypes lists the plans with their prices (public).
func (d *dbAPI) listTypes(c *fiber.Ctx) error {
	cat, err := d.catalogue()
	if err != nil {
		return err
	}
	return renderList(c, cat.Types, typeFields, viewType)
}

// getType shows one plan (public).
func (d *dbAPI) getType(c *fiber.Ctx) error {
	cat, err := d.catalogue()
	if err != nil {
		return err
	}
	t, ok := cat.Type(c.Params("typeId"))
	if !ok {
		return fmt.Errorf("database type %q: %w", c.Params("typeId"), store.ErrNotFound)
	}
	return c.JSON(viewType(t))
}

// engineConfigSchema lists the settings of engine's engine_config (public, as the catalogue).
func engineConfigSchema(engine string) fiber.Handler {
	return func(c *fiber.Ctx) error { return c.JSON(cloudsvc.EngineConfigSchema(engine)) }
}
