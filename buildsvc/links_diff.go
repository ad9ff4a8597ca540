package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// LinkDiff answers cmd=linkdiff: the diff from the link's target tree to the link's expansion,
// i.e. what the link changes (empty for a package that is not a link), read as by who at rev
// against the target's newest tree or linkrev. diff renders it (the source diff's format is
// the diff command's).
func (s *Service) LinkDiff(who buildstore.Person, project, pkg, rev, linkrev string) (string, error) {
	var text string
	err := s.db.View(func(tx kv.Tx) error {
		if _, _, err := LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		unexpanded, err := ReadView(tx, who, project, pkg, rev, false, linkrev)
		if err != nil || unexpanded.Link == nil {
			return err
		}
		if unexpanded.Link.Error != "" {
			return LinkError(unexpanded.Link.Error)
		}
		expanded, err := ReadView(tx, who, project, pkg, rev, true, linkrev)
		if err != nil {
			return err
		}
		l := unexpanded.Link
		target, found, err := ResolveRevision(tx, l.Project, l.Package, l.SrcMD5)
		if err != nil {
			return err
		}
		if !found {
			target = EmptyTree
		}
		text, err = SourceDiff(tx, SourceView{Tree: target}, expanded)
		return err
	})
	return text, err
}
