package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// MetaLog appends package k's meta, as GET …/_meta renders it, to its meta history. The
// document is the API's rendering, so the operations that create packages (branch, copy) take
// it from their caller; the demo world passes none and its packages start without meta
// history, like the ones it writes directly.
type MetaLog func(tx *bbolt.Tx, k buildstore.Package, user, comment string) error

// record runs the log when there is one.
func (l MetaLog) record(tx *bbolt.Tx, k buildstore.Package, user, comment string) error {
	if l == nil {
		return nil
	}
	return l(tx, k, user, comment)
}
