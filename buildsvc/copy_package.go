package buildsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// CopyPackageRequest is a package copy (cmd=copy on a package).
type CopyPackageRequest struct {
	// Project and Package are the target; OProject and OPackage the origin.
	Project, Package, OProject, OPackage string
	// ORev is the origin revision (default: the newest); Expand copies a link's expansion
	// (a link otherwise stays a link) against the target's newest tree or OLinkRev.
	ORev, OLinkRev string
	Expand         bool
	// Comment is the new revision's comment.
	Comment string
}

// CopyPackage commits the files of the origin as a new revision of the target and returns
// the new revision's view. The origin is read as by who, with the read-protection rules of
// every read (a hidden origin project is a 404, protected sources a 403). A missing target is
// created on the way by a maintainer of its project, with the origin's title and description,
// as the API does.
func (s *Service) CopyPackage(who buildstore.Person, req CopyPackageRequest) (SourceView, error) {
	var out SourceView
	err := s.db.Write(func(tx kv.Tx) error {
		_, src, err := LookupVisiblePackage(tx, who, req.OProject, req.OPackage)
		if err != nil {
			return err
		}
		v, err := ReadView(tx, who, req.OProject, req.OPackage, req.ORev, req.Expand, req.OLinkRev)
		if err != nil {
			return err
		}
		if v.Pending != nil {
			if err := buildstore.PutExpansion(tx, req.OProject, req.OPackage, *v.Pending); err != nil {
				return err
			}
		}
		now := s.clk.Now()
		if err := EnsurePackage(tx, who, req.Project, req.Package, src, now); err != nil {
			return err
		}
		if err := Writable(tx, who, req.Project, req.Package, "cmd_execution_no_permission"); err != nil {
			return err
		}
		c, err := CommitTree(tx, req.Project, req.Package, v.Tree.Files, who.Login, now, CommitOptions{Comment: req.Comment, Listing: true})
		out = c.View
		return err
	})
	return out, err
}

// EnsurePackage creates project/name from src's title and description when it does not exist;
// that needs a maintainer of the project (a tombstone under the name is replaced, its history
// dropped, as a meta PUT would).
func EnsurePackage(tx kv.Tx, who buildstore.Person, project, name string, src buildstore.Package, now time.Time) error {
	p, _, err := LookupPackage(tx, project, name)
	if err == nil || p.Name == "" {
		return err
	}
	if !buildstore.ValidPackageName(name) {
		return BadRequest("invalid_package_name", "invalid package name '%s'", name)
	}
	if !Maintains(tx, who, p.Persons, p.Groups) {
		return Forbidden("create_package_no_permission", "no permission to create package '%s' in project '%s'", name, project)
	}
	k := buildstore.Package{Project: project, Name: name, Title: src.Title, Description: src.Description, Created: now}
	if err := buildstore.PutPackage(tx, k); err != nil {
		return err
	}
	return RecordMeta(tx, k, who.Login, "", now)
}
