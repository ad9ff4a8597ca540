package cloudapi

import (
	"fmt"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// bindInstanceTypes registers the compute plan catalogue, read-only and public as on the real
// service: GET /linode/types and /linode/types/{id} (the Terraform provider lists them at every
// start), also under the seed's name for compute, instances (/instances/types). It is the same
// product data as the database catalogue (the database plans are its sizes).
func (a *api) bindInstanceTypes(r *routes) {
	pub := access{public: true}
	r.addAliased(both, "GET", "/linode/types", []string{"/instances/types"}, pub, a.listInstanceTypes)
	r.addAliased(both, "GET", "/linode/types/:typeId", []string{"/instances/types/:typeId"}, pub, a.getInstanceType)
}

// instanceTypeFields are the filterable fields (the reference's x-linode-filterable ones).
var instanceTypeFields = listing.Fields[cloudstore.InstanceType]{
	"label":       func(t cloudstore.InstanceType) any { return t.Label },
	"class":       func(t cloudstore.InstanceType) any { return t.Class },
	"disk":        func(t cloudstore.InstanceType) any { return t.Disk },
	"memory":      func(t cloudstore.InstanceType) any { return t.Memory },
	"vcpus":       func(t cloudstore.InstanceType) any { return t.VCPUs },
	"gpus":        func(t cloudstore.InstanceType) any { return t.GPUs },
	"transfer":    func(t cloudstore.InstanceType) any { return t.Transfer },
	"network_out": func(t cloudstore.InstanceType) any { return t.NetworkOut },
}

func (a *api) listInstanceTypes(c *fiber.Ctx) error {
	cat, err := a.Cloud.DatabaseCatalog()
	if err != nil {
		return err
	}
	return renderList(c, cat.InstanceTypes, instanceTypeFields, viewInstanceType)
}

func (a *api) getInstanceType(c *fiber.Ctx) error {
	cat, err := a.Cloud.DatabaseCatalog()
	if err != nil {
		return err
	}
	t, ok := cat.InstanceType(c.Params("typeId"))
	if !ok {
		return fmt.Errorf("type %q: %w", c.Params("typeId"), store.ErrNotFound)
	}
	return c.JSON(viewInstanceType(t))
}

// viewInstanceType renders a plan: its lists as [] when empty.
func viewInstanceType(t cloudstore.InstanceType) cloudstore.InstanceType {
	if t.RegionPrices == nil {
		t.RegionPrices = []cloudstore.RegionPrice{}
	}
	if t.Addons.Backups.RegionPrices == nil {
		t.Addons.Backups.RegionPrices = []cloudstore.RegionPrice{}
	}
	return t
}
