package explorerapi

import (
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"go.etcd.io/bbolt"
)

// The appliance operator's explorer routes, under /_appliance (bootstrap token): import while
// running, list, and remove products.

// BindAdmin registers POST /explorer/import, GET /explorer/products and
// DELETE /explorer/products/:name on the operator's (already authenticated) router.
func BindAdmin(auth fiber.Router, im *Importer) {
	h := adminHandlers{im}
	auth.Post("/explorer/import", h.importProducts)
	auth.Get("/explorer/products", h.listProducts)
	auth.Delete("/explorer/products/:name", h.removeProduct)
}

type adminHandlers struct{ im *Importer }

// importProducts imports ?path= (a product SBOM or a directory of them on the appliance's
// file system, each with its repodata/ beside it), or else the SBOM in the body (no file
// lists). A product that does not load is named with its problem; products already done stay.
func (h adminHandlers) importProducts(c *fiber.Ctx) error {
	var inputs []Input
	var problems []fiber.Map
	if path := c.Query("path"); path != "" {
		files, err := FindSBOMs(path)
		if err != nil {
			return &kit.Error{Status: http.StatusBadRequest, Reason: "path: " + strings.TrimPrefix(err.Error(), "stat ")}
		}
		if len(files) == 0 {
			return &kit.Error{Status: http.StatusBadRequest, Reason: "no *" + SBOMSuffix + " file under " + path}
		}
		for _, f := range files {
			in, err := LoadSBOM(f)
			if err != nil {
				problems = append(problems, fiber.Map{"file": f, "error": err.Error()})
				continue
			}
			inputs = append(inputs, in)
		}
	} else {
		if len(c.Body()) == 0 {
			return &kit.Error{Status: http.StatusBadRequest, Reason: "send a product SBOM (SPDX JSON) as the body, or ?path= to a file or directory on the appliance"}
		}
		in, err := LoadDocument(c.Body(), "request body")
		if err != nil {
			return &kit.Error{Status: http.StatusBadRequest, Reason: err.Error()}
		}
		inputs = append(inputs, in)
	}
	done := []Imported{}
	for _, in := range inputs {
		res, err := h.im.Import(in)
		if err != nil {
			problems = append(problems, fiber.Map{"file": in.Source, "error": err.Error()})
			continue
		}
		done = append(done, res)
	}
	if problems == nil {
		problems = []fiber.Map{}
	}
	if len(done) == 0 { // a 400 carries {"error"} like every explorer error, and the details
		return c.Status(http.StatusBadRequest).JSON(fiber.Map{"error": "no product was imported", "imported": done, "errors": problems})
	}
	return c.JSON(fiber.Map{"imported": done, "errors": problems})
}

func (h adminHandlers) listProducts(c *fiber.Ctx) error {
	var list []explorerstore.Product
	if err := h.im.Store.View(func(tx *bbolt.Tx) (err error) { list, err = explorerstore.Products(tx); return }); err != nil {
		return err
	}
	if list == nil {
		list = []explorerstore.Product{}
	}
	return c.JSON(fiber.Map{"products": list})
}

func (h adminHandlers) removeProduct(c *fiber.Ctx) error {
	name := strings.Clone(c.Params("name"))
	var found bool
	_ = h.im.Store.View(func(tx *bbolt.Tx) error { _, err := explorerstore.GetProduct(tx, name); found = err == nil; return nil })
	if !found {
		return &kit.Error{Status: http.StatusNotFound, Reason: "product " + name + " is not imported"}
	}
	if err := h.im.Remove(name); err != nil {
		return err
	}
	return c.SendStatus(http.StatusNoContent)
}
