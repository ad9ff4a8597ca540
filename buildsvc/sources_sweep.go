package buildsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// SweepBlobs removes the uploads never committed whose grace period ended at now (the clock
// job build-blob-sweep). It only reads unless something expired, so an idle appliance does
// not write every second.
func (s *Service) SweepBlobs(now time.Time) error {
	var expired []string
	if err := s.db.View(func(tx kv.Tx) (err error) { expired, err = buildstore.ExpiredPending(tx, now); return }); err != nil || len(expired) == 0 {
		return err
	}
	return s.db.Write(func(tx kv.Tx) error { return buildstore.SweepPending(tx, expired, now) })
}
