package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// MayCreateDatabase says whether by may create databases: a restricted user needs the
// add_databases grant. CreateDatabase checks it too; a caller asks first to refuse before
// reading a request it would not act on.
func MayCreateDatabase(by cloudstore.User) error {
	if by.Restricted && (by.Grants == nil || !by.Grants.Global.AddDatabases) {
		return errUnauthorized
	}
	return nil
}

// CreateDatabase provisions a sqldb database for by's account, with fresh credentials and
// certificates, and records database_create; it stays provisioning for the configured time. A
// connectable one is refused when no place is free for it (databases_capacity.go).
// parsed are the problems the caller found reading the request (see CreateUser).
func (s *Service) CreateDatabase(by cloudstore.User, in cloudstore.NewDatabase, parsed store.Problems) (cloudstore.Database, error) {
	if err := MayCreateDatabase(by); err != nil {
		return cloudstore.Database{}, err
	}
	now := s.clk.Now()
	label := ""
	if in.Label != nil && len(*in.Label) <= 32 {
		label = *in.Label
	}
	var err error
	if in.Secrets, err = cloudstore.NewDatabaseSecrets(label, now); err != nil {
		return cloudstore.Database{}, err
	}
	var db cloudstore.Database
	err = s.db.Write(func(tx kv.Tx) error {
		if db, err = createDatabase(tx, by, in, now, s.provisionTime()); withParsed(parsed, err) != nil {
			return withParsed(parsed, err)
		}
		if db.Connectable() {
			if err := s.checkCapacity(tx, db.ID, now); err != nil {
				return err
			}
		}
		return recordOperation(tx, by, "database_create", db, now)
	})
	return db, err
}

// UpdateDatabase applies a change (label, allow_list, updates, engine_config, version; type and
// cluster_size resize) to by's active database id of fam, which is then updating (resizing), and
// records database_update (database_resize for a plan change, and database_update besides
// when more changed). parsed are the problems the caller
// found reading the request (see CreateUser).
func (s *Service) UpdateDatabase(by cloudstore.User, fam string, id uint64, up cloudstore.DatabaseUpdate, parsed store.Problems) (cloudstore.Database, error) {
	var out cloudstore.Database
	err := s.writeDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) (err error) {
		var resized bool
		if out, resized, err = updateDatabase(tx, db, up, now); withParsed(parsed, err) != nil {
			return withParsed(parsed, err)
		}
		if resized { // the provider waits on database_resize for a plan, database_update for the rest
			if err := recordOperation(tx, by, "database_resize", out, now); err != nil {
				return err
			}
			if !changesMore(up) {
				return nil
			}
		}
		return recordOperation(tx, by, "database_update", out, now)
	})
	if err == nil && up.AllowList != nil {
		s.reconcileNow() // the new allow list holds for the next connection
	}
	return s.live(out), err
}

// DeleteDatabase deletes by's active, failed or degraded database id of fam and records
// database_delete. A connectable instance stops at once and its data goes with the record.
func (s *Service) DeleteDatabase(by cloudstore.User, fam string, id uint64) error {
	err := s.writeDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) error {
		if err := RetireDatabase(tx, db, now); err != nil {
			return err
		}
		return record(tx, by, "database_delete", db.EventEntity(), now)
	})
	if err == nil {
		s.reconcileNow()
	}
	return err
}

// PatchDatabase applies OS patches: the database is updating for a while, with a notification.
// The reference names no event for it; it is recorded as database_update.
func (s *Service) PatchDatabase(by cloudstore.User, fam string, id uint64) error {
	return s.writeDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) error {
		db, err := patchDatabase(tx, db, now)
		if err != nil {
			return err
		}
		return recordOperation(tx, by, "database_update", db, now)
	})
}

// DatabaseCredentials returns a database's root username and password. A read_only
// grant suffices, as in the real service: the reference marks every family's credentials view
// x-linode-grant read_only ("the root username and password for an accessible database"), so a
// restricted user who may only read a database may still connect to it as root; only the reset
// is kept from them (unrestricted users only).
func (s *Service) DatabaseCredentials(by cloudstore.User, fam string, id uint64) (username, password string, err error) {
	err = s.readDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) (err error) {
		username, password, err = databaseCredentials(tx, db, now)
		return err
	})
	return username, password, err
}

// ResetDatabaseCredentials gives the database a new random root password, readable through
// DatabaseCredentials as soon as this returns, and records database_credentials_reset. The
// real service answers the same way: its recordings (linodego's MySQL and PostgreSQL suites)
// read the new password and patch the database right after the reset, with no wait and no
// status change; so nothing here is held back, and a delete may follow at once. A connectable
// instance takes the new password before this returns: new connections need it, the old one
// fails (open sessions go on, as after MySQL's ALTER USER).
func (s *Service) ResetDatabaseCredentials(by cloudstore.User, fam string, id uint64) error {
	password := cloudstore.NewDatabasePassword()
	err := s.writeDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) error {
		db, err := resetDatabaseCredentials(tx, db, password, now)
		if err != nil {
			return err
		}
		return record(tx, by, "database_credentials_reset", db.EventEntity(), now)
	})
	if err == nil {
		s.reconcileNow()
	}
	return err
}

// DatabaseCA returns a database's CA certificate (PEM), in every status but suspended.
func (s *Service) DatabaseCA(by cloudstore.User, fam string, id uint64) ([]byte, error) {
	var pem []byte
	err := s.readDatabase(by, fam, id, func(tx kv.Tx, db cloudstore.Database, now time.Time) (err error) {
		pem, err = databaseCA(tx, db, now)
		return err
	})
	return pem, err
}

// databaseCredentials returns the root username and password of a database (requireUnsuspended).
func databaseCredentials(tx kv.Tx, d cloudstore.Database, now time.Time) (username, password string, err error) {
	if err := requireUnsuspended(d.At(now)); err != nil {
		return "", "", err
	}
	s, err := cloudstore.DatabaseSecretsOf(tx, d.ID)
	return d.RootUsername(), s.Password, err
}

// databaseCA returns the PEM CA certificate of a database (requireUnsuspended).
func databaseCA(tx kv.Tx, d cloudstore.Database, now time.Time) ([]byte, error) {
	if err := requireUnsuspended(d.At(now)); err != nil {
		return nil, err
	}
	s, err := cloudstore.DatabaseSecretsOf(tx, d.ID)
	return s.CACert, err
}

// resetDatabaseCredentials gives an active database a new root password (made by the caller,
// see cloudstore.NewDatabasePassword). The database stays active and every operation stays
// open; from now on a backup older than this instant cannot be restored.
func resetDatabaseCredentials(tx kv.Tx, d cloudstore.Database, password string, now time.Time) (cloudstore.Database, error) {
	d, err := settle(tx, d, now)
	if err != nil {
		return d, err
	}
	if err := require(d, cloudstore.DBActive); err != nil {
		return d, err
	}
	s, err := cloudstore.DatabaseSecretsOf(tx, d.ID)
	if err != nil {
		return d, err
	}
	s.Password = password
	if err := cloudstore.PutDatabaseSecrets(tx, d.ID, s); err != nil {
		return d, err
	}
	d.CredentialsReset, d.Updated = now, now
	return d, cloudstore.PutDatabase(tx, &d)
}
