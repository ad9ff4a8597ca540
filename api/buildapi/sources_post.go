package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// POST /source/P/K: one route for every package command, dispatched on ?cmd=.

// servicesXML is the empty project-services list: no source services run here, and osc asks
// before every commit.
type servicesXML struct {
	XMLName xml.Name `xml:"services"`
}

// postPackage runs a package command (?cmd=): osc's commit, the upload revision, undelete,
// copy, diff, the link commands (branch.go) and the rest (pkgmore.go).
func (a *api) postPackage(c *fiber.Ctx) error {
	if ok, err := a.packageRecordCmd(c); ok {
		return err
	}
	switch cmd := c.Query("cmd"); cmd {
	case "commit":
		return a.commitUpload(c)
	case "deleteuploadrev":
		return a.deleteUploadRev(c)
	case "undelete":
		return a.undeletePackage(c)
	case "copy":
		return a.copyPackage(c)
	case "diff":
		return a.diffPackage(c)
	case "runservice", "waitservice", "mergeservice", "servicediff":
		return a.serviceCmd(c, cmd)
	case "getprojectservices":
		if _, err := a.viewTree(c); err != nil {
			return err
		}
		return sendXML(c, servicesXML{})
	case "commitfilelist":
		return a.commitFileList(c)
	case "branch":
		return a.branchPackage(c)
	case "linktobranch":
		return a.linkToBranch(c)
	case "showlinked":
		return a.showLinkedPackages(c)
	case "linkdiff":
		return a.linkDiff(c)
	case "release":
		return a.releaseCmd(c, pathParam(c, "package"))
	case "updatepatchinfo":
		return a.updatePatchinfo(c)
	case "instantiate":
		return a.instantiate(c)
	case "collectbuildenv":
		return a.collectBuildEnv(c)
	case "importchannel":
		return a.importChannel(c)
	case "enablechannel":
		return a.enableChannel(c)
	case "createSpecFileTemplate":
		return a.createSpecFileTemplate(c)
	case "rebuild", "wipe":
		return a.packageControl(c, cmd)
	case "":
		return buildsvc.BadRequest("missing_parameter", "POST %s needs a cmd parameter", c.Path())
	default:
		return buildsvc.BadRequest("illegal_request", "unsupported POST command %s to %s", cmd, c.Path())
	}
}
