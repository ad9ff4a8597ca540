package buildapi

import (
	"encoding/xml"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// The link commands of a package: cmd=branch (a branch link in the requester's branch
// project), cmd=linktobranch (a plain link becomes a branch) and cmd=showlinked (who links
// here).

// branchStatus is branch's answer: ok plus where the branch went, which osc reads from the
// data elements.
type branchStatus struct {
	XMLName xml.Name    `xml:"status"`
	Code    string      `xml:"code,attr"`
	Summary string      `xml:"summary"`
	Data    []tokenData `xml:"data"`
}

// branchTarget is where cmd=branch puts the branch: target_project (default
// home:<login>:branches:<project>) and target_package (default the package's name), both
// checked against the naming rules.
func branchTarget(c *fiber.Ctx, who buildstore.Person) (string, string, error) {
	project, pkg := pathParam(c, "project"), pathParam(c, "package")
	tp, tk := strings.Clone(c.Query("target_project")), strings.Clone(c.Query("target_package"))
	if tp == "" {
		tp = "home:" + who.Login + ":branches:" + project
	}
	if tk == "" {
		tk = pkg
	}
	if !buildstore.ValidProjectName(tp) {
		return "", "", buildsvc.BadRequest("invalid_project_name", "invalid project name '%s'", tp)
	}
	if !buildstore.ValidPackageName(tk) {
		return "", "", buildsvc.BadRequest("invalid_package_name", "invalid package name '%s'", tk)
	}
	return tp, tk, nil
}

// branchPackage branches project/package: the target package holds copies of the source's
// (expanded) files and a _link with <branch/> and baserev = the source tree's srcmd5, so the
// branch follows the source where it did not change. The branch project is created on the
// way from the source project's repositories (each pathing to it, same architectures). A
// devel project in the source's meta is ignored, as the seed says. missingok=1 branches a
// package that does not exist yet (and refuses one that does).
func (a *api) branchPackage(c *fiber.Ctx) error {
	project, pkg, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	tp, tk, err := branchTarget(c, who)
	if err != nil {
		return err
	}
	missingOK, rev, comment := boolParam(c, "missingok"), strings.Clone(c.Query("rev")), strings.Clone(c.Query("comment"))
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		src, err := buildstore.GetProject(tx, project)
		if err != nil {
			return buildsvc.NotFoundAs(err, "unknown_project")
		}
		k, kerr := buildstore.GetPackage(tx, project, pkg)
		switch {
		case kerr != nil && !missingOK:
			return buildsvc.NotFoundAs(kerr, "unknown_package")
		case kerr == nil && missingOK:
			return buildsvc.BadRequest("not_missing", "Branch call with missingok parameter but branched source (%s/%s) exists.", project, pkg)
		}
		if _, err := buildstore.GetPackage(tx, tp, tk); err == nil {
			return buildsvc.BadRequest("double_branch_package", "branch target package already exists: %s/%s", tp, tk)
		}
		if err := a.ensureBranchProject(tx, who, src, tp, pkg); err != nil {
			return err
		}
		link := buildstore.SourceLink{Project: project, Package: pkg}
		var files []buildstore.FileEntry
		if missingOK {
			link.MissingOK = true
			k = buildstore.Package{Title: pkg, Description: ""}
		} else {
			v, err := buildsvc.ReadView(tx, who, project, pkg, rev, true, "")
			if err != nil {
				return err
			}
			if v.Pending != nil {
				if err := buildstore.PutExpansion(tx, project, pkg, *v.Pending); err != nil {
					return err
				}
			}
			link.BaseRev, link.Patches = v.Tree.SrcMD5, []buildstore.Patch{{Kind: "branch"}}
			files = v.Tree.Files
		}
		sum, err := buildstore.PutBlob(tx, link.Render())
		if err != nil {
			return err
		}
		created := buildstore.Package{Project: tp, Name: tk, Title: k.Title, Description: k.Description, Created: a.Clock.Now()}
		if err := buildstore.PutPackage(tx, created); err != nil {
			return err
		}
		if err := a.recordMeta(tx, created, who.Login, comment); err != nil {
			return err
		}
		files = append(files, buildstore.FileEntry{Name: buildstore.LinkFile, MD5: sum})
		r, err := buildstore.Commit(tx, tp, tk, files, who.Login, comment, a.Clock.Now())
		if err != nil {
			return err
		}
		_, err = committedView(tx, tp, tk, r)
		return err
	})
	if err != nil {
		return err
	}
	return sendXML(c, branchStatus{Code: "ok", Summary: "Ok", Data: []tokenData{
		{Name: "targetproject", Value: tp}, {Name: "targetpackage", Value: tk},
		{Name: "sourceproject", Value: project}, {Name: "sourcepackage", Value: pkg}}})
}

// ensureBranchProject makes sure the branch can go into project tp: an existing one must be
// the requester's to change and not locked; a missing one needs the right to create it and
// is made with the requester as maintainer and the source project's repositories.
func (a *api) ensureBranchProject(tx *bbolt.Tx, who buildstore.Person, src buildstore.Project, tp, pkg string) error {
	p, err := buildstore.GetProject(tx, tp)
	if err == nil {
		if !buildsvc.Maintains(tx, who, p.Persons, p.Groups) {
			return buildsvc.Forbidden("create_package_no_permission", "no permission to create package '%s' in project '%s'", pkg, tp)
		}
		if p.Locked {
			return buildsvc.Forbidden("project_locked", "The target project is locked")
		}
		return nil
	}
	if !buildsvc.MayCreateProject(tx, who, tp) {
		return buildsvc.Forbidden("create_project_no_permission", "no permission to create project '%s'", tp)
	}
	p = buildstore.Project{Name: tp, Title: "Branch project for package " + pkg,
		Description: "This project was created for package " + pkg + " via a branch of project " + src.Name + ".",
		Persons:     []buildstore.Role{{ID: who.Login, Role: buildstore.RoleMaintainer}}, Created: a.Clock.Now()}
	for _, r := range src.Repositories {
		p.Repositories = append(p.Repositories, buildstore.Repository{Name: r.Name,
			Paths: []buildstore.Path{{Project: src.Name, Repository: r.Name}}, Archs: r.Archs})
	}
	return buildstore.PutProject(tx, p)
}

// linkToBranch turns a plain link into a branch link: its expanded files become the branch's
// copies, and the _link gets <branch/> and baserev = the target tree used.
func (a *api) linkToBranch(c *fiber.Ctx) error {
	project, pkg, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	comment := strings.Clone(c.Query("comment"))
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		if err := buildsvc.Writable(tx, who, project, pkg, "cmd_execution_no_permission"); err != nil {
			return err
		}
		cur, _, err := buildstore.LatestRevision(tx, project, pkg)
		if err != nil {
			return err
		}
		lf, ok := cur.File(buildstore.LinkFile)
		if !ok {
			return buildsvc.BadRequest("400", "package is not a link")
		}
		data, err := buildstore.GetBlob(tx, lf.MD5)
		if err != nil {
			return err
		}
		l, err := buildstore.ParseLink(data)
		if err != nil {
			return buildsvc.LinkError(err.Error())
		}
		if l.IsBranch() {
			return buildsvc.BadRequest("400", "package is already a branch")
		}
		v, err := buildsvc.ResolveView(tx, project, pkg, "", true, c.Query("linkrev"))
		if err != nil {
			return err
		}
		if v.Pending != nil {
			if err := buildstore.PutExpansion(tx, project, pkg, *v.Pending); err != nil {
				return err
			}
		}
		l.BaseRev, l.Patches = v.Link.SrcMD5, []buildstore.Patch{{Kind: "branch"}}
		sum, err := buildstore.PutBlob(tx, l.Render())
		if err != nil {
			return err
		}
		r, err := buildstore.Commit(tx, project, pkg, append(v.Tree.Files, buildstore.FileEntry{Name: buildstore.LinkFile, MD5: sum}), who.Login, comment, a.Clock.Now())
		if err != nil {
			return err
		}
		_, err = committedView(tx, project, pkg, r)
		return err
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// packageLinkers is showlinked's answer.
type packageLinkers struct {
	XMLName  xml.Name        `xml:"collection"`
	Packages []linkedPackage `xml:"package"`
}

type linkedPackage struct {
	Project string `xml:"project,attr"`
	Name    string `xml:"name,attr"`
}

// showLinkedPackages lists the packages whose newest tree links to this one.
func (a *api) showLinkedPackages(c *fiber.Ctx) error {
	project, pkg := pathParam(c, "project"), pathParam(c, "package")
	doc := packageLinkers{}
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if _, _, err := buildsvc.LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		list, err := buildstore.LinkingPackages(tx, project, pkg)
		for _, pk := range list {
			doc.Packages = append(doc.Packages, linkedPackage{Project: pk[0], Name: pk[1]})
		}
		return err
	})
	if err != nil {
		return err
	}
	return sendXML(c, doc)
}
