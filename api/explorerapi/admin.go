package explorerapi

import (
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/store/explorerstore"
)

// The appliance operator's explorer routes, under /_appliance (bootstrap token): import while
// running, list, and remove products.

// BindAdmin registers POST /explorer/import, GET /explorer/products and
// DELETE /explorer/products/:name on the operator's (already authenticated) router.
func BindAdmin(auth fiber.Router, svc *explorersvc.Service) {
	h := adminHandlers{svc}
	auth.Post("/explorer/import", h.importProducts)
	auth.Get("/explorer/products", h.listProducts)
	auth.Delete("/explorer/products/:name", h.removeProduct)
}

type adminHandlers struct{ svc *explorersvc.Service }

// importedJSON is one product of an import report.
type importedJSON struct {
	Product  string `json:"product"`
	Packages int    `json:"packages"`
	RPMs     int    `json:"rpms"`
	Files    int    `json:"files"`
	Skipped  bool   `json:"unchanged,omitempty"`
}

// importProducts imports ?path= (a product SBOM or a directory of them on the appliance's
// file system, each with its repodata/ beside it), or else the SBOM in the body (no file
// lists). A product that does not load is named with its problem; products already done stay.
func (h adminHandlers) importProducts(c *fiber.Ctx) error {
	var rep explorersvc.Report
	var err error
	if path := c.Query("path"); path != "" {
		rep, err = h.svc.ImportPath(path)
	} else {
		if len(c.Body()) == 0 {
			return &kit.Error{Status: http.StatusBadRequest, Reason: "send a product SBOM (SPDX JSON) as the body, or ?path= to a file or directory on the appliance"}
		}
		rep, err = h.svc.ImportDocument(c.Body(), "request body")
	}
	if err != nil {
		return err
	}
	done := []importedJSON{}
	for _, r := range rep.Imported {
		done = append(done, importedJSON(r))
	}
	problems := []fiber.Map{}
	for _, p := range rep.Problems {
		problems = append(problems, fiber.Map{"file": p.File, "error": p.Error})
	}
	if len(done) == 0 { // a 400 carries {"error"} like every explorer error, and the details
		return c.Status(http.StatusBadRequest).JSON(fiber.Map{"error": "no product was imported", "imported": done, "errors": problems})
	}
	return c.JSON(fiber.Map{"imported": done, "errors": problems})
}

func (h adminHandlers) listProducts(c *fiber.Ctx) error {
	list, err := h.svc.Products()
	if err != nil {
		return err
	}
	if list == nil {
		list = []explorerstore.Product{}
	}
	return c.JSON(fiber.Map{"products": list})
}

func (h adminHandlers) removeProduct(c *fiber.Ctx) error {
	if err := h.svc.Delete(strings.Clone(c.Params("name"))); err != nil {
		return err
	}
	return c.SendStatus(http.StatusNoContent)
}
