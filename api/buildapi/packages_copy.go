package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// otherPackage is the oproject/opackage of a command, each defaulting to the URL's.
func otherPackage(c *fiber.Ctx) (string, string) {
	oproject, opackage := c.Query("oproject"), c.Query("opackage")
	if oproject == "" {
		oproject = pathParam(c, "project")
	}
	if opackage == "" {
		opackage = pathParam(c, "package")
	}
	return strings.Clone(oproject), strings.Clone(opackage)
}

// copyPackage runs cmd=copy on a package: the files of oproject/opackage at ?orev= (expanded
// with ?expand=1 against ?olinkrev=) become a new revision of this package
// (buildsvc.CopyPackage); the answer is the new revision's listing.
func (a *api) copyPackage(c *fiber.Ctx) error {
	project, pkg := pathParam(c, "project"), pathParam(c, "package")
	oproject, opackage := otherPackage(c)
	v, err := a.Svc.CopyPackage(personOf(c), buildsvc.CopyPackageRequest{Project: project, Package: pkg,
		OProject: oproject, OPackage: opackage, ORev: strings.Clone(c.Query("orev")), OLinkRev: strings.Clone(c.Query("olinkrev")),
		Expand: boolParam(c, "expand"), Comment: strings.Clone(c.Query("comment"))})
	if err != nil {
		return err
	}
	return sendXML(c, listingDoc(pkg, v))
}
