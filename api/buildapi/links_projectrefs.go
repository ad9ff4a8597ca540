package buildapi

import (
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// checkProjectRefs checks the references of a project meta: a <devel> element must name a
// project (a parse rule of the document), the rest is buildsvc.CheckProjectRefs.
func checkProjectRefs(tx *bbolt.Tx, d projectXML, p buildstore.Project) error {
	if d.Devel != nil && deref(d.Devel.Project) == "" {
		return buildsvc.Invalid("project", "<devel> needs a project attribute")
	}
	return buildsvc.CheckProjectRefs(tx, p)
}
