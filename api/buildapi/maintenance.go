package buildapi

import (
	"encoding/xml"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/buildsvc/maintenance"
)

// The maintenance workflow's commands: createmaintenanceincident (POST /source/M and POST
// /source), createpatchinfo (POST /source/P), updatepatchinfo (POST /source/P/K) and the branch
// by attribute (POST /source?cmd=branch). The rules are buildsvc's (maintenance_*.go).

// dataStatus is ok with data elements, as OBS answers the maintenance commands.
func dataStatus(data ...tokenData) branchStatus {
	return branchStatus{Code: "ok", Summary: "Ok", Data: data}
}

// createIncident runs createmaintenanceincident below project ("": the maintenance project).
func (a *api) createIncident(c *fiber.Ctx, project string) error {
	name, err := a.Build.Maintenance.CreateMaintenanceIncident(personOf(c), project, boolParam(c, "noaccess"))
	if err != nil {
		return err
	}
	return sendXML(c, dataStatus(tokenData{Name: "targetproject", Value: name}))
}

// createPatchinfo runs cmd=createpatchinfo (name, comment, force).
func (a *api) createPatchinfo(c *fiber.Ctx) error {
	out, err := a.Build.Maintenance.CreatePatchinfo(personOf(c), pathParam(c, "project"), strings.Clone(c.Query("name")),
		strings.Clone(c.Query("comment")), boolParam(c, "force"))
	if err != nil {
		return err
	}
	return sendXML(c, dataStatus(tokenData{Name: "targetproject", Value: out.TargetProject}, tokenData{Name: "targetpackage", Value: out.TargetPackage}))
}

// updatePatchinfo runs cmd=updatepatchinfo (comment).
func (a *api) updatePatchinfo(c *fiber.Ctx) error {
	if err := a.Build.Maintenance.UpdatePatchinfo(personOf(c), pathParam(c, "project"), pathParam(c, "package"), strings.Clone(c.Query("comment"))); err != nil {
		return err
	}
	return sendOK(c)
}

// postSource answers POST /source?cmd=: branch by attribute and createmaintenanceincident;
// others are refused (buildsvc.RootSourceCommand).
func (a *api) postSource(c *fiber.Ctx) error {
	switch cmd := c.Query("cmd"); cmd {
	case "createmaintenanceincident":
		return a.createIncident(c, "")
	case "branch":
		return a.branchByAttribute(c)
	default:
		return farm.RootSourceCommand(cmd, c.Path())
	}
}

// branchCollection is a dry run's answer: the packages that would be branched, and where to.
type branchCollection struct {
	XMLName  xml.Name              `xml:"collection"`
	Packages []branchCollectionPkg `xml:"package"`
}

type branchCollectionPkg struct {
	Project string       `xml:"project,attr"`
	Package string       `xml:"package,attr"`
	Target  branchTarget `xml:"target"`
}

type branchTarget struct {
	Project string `xml:"project,attr"`
	Package string `xml:"package,attr"`
}

// branchByAttribute runs POST /source?cmd=branch (attribute, update_project_attribute,
// package, target_project, noaccess, request, dryrun).
func (a *api) branchByAttribute(c *fiber.Ctx) error {
	out, err := a.Build.Maintenance.BranchByAttribute(personOf(c), maintenance.AttributeBranchRequest{
		Attribute: strings.Clone(c.Query("attribute")), UpdateAttribute: strings.Clone(c.Query("update_project_attribute")),
		Package: strings.Clone(c.Query("package")), TargetProject: strings.Clone(c.Query("target_project")),
		NoAccess: boolParam(c, "noaccess"), Request: strings.Clone(c.Query("request")), DryRun: boolParam(c, "dryrun")})
	if err != nil {
		return err
	}
	if !boolParam(c, "dryrun") {
		return sendXML(c, dataStatus(tokenData{Name: "targetproject", Value: out.TargetProject}))
	}
	var list branchCollection
	for _, p := range out.Packages {
		list.Packages = append(list.Packages, branchCollectionPkg{Project: p.Project, Package: p.Package,
			Target: branchTarget{Project: out.TargetProject, Package: p.TargetPackage}})
	}
	return sendXML(c, list)
}

// instantiate runs cmd=instantiate (makeoriginolder).
func (a *api) instantiate(c *fiber.Ctx) error {
	if err := a.Build.Maintenance.Instantiate(personOf(c), pathParam(c, "project"), pathParam(c, "package"), boolParam(c, "makeoriginolder")); err != nil {
		return err
	}
	return sendOK(c)
}

// collectBuildEnv runs cmd=collectbuildenv (oproject, opackage, comment).
func (a *api) collectBuildEnv(c *fiber.Ctx) error {
	err := a.Build.Maintenance.CollectBuildEnv(personOf(c), pathParam(c, "project"), pathParam(c, "package"),
		strings.Clone(c.Query("oproject")), strings.Clone(c.Query("opackage")), strings.Clone(c.Query("comment")))
	if err != nil {
		return err
	}
	return sendOK(c)
}
