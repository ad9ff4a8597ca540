package buildsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Branching a package (cmd=branch): the target package holds copies of the source's
// (expanded) files and a _link with <branch/> and baserev = the source tree's srcmd5, so the
// branch follows the source where it did not change. osc's branch and the demo world's branch
// (fixtures) both run BranchPackage, so a branch looks the same whoever made it.

// BranchAttribute is the attribute the real service names in a new branch project's
// description: a branch of one package goes through the same code as a branch of every
// package carrying it, whose default is OBS:Maintained.
const BranchAttribute = "OBS:Maintained"

// BranchRequest is what a branch asks for.
type BranchRequest struct {
	// Project and Package are the origin.
	Project, Package string
	// TargetProject defaults to home:<login>:branches:<project>, TargetPackage to Package.
	TargetProject, TargetPackage string
	// Rev is the origin revision branched (default: the newest).
	Rev string
	// MissingOK branches a package that does not exist yet (and refuses one that does).
	MissingOK bool
	// Comment is the branch revision's comment.
	Comment string
}

// Branched is where a branch went.
type Branched struct {
	TargetProject, TargetPackage string
}

// Branch runs BranchPackage for who in a write transaction.
func (s *Service) Branch(who buildstore.Person, req BranchRequest) (Branched, error) {
	var out Branched
	err := s.db.Write(func(tx kv.Tx) (err error) {
		out, err = BranchPackage(tx, who, req, s.clk.Now())
		return err
	})
	return out, err
}

// BranchPackage branches req.Project/req.Package for who at now. The branch project is created
// on the way as the real service creates it (see ensureBranchProject); the package gets the
// origin's title, description and URL. A devel project in the origin's meta is ignored, as the
// seed says. The branch's expansion is stored, since osc checks the branch out by its
// xsrcmd5 next.
func BranchPackage(tx kv.Tx, who buildstore.Person, req BranchRequest, now time.Time) (Branched, error) {
	to, err := branchTarget(who, req)
	if err != nil {
		return to, err
	}
	src, err := buildstore.GetProject(tx, req.Project)
	if err != nil {
		return to, NotFoundAs(err, "unknown_project")
	}
	k, kerr := buildstore.GetPackage(tx, req.Project, req.Package)
	switch {
	case kerr != nil && !req.MissingOK:
		return to, NotFoundAs(kerr, "unknown_package")
	case kerr == nil && req.MissingOK:
		return to, BadRequest("not_missing", "Branch call with missingok parameter but branched source (%s/%s) exists.", req.Project, req.Package)
	}
	if _, err := buildstore.GetPackage(tx, to.TargetProject, to.TargetPackage); err == nil {
		return to, BadRequest("double_branch_package", "branch target package already exists: %s/%s", to.TargetProject, to.TargetPackage)
	}
	if err := ensureBranchProject(tx, who, src, to.TargetProject, req.Package, now); err != nil {
		return to, err
	}
	link := buildstore.SourceLink{Project: req.Project, Package: req.Package}
	var files []buildstore.FileEntry
	if req.MissingOK {
		link.MissingOK = true
		k = buildstore.Package{Title: req.Package}
	} else {
		v, err := ReadView(tx, who, req.Project, req.Package, req.Rev, true, "")
		if err != nil {
			return to, err
		}
		if v.Pending != nil {
			if err := buildstore.PutExpansion(tx, req.Project, req.Package, *v.Pending); err != nil {
				return to, err
			}
		}
		link.BaseRev, link.Patches = v.Tree.SrcMD5, []buildstore.Patch{{Kind: "branch"}}
		files = v.Tree.Files
	}
	sum, err := buildstore.PutBlob(tx, link.Render())
	if err != nil {
		return to, err
	}
	created := buildstore.Package{Project: to.TargetProject, Name: to.TargetPackage, Title: k.Title, Description: k.Description, URL: k.URL, Created: now}
	if err := buildstore.PutPackage(tx, created); err != nil {
		return to, err
	}
	if err := RecordMeta(tx, created, who.Login, req.Comment, now); err != nil {
		return to, err
	}
	files = append(files, buildstore.FileEntry{Name: buildstore.LinkFile, MD5: sum})
	_, err = CommitTree(tx, to.TargetProject, to.TargetPackage, files, who.Login, now, CommitOptions{Comment: req.Comment, Listing: true})
	return to, err
}

// branchTarget is where the branch goes: the defaults, checked against the naming rules.
func branchTarget(who buildstore.Person, req BranchRequest) (Branched, error) {
	to := Branched{TargetProject: req.TargetProject, TargetPackage: req.TargetPackage}
	if to.TargetProject == "" {
		to.TargetProject = "home:" + who.Login + ":branches:" + req.Project
	}
	if to.TargetPackage == "" {
		to.TargetPackage = req.Package
	}
	if !buildstore.ValidProjectName(to.TargetProject) {
		return to, BadRequest("invalid_project_name", "invalid project name '%s'", to.TargetProject)
	}
	if !buildstore.ValidPackageName(to.TargetPackage) {
		return to, BadRequest("invalid_package_name", "invalid package name '%s'", to.TargetPackage)
	}
	return to, nil
}

// ensureBranchProject makes sure the branch can go into project tp: an existing one must be
// who's to change and not locked; a missing one needs the right to create it and is made as
// the real service makes it: titled after the package, described as made via BranchAttribute,
// with the origin project's URL, who as maintainer, and one repository per repository of the
// origin building against it with the same architectures.
func ensureBranchProject(tx kv.Tx, who buildstore.Person, src buildstore.Project, tp, pkg string, now time.Time) error {
	p, err := buildstore.GetProject(tx, tp)
	if err == nil {
		if !Maintains(tx, who, p.Persons, p.Groups) {
			return Forbidden("create_package_no_permission", "no permission to create package '%s' in project '%s'", pkg, tp)
		}
		if p.Locked {
			return Forbidden("project_locked", "The target project is locked")
		}
		return nil
	}
	if !MayCreateProject(tx, who, tp) {
		return Forbidden("create_project_no_permission", "no permission to create project '%s'", tp)
	}
	p = buildstore.Project{Name: tp, Title: "Branch project for package " + pkg,
		Description: "This project was created for package " + pkg + " via attribute " + BranchAttribute, URL: src.URL,
		Persons: []buildstore.Role{{ID: who.Login, Role: buildstore.RoleMaintainer}}, Created: now}
	for _, r := range src.Repositories {
		p.Repositories = append(p.Repositories, buildstore.Repository{Name: r.Name,
			Paths: []buildstore.Path{{Project: src.Name, Repository: r.Name}}, Archs: append([]string(nil), r.Archs...)})
	}
	return buildstore.PutProject(tx, p)
}
