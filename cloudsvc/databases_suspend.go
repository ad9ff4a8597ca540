package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Suspend and resume are the later real API's (not in 4.139; linodego's SuspendMySQLDatabase
// and ResumeMySQLDatabase): a suspended database keeps its data and serves nobody. A
// connectable instance's listener stops as the suspend is answered and starts as the resume is,
// so a client sees the change at once; the statuses pass through suspending and resuming by
// the clock, as the real ones do.
const (
	SuspendTime = 10 * time.Second // suspend: suspending → suspended
	ResumeTime  = 10 * time.Second // resume: resuming → active
)

// SuspendDatabase suspends by's active database id of fam and records database_suspend.
func (s *Service) SuspendDatabase(by cloudstore.User, fam string, id uint64) error {
	err := s.writeDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) error {
		db, err := settle(tx, db, now)
		if err != nil {
			return err
		}
		if err := require(db, cloudstore.DBActive); err != nil {
			return err
		}
		transient(&db, cloudstore.DBSuspending, cloudstore.OpSuspend, now, SuspendTime)
		db.Next = cloudstore.DBSuspended
		if err := cloudstore.PutDatabase(tx, &db); err != nil {
			return err
		}
		return recordOperation(tx, by, "database_suspend", db, now)
	})
	if err == nil {
		s.reconcileNow()
	}
	return err
}

// ResumeDatabase resumes by's suspended database id of fam and records database_resume; a
// connectable one is refused when no place is free for it (databases_capacity.go).
func (s *Service) ResumeDatabase(by cloudstore.User, fam string, id uint64) error {
	err := s.writeDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) error {
		db, err := settle(tx, db, now)
		if err != nil {
			return err
		}
		if err := require(db, cloudstore.DBSuspended); err != nil {
			return err
		}
		if db.Connectable() {
			if err := s.checkCapacity(tx, db.ID, now); err != nil {
				return err
			}
		}
		transient(&db, cloudstore.DBResuming, cloudstore.OpResume, now, ResumeTime)
		if err := cloudstore.PutDatabase(tx, &db); err != nil {
			return err
		}
		return recordOperation(tx, by, "database_resume", db, now)
	})
	if err == nil {
		s.reconcileNow()
	}
	return err
}
