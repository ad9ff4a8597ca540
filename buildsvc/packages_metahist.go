package buildsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Package meta history: every write of a package's meta appends a meta revision (store
// metahist.go) with the document as GET …/_meta showed it then; _history?meta=1 lists them,
// ?meta=1 lists the meta tree and _meta?rev=N reads an old one.

// RecordMeta appends the package's current meta, rendered as GET …/_meta shows it, to its meta
// history, as user with comment. Every write of a package meta (the meta PUT, the lock and flag
// commands, a branch, an undelete…) calls it in its own transaction, so the history never
// misses a change.
func RecordMeta(tx kv.Tx, k buildstore.Package, user, comment string, now time.Time) error {
	if _, err := buildstore.CommitMeta(tx, k.Project, k.Name, metadoc.RenderPackage(k), user, comment, now); err != nil {
		return err
	}
	return touchPackage(tx, k.Project, k.Name, now) // its activity (statistics_activity.go)
}

// metaRevision reads meta revision rev of project/pkg (404 for a missing project, package or
// revision).
func metaRevision(tx kv.Tx, project, pkg, rev string) (buildstore.Revision, error) {
	if _, _, err := LookupPackage(tx, project, pkg); err != nil {
		return buildstore.Revision{}, err
	}
	r, found, err := buildstore.MetaRevision(tx, project, pkg, rev)
	if err == nil && !found {
		err = NoSuchRevision()
	}
	return r, err
}

// MetaRevision is meta revision rev of project/pkg (the newest without rev): the tree that
// GET …?meta=1 lists.
func (s *Service) MetaRevision(project, pkg, rev string) (r buildstore.Revision, err error) {
	err = s.db.View(func(tx kv.Tx) error { r, err = metaRevision(tx, project, pkg, rev); return err })
	return r, err
}

// OldMeta is the document meta revision rev stored, byte for byte.
func (s *Service) OldMeta(project, pkg, rev string) (data []byte, err error) {
	err = s.db.View(func(tx kv.Tx) error {
		r, err := metaRevision(tx, project, pkg, rev)
		if err != nil {
			return err
		}
		data, err = buildstore.GetBlob(tx, r.Files[0].MD5)
		return err
	})
	return data, err
}

// MetaHistory lists the package's meta revisions, oldest first.
func (s *Service) MetaHistory(project, pkg string) (all []buildstore.Revision, err error) {
	err = s.db.View(func(tx kv.Tx) error {
		if _, _, err := LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		all, err = buildstore.MetaRevisions(tx, project, pkg)
		return err
	})
	return all, err
}
