package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// CheckProjectRefs checks what a project meta names besides repositories: each project link
// needs an existing project other than itself and a known vrevmode; the devel project must
// exist, not be the project itself, and not lead back to it. The wording is the service's.
func CheckProjectRefs(tx *bbolt.Tx, p buildstore.Project) error {
	for _, l := range p.Links {
		switch {
		case l.Project == "":
			return Invalid("project", "<link> needs a project attribute")
		case l.VRevMode != "" && l.VRevMode != "extend" && l.VRevMode != "unextend":
			return Invalid("project", "link vrevmode must be 'extend' or 'unextend', not '%s'", l.VRevMode)
		case l.Project == p.Name:
			return Invalid("project", "unable to link against myself")
		}
		if _, err := buildstore.GetProject(tx, l.Project); err != nil {
			return Invalid("project", "unable to link against project '%s'", l.Project)
		}
	}
	if p.Devel == "" {
		return nil
	}
	if p.Devel == p.Name {
		return Invalid("project", "Devel project can not point to itself")
	}
	seen := map[string]bool{p.Name: true}
	for next := p.Devel; next != ""; {
		dp, err := buildstore.GetProject(tx, next)
		if err != nil {
			if next == p.Devel {
				return Invalid("project", "value of develproject has to be a existing project (project '%s' does not exist)", next)
			}
			return nil
		}
		if seen[next] || dp.Devel == p.Name {
			return BadRequest("devel_cycle", "There is a cycle in devel definition at %s -- %s", p.Name, next)
		}
		seen[next] = true
		next = dp.Devel
	}
	return nil
}
