package buildapi

import (
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// sweepBlobs is the clock job that removes uploads never committed (store/build/pending.go).
// It only reads unless something expired, so an idle appliance does not write every second.
func (a *api) sweepBlobs(now time.Time) error {
	var expired []string
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) { expired, err = buildstore.ExpiredPending(tx, now); return }); err != nil || len(expired) == 0 {
		return err
	}
	return a.Store.Write(func(tx *bbolt.Tx) error { return buildstore.SweepPending(tx, expired, now) })
}
