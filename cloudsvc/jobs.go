package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// RegisterJobs registers the cloud's clock-driven work on r: "invoices" (the monthly billing
// cycle), "transfers" (expiry and completion of service transfers) and "databases"
// (provisioning, updates, backups), then "sqldb" (the connectable instances' listeners follow
// their records, ReconcileDatabases). Each looks in a read transaction and writes only when
// something is due, so running them every second costs no write.
func (s *Service) RegisterJobs(r *jobs.Runner) {
	r.Add("invoices", s.BillingJob)
	r.Add("transfers", s.TransferJob)
	r.Add("databases", s.DatabaseJob)
	r.Add("sqldb", s.ReconcileDatabases)
}

// BillingJob issues the invoices due at now, autopays them and updates past-due marks (see the
// billing cycle in billing_run.go).
func (s *Service) BillingJob(now time.Time) error {
	return s.whenDue(now, billingDue, runBilling)
}

// TransferJob expires pending transfers and completes accepted ones that are due at now.
func (s *Service) TransferJob(now time.Time) error {
	return s.whenDue(now, transfersDue, transferJob)
}

// DatabaseJob moves databases through their states as of now and takes and prunes their auto
// backups (see databases_job.go).
func (s *Service) DatabaseJob(now time.Time) error {
	return s.whenDue(now, cloudstore.DatabasesDue, runDatabaseJob)
}

// whenDue runs work in a write transaction only when due says, in a read transaction, that
// there is work at now.
func (s *Service) whenDue(now time.Time, due func(kv.Tx, time.Time) (bool, error), work func(kv.Tx, time.Time) error) error {
	var yes bool
	if err := s.db.View(func(tx kv.Tx) (err error) { yes, err = due(tx, now); return err }); err != nil || !yes {
		return err
	}
	return s.db.Write(func(tx kv.Tx) error { return work(tx, now) })
}
