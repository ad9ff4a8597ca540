package buildsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// ReleaseSources commits k's newest tree, expanded when k is a link, as a new revision of the
// same-named package of project (created on the way), unless that package's newest revision
// holds the same tree already (a release repeated makes no empty revision).
func ReleaseSources(tx kv.Tx, who buildstore.Person, k buildstore.Package, project, comment string, now time.Time) error {
	v, err := ReadView(tx, who, k.Project, k.Name, "", true, "")
	if err != nil {
		return err
	}
	if v.Pending != nil {
		if err := buildstore.PutExpansion(tx, k.Project, k.Name, *v.Pending); err != nil {
			return err
		}
	}
	if err := EnsurePackage(tx, who, project, k.Name, k, now); err != nil {
		return err
	}
	last, ok, err := buildstore.LatestRevision(tx, project, k.Name)
	if err != nil {
		return err
	}
	if ok && last.SrcMD5 == buildstore.SrcMD5(v.Tree.Files) {
		return nil
	}
	_, err = CommitTree(tx, project, k.Name, v.Tree.Files, who.Login, now, CommitOptions{Comment: comment})
	return err
}
