package maintenance

import (
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Branching by attribute (POST /source?cmd=branch, osc mbranch), as OBS's BranchPackage does
// it for a maintenance update: every package carrying the attribute (default OBS:Maintained)
// is branched into one project, and, when a package name is given, that package of every
// project carrying the attribute too.
//
//   - The branch project is target_project, or home:<login>:branches:<attribute with ':' as
//     '_'> (":<package>" appended when a package is named). A new one is made with who as
//     maintainer (access disabled with noaccess) and one repository per repository of each
//     origin project, named as OBS names them (the project name with ':' as '_', and
//     "_<repository>" when the project has several), building against the origin.
//   - Each package is branched with the one branch function (BranchPackage) under its
//     extended name <package>.<project with ':' as '_'>, as OBS names maintenance branches,
//     so the same package from two projects does not collide.
//   - update_project_attribute (default OBS:UpdateProject): when the origin project carries it
//     and its value names a project holding the package, that package is branched instead
//     (the update project is where the newest maintained version lives).
//
// Left out: branching from a request (request=), attribute values (value=), linkrev, and
// OBS's per-package build flags that enable each branch only in its own repositories.

// AttributeBranchRequest is a POST /source?cmd=branch.
type AttributeBranchRequest struct {
	// Attribute is the marking attribute ("" is OBS:Maintained); UpdateAttribute the update
	// project attribute ("" is OBS:UpdateProject).
	Attribute, UpdateAttribute string
	// Package limits the branch to packages of this name.
	Package string
	// TargetProject is the branch project ("": the default name).
	TargetProject string
	// NoAccess disables access to a new branch project.
	NoAccess bool
	// Request asks for a branch from a request: not supported.
	Request string
	// DryRun only lists what would be branched (osc maintained / sm).
	DryRun bool
}

// AttributeBranch is what a branch by attribute did (or, with DryRun, would do).
type AttributeBranch struct {
	TargetProject string
	Packages      []AttributeBranchPackage
}

// AttributeBranchPackage is one package branched: its origin and its name in the target.
type AttributeBranchPackage struct {
	Project, Package, TargetPackage string
}

// branchSource is one package to branch.
type branchSource struct {
	project buildstore.Project
	pkg     string
}

// BranchByAttribute runs req for who and returns what it branched.
func (s *Service) BranchByAttribute(who buildstore.Person, req AttributeBranchRequest) (AttributeBranch, error) {
	var out AttributeBranch
	if req.Request != "" {
		return out, buildsvc.BadRequest("illegal_request", "branching from a request is not supported: branch its packages one by one")
	}
	if req.Attribute == "" {
		req.Attribute = buildsvc.BranchAttribute
	}
	if req.UpdateAttribute == "" {
		req.UpdateAttribute = "OBS:UpdateProject"
	}
	ns, name, err := buildsvc.SplitAttribute(req.Attribute)
	if err != nil {
		return out, err
	}
	uns, uname, err := buildsvc.SplitAttribute(req.UpdateAttribute)
	if err != nil {
		return out, err
	}
	target := req.TargetProject
	if target == "" {
		target = "home:" + who.Login + ":branches:" + strings.ReplaceAll(req.Attribute, ":", "_")
		if req.Package != "" {
			target += ":" + req.Package
		}
	}
	if !buildstore.ValidProjectName(target) {
		return out, buildsvc.BadRequest("invalid_project_name", "invalid project name '%s'", target)
	}
	out.TargetProject = target
	now := s.Clock().Now()
	run := s.Store().Write
	if req.DryRun {
		run = s.Store().View
	}
	err = run(func(tx kv.Tx) error {
		out.Packages = nil // the transaction may run twice
		if _, err := buildstore.GetAttributeDefinition(tx, ns, name); err != nil {
			return fault.NotFound("unknown_attribute_type", "Attribute Type %s does not exist", req.Attribute)
		}
		sources, err := attributeCarriers(tx, who, ns, name, req.Package)
		if err != nil {
			return err
		}
		if len(sources) == 0 {
			return fault.NotFound("not_found", "no packages found by search criteria")
		}
		if !req.DryRun {
			if err := ensureAttributeBranchProject(tx, who, target, req, sources, now); err != nil {
				return err
			}
		}
		for _, src := range sources {
			origin := src.project.Name
			if a, err := buildstore.GetAttribute(tx, origin, "", "", uns, uname); err == nil && len(a.Values) > 0 {
				if _, err := buildstore.GetPackage(tx, a.Values[0], src.pkg); err == nil {
					origin = a.Values[0]
				}
			}
			b := AttributeBranchPackage{Project: origin, Package: src.pkg, TargetPackage: src.pkg + "." + strings.ReplaceAll(src.project.Name, ":", "_")}
			out.Packages = append(out.Packages, b)
			if req.DryRun {
				continue
			}
			_, err := buildsvc.BranchPackage(tx, who, buildsvc.BranchRequest{Project: b.Project, Package: b.Package, TargetProject: target, TargetPackage: b.TargetPackage}, now)
			if err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// attributeCarriers lists the packages carrying ns:name that who may see and read — and,
// when pkg is given, only those called pkg plus pkg of each project carrying it — by project
// and package.
func attributeCarriers(tx kv.Tx, who buildstore.Person, ns, name, pkg string) ([]branchSource, error) {
	projects, err := buildstore.Projects(tx)
	if err != nil {
		return nil, err
	}
	var out []branchSource
	for _, p := range projects {
		if buildsvc.HiddenFrom(tx, who, p) {
			continue
		}
		_, perr := buildstore.GetAttribute(tx, p.Name, "", "", ns, name)
		pkgs, err := buildstore.Packages(tx, p.Name)
		if err != nil {
			return nil, err
		}
		for _, k := range pkgs {
			if pkg != "" && k.Name != pkg {
				continue
			}
			_, kerr := buildstore.GetAttribute(tx, p.Name, k.Name, "", ns, name)
			if kerr != nil && (perr != nil || pkg == "") {
				continue
			}
			if buildsvc.SourcesReadable(tx, who, p.Name, k.Name) != nil {
				continue
			}
			out = append(out, branchSource{project: p, pkg: k.Name})
		}
	}
	return out, nil
}

// ensureAttributeBranchProject makes the branch project when it is missing (see the file's
// comment); an existing one must be who's to change and not locked.
func ensureAttributeBranchProject(tx kv.Tx, who buildstore.Person, name string, req AttributeBranchRequest, sources []branchSource, now time.Time) error {
	if p, err := buildstore.GetProject(tx, name); err == nil {
		if !buildsvc.Maintains(tx, who, p.Persons, p.Groups) {
			return buildsvc.Forbidden("cmd_execution_no_permission", "no permission to branch into project '%s'", name)
		}
		if p.Locked {
			return buildsvc.Forbidden("project_locked", "The target project is locked")
		}
		return nil
	}
	if !buildsvc.MayCreateProject(tx, who, name) {
		return buildsvc.Forbidden("create_project_no_permission", "no permission to create project '%s'", name)
	}
	p := buildstore.Project{Name: name, Title: "Branch project based on attribute " + req.Attribute,
		Description: "This project was created via attribute " + req.Attribute,
		Persons:     []buildstore.Role{{ID: who.Login, Role: buildstore.RoleMaintainer}}, Created: now}
	if req.NoAccess {
		p.Flags = append(p.Flags, buildstore.Flag{Name: "access", Status: "disable"})
	}
	seen := map[string]bool{}
	for _, src := range sources {
		if seen[src.project.Name] {
			continue
		}
		seen[src.project.Name] = true
		for _, r := range src.project.Repositories {
			repo := strings.ReplaceAll(src.project.Name, ":", "_")
			if len(src.project.Repositories) > 1 {
				repo += "_" + r.Name
			}
			p.Repositories = append(p.Repositories, buildstore.Repository{Name: repo,
				Paths: []buildstore.Path{{Project: src.project.Name, Repository: r.Name}}, Archs: append([]string(nil), r.Archs...)})
		}
	}
	return buildstore.PutProject(tx, p)
}
