package buildapi

import (
	"encoding/xml"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
)

// The products the sources define (farm.ProjectProducts, farm.PackageProducts), as OBS's
// <productlist>: GET /source/P?view=productlist (name and origin; ?expand=1 adds the linked
// projects' products), ?view=verboseproductlist (with version, service pack, release, cpe and
// the definition's mtime), and GET /source/P/K?view=products (the package's, verbose; ?product=
// keeps one). A package that defines none answers an empty list.

type productListXML struct {
	XMLName  xml.Name     `xml:"productlist"`
	Count    int          `xml:"count,attr"`
	Products []productXML `xml:"product"`
}

type productXML struct {
	Name          string `xml:"name,attr"`
	Version       string `xml:"version,attr,omitempty"`
	BaseVersion   string `xml:"baseversion,attr,omitempty"`
	PatchLevel    string `xml:"patchlevel,attr,omitempty"`
	Release       string `xml:"release,attr,omitempty"`
	CPE           string `xml:"cpe,attr,omitempty"`
	OriginProject string `xml:"originproject,attr"`
	OriginPackage string `xml:"originpackage,attr"`
	MTime         string `xml:"mtime,attr,omitempty"`
}

// productListDoc renders defs, each with its details when verbose.
func productListDoc(defs []farm.ProductDefinition, verbose bool) productListXML {
	doc := productListXML{Count: len(defs)}
	for _, d := range defs {
		p := productXML{Name: d.Name, OriginProject: d.Project, OriginPackage: d.Package}
		if verbose {
			p.Version, p.BaseVersion, p.PatchLevel, p.Release, p.CPE = d.Version, d.BaseVersion, d.PatchLevel, d.Release, d.CPE
			p.MTime = strconv.FormatInt(d.MTime, 10)
		}
		doc.Products = append(doc.Products, p)
	}
	return doc
}

// projectProducts answers ?view=productlist and ?view=verboseproductlist of a project.
func (a *api) projectProducts(c *fiber.Ctx, verbose bool) error {
	defs, err := a.Farm.ProjectProducts(personOf(c), pathParam(c, "project"), boolParam(c, "expand"))
	if err != nil {
		return err
	}
	return sendXML(c, productListDoc(defs, verbose))
}

// packageProducts answers ?view=products of a package.
func (a *api) packageProducts(c *fiber.Ctx) error {
	defs, err := a.Farm.PackageProducts(personOf(c), pathParam(c, "project"), pathParam(c, "package"), c.Query("product"))
	if err != nil {
		return err
	}
	return sendXML(c, productListDoc(defs, true))
}
