package cloudsvc

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// errUnauthorized is the cloud's refusal of an operation the caller's grants do not allow.
var errUnauthorized = fault.Forbidden("", "Unauthorized")

// dbListKey names one cached list: an account's databases of a family ("" for all).
type dbListKey struct {
	account uint64
	family  string
}

// dbOp is the body of an operation on one database, run in a transaction.
type dbOp func(tx kv.Tx, db cloudstore.Database, now time.Time) error

// readDatabase runs op in a read transaction on by's database id of fam, which by must be
// allowed at least read_only on.
func (s *Service) readDatabase(by cloudstore.User, fam string, id uint64, op dbOp) error {
	now := s.clk.Now()
	return s.db.View(func(tx kv.Tx) error {
		db, err := target(tx, by, fam, id, cloudstore.ReadOnly)
		if err != nil {
			return err
		}
		return op(tx, db, now)
	})
}

// writeDatabase runs op in a write transaction on by's database id of fam, which by must hold
// read_write on. The database is read inside the transaction, so two requests that change it
// are serialised and the second sees what the first did (an `updating` status, say).
func (s *Service) writeDatabase(by cloudstore.User, fam string, id uint64, op dbOp) error {
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		db, err := target(tx, by, fam, id, cloudstore.ReadWrite)
		if err != nil {
			return err
		}
		return op(tx, db, now)
	})
}

// target loads by's database: another account's or family's, a deleted one or one a
// restricted user holds no grant on is not found; one they may only read is forbidden for
// writes.
func target(tx kv.Tx, by cloudstore.User, fam string, id uint64, need string) (cloudstore.Database, error) {
	db, err := cloudstore.AccountDatabase(tx, by.AccountID, fam, id)
	if err != nil {
		return db, err
	}
	switch perm := DatabasePermission(by, id); {
	case perm == "":
		return db, fmt.Errorf("database %d: %w", id, store.ErrNotFound)
	case need == cloudstore.ReadWrite && perm != cloudstore.ReadWrite:
		return db, errUnauthorized
	}
	return db, nil
}

// VisibleDatabases lists by's databases of fam ("" all) as they stand now, for a restricted
// user only those they hold a grant on. The account's list comes from a cache valid until the
// next committed write, so a list of thousands is filtered per request without touching bbolt.
func (s *Service) VisibleDatabases(by cloudstore.User, fam string) ([]cloudstore.Database, error) {
	key := dbListKey{by.AccountID, fam}
	list, err := s.dbLists.Get(key, func(tx kv.Tx) ([]cloudstore.Database, error) {
		return cloudstore.AccountDatabases(tx, key.account, fam)
	})
	if err != nil {
		return nil, err
	}
	list = s.liveList(cloudstore.DatabasesAt(list, s.clk.Now()))
	if !by.Restricted {
		return list, nil
	}
	out := []cloudstore.Database{}
	for _, db := range list {
		if DatabasePermission(by, db.ID) != "" {
			out = append(out, db)
		}
	}
	return out, nil
}

// Database returns by's database id of fam as it stands now.
func (s *Service) Database(by cloudstore.User, fam string, id uint64) (cloudstore.Database, error) {
	var out cloudstore.Database
	err := s.readDatabase(by, fam, id, func(_ kv.Tx, db cloudstore.Database, now time.Time) error {
		out = db.At(now)
		return nil
	})
	if err != nil {
		return out, err
	}
	return s.live(out), nil // outside the transaction: it may start the instance
}

// DatabaseCatalog returns the engines and plans, from a cache valid until the next committed
// write (the catalogue is public and read often).
func (s *Service) DatabaseCatalog() (cloudstore.DatabaseCatalog, error) {
	return s.dbCatalog.Get(struct{}{}, cloudstore.GetDatabaseCatalog)
}
