package buildapi

import (
	"encoding/xml"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// The link commands of a package: cmd=branch (a branch link in the requester's branch
// project) and cmd=linktobranch (a plain link becomes a branch). The rules are buildsvc's
// (links_branch.go, links_tobranch.go).

// branchStatus is branch's answer: ok plus where the branch went, which osc reads from the
// data elements.
type branchStatus struct {
	XMLName xml.Name    `xml:"status"`
	Code    string      `xml:"code,attr"`
	Summary string      `xml:"summary"`
	Data    []tokenData `xml:"data"`
}

// branchPackage runs cmd=branch: target_project, target_package, rev, missingok and comment
// are passed on; the package's meta goes into its meta history as a meta PUT would.
func (a *api) branchPackage(c *fiber.Ctx) error {
	project, pkg := pathParam(c, "project"), pathParam(c, "package")
	to, err := a.Svc.Branch(personOf(c), buildsvc.BranchRequest{Project: project, Package: pkg,
		TargetProject: strings.Clone(c.Query("target_project")), TargetPackage: strings.Clone(c.Query("target_package")),
		Rev: strings.Clone(c.Query("rev")), MissingOK: boolParam(c, "missingok"), Comment: strings.Clone(c.Query("comment"))})
	if err != nil {
		return err
	}
	return sendXML(c, branchStatus{Code: "ok", Summary: "Ok", Data: []tokenData{
		{Name: "targetproject", Value: to.TargetProject}, {Name: "targetpackage", Value: to.TargetPackage},
		{Name: "sourceproject", Value: project}, {Name: "sourcepackage", Value: pkg}}})
}

// linkToBranch runs cmd=linktobranch (against ?linkrev=, with ?comment=).
func (a *api) linkToBranch(c *fiber.Ctx) error {
	err := a.Svc.LinkToBranch(personOf(c), pathParam(c, "project"), pathParam(c, "package"),
		strings.Clone(c.Query("linkrev")), strings.Clone(c.Query("comment")))
	if err != nil {
		return err
	}
	return sendOK(c)
}
