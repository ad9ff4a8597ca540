package requests

import (
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// RequestDiff is cmd=diff on request id: for every submit and maintenance action, the unified
// diff of its source (at rev, expanded) against its target's newest tree (the empty tree when
// the target package does not exist yet), as the backend's source diff prints it and osc rq
// show -d shows it; actions without a source package add nothing. The sources are read as who
// may read them.
func (s *Service) RequestDiff(who buildstore.Person, id uint64) (string, error) {
	var out strings.Builder
	err := s.db.View(func(tx kv.Tx) error {
		r, err := loadRequest(tx, who, id)
		if err != nil {
			return err
		}
		for _, a := range r.Actions {
			if a.Source == nil || a.Source.Package == "" || a.Target == nil {
				continue
			}
			text, err := actionDiff(tx, who, a)
			if err != nil {
				return err
			}
			out.WriteString(text)
		}
		return nil
	})
	return out.String(), err
}

// actionDiff is one action's diff; an accepted submit compares the two target trees its
// acceptinfo names (its source may be gone by then).
func actionDiff(tx kv.Tx, who buildstore.Person, a buildstore.RequestAction) (string, error) {
	tpkg := a.Target.Package
	if tpkg == "" {
		tpkg = a.Source.Package
	}
	if i := a.AcceptInfo; i != nil {
		oldView, err := buildsvc.ReadView(tx, who, a.Target.Project, tpkg, i.OSrcMD5, false, "")
		if err != nil {
			return "", err
		}
		newView, err := buildsvc.ReadView(tx, who, a.Target.Project, tpkg, i.Rev, false, "")
		if err != nil {
			return "", err
		}
		return buildsvc.SourceDiff(tx, oldView, newView)
	}
	newView, err := buildsvc.ReadView(tx, who, a.Source.Project, a.Source.Package, a.Source.Rev, true, "")
	if err != nil {
		return "", err
	}
	oldView := buildsvc.SourceView{Tree: buildsvc.EmptyTree}
	if _, _, err := buildsvc.LookupPackage(tx, a.Target.Project, tpkg); err == nil {
		if oldView, err = buildsvc.ReadView(tx, who, a.Target.Project, tpkg, "", true, ""); err != nil {
			return "", err
		}
	}
	return buildsvc.SourceDiff(tx, oldView, newView)
}
