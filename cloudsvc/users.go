package cloudsvc

import (
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// AccountUser returns the user named username of account (not found for another account's).
func (s *Service) AccountUser(account uint64, username string) (cloudstore.User, error) {
	var u cloudstore.User
	err := s.db.View(func(tx kv.Tx) (err error) {
		u, err = cloudstore.AccountUser(tx, account, username)
		return err
	})
	return u, err
}

// AccountUsers lists account's users, from a cache valid until the next committed write (the
// list is read on every users page and every grant check).
func (s *Service) AccountUsers(account uint64) ([]cloudstore.User, error) {
	return s.accountUsers.Get(account, func(tx kv.Tx) ([]cloudstore.User, error) { return cloudstore.AccountUsers(tx, account) })
}

// UpdateUser applies up to the user named username of by's account and records user_update.
func (s *Service) UpdateUser(by cloudstore.User, username string, up cloudstore.UserUpdate) (cloudstore.User, error) {
	now := s.clk.Now()
	var u cloudstore.User
	err := s.db.Write(func(tx kv.Tx) (err error) {
		if u, err = cloudstore.AccountUser(tx, by.AccountID, username); err != nil {
			return err
		}
		if u, err = updateUser(tx, u, up); err != nil {
			return err
		}
		return record(tx, by, "user_update", userEntity(u), now)
	})
	return u, err
}

// DeleteUser removes the user named username of by's account, logging them out. A user cannot
// delete themselves, and an account keeps at least one unrestricted user (someone must be able
// to manage it).
func (s *Service) DeleteUser(by cloudstore.User, username string) error {
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		u, err := cloudstore.AccountUser(tx, by.AccountID, username)
		if err != nil {
			return err
		}
		if u.Username == by.Username {
			return fault.Invalid("", "You cannot delete your own user")
		}
		if err := keepsAdmin(tx, u); err != nil {
			return err
		}
		if err := cloudstore.DeleteUser(tx, u); err != nil {
			return err
		}
		return record(tx, by, "user_delete", userEntity(u), now)
	})
}

// keepsAdmin refuses to remove the account's last unrestricted user: without one, nobody could
// manage the account's users, grants or billing again.
func keepsAdmin(tx kv.Tx, leaving cloudstore.User) error {
	users, err := cloudstore.AccountUsers(tx, leaving.AccountID)
	if err != nil {
		return err
	}
	for _, u := range users {
		if !u.Restricted && u.Username != leaving.Username {
			return nil
		}
	}
	return fault.Invalid("", "An account must keep at least one unrestricted user")
}

// Grants returns the user named username of account with the account's entities, which a
// grants view lists with the user's permission on each.
func (s *Service) Grants(account uint64, username string) (cloudstore.User, cloudstore.Entities, error) {
	var u cloudstore.User
	var owned cloudstore.Entities
	err := s.db.View(func(tx kv.Tx) (err error) {
		if u, err = cloudstore.AccountUser(tx, account, username); err != nil {
			return err
		}
		owned, err = cloudstore.AccountEntities(tx, u.AccountID)
		return err
	})
	return u, owned, err
}

// AccountEntities returns the entities of account (what a restricted user's grants can name).
func (s *Service) AccountEntities(account uint64) (cloudstore.Entities, error) {
	var owned cloudstore.Entities
	err := s.db.View(func(tx kv.Tx) (err error) {
		owned, err = cloudstore.AccountEntities(tx, account)
		return err
	})
	return owned, err
}

// SetGrants changes the grants of the user named username of by's account: the global flags
// sent overlays on the current ones (nil: unchanged) and the entity permissions of changes
// (entities not listed unchanged), and records user_update. It returns the user and the
// account's entities for the answer. parsed are the problems the caller found reading the
// request (see CreateUser).
func (s *Service) SetGrants(by cloudstore.User, username string, sent GlobalChange, changes []cloudstore.GrantChange, parsed store.Problems) (cloudstore.User, cloudstore.Entities, error) {
	now := s.clk.Now()
	var u cloudstore.User
	var owned cloudstore.Entities
	err := s.db.Write(func(tx kv.Tx) (err error) {
		if u, err = cloudstore.AccountUser(tx, by.AccountID, username); err != nil {
			return err
		}
		if u, err = SetGrants(tx, u, sent.over(u.Grants), changes); withParsed(parsed, err) != nil {
			return withParsed(parsed, err) // problems roll the transaction back
		}
		if owned, err = cloudstore.AccountEntities(tx, u.AccountID); err != nil {
			return err
		}
		return record(tx, by, "user_update", userEntity(u), now)
	})
	return u, owned, err
}
