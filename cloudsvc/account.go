package cloudsvc

import (
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// Account returns account id.
func (s *Service) Account(id uint64) (cloudstore.Account, error) {
	var acct cloudstore.Account
	err := s.db.View(func(tx kv.Tx) (err error) { acct, err = cloudstore.GetAccount(tx, id); return })
	return acct, err
}

// UpdateSettings changes the network helper and backups settings of by's account (nil:
// unchanged) and records account_settings_update, in one small commit: the event is encoded
// before the transaction, and the account is decoded and re-encoded through s.codec, so the
// transaction itself compares bytes and stores bytes (settings writes come many at once, and in
// a group commit each write's work inside the transaction delays all the others). The account
// returned is shared: callers must not modify it.
func (s *Service) UpdateSettings(by cloudstore.User, networkHelper, backups *bool) (cloudstore.Account, error) {
	now := s.clk.Now()
	before := s.codec.lastSeen(by.AccountID) // the event is prepared from it; the write checks it
	if before == nil {
		err := s.db.View(func(tx kv.Tx) error {
			raw, err := cloudstore.AccountBytes(tx, by.AccountID)
			if err == nil {
				before, err = s.codec.decode(raw)
			}
			return err
		})
		if err != nil {
			return cloudstore.Account{}, err
		}
	}
	prepared, err := prepareRecord(by, "account_settings_update", accountEntity(before.acct), now)
	if err != nil {
		return cloudstore.Account{}, err
	}
	var after *codedAccount
	err = s.db.Write(func(tx kv.Tx) error {
		raw, err := cloudstore.AccountBytes(tx, by.AccountID)
		if err != nil {
			return err
		}
		cur, err := s.codec.decode(raw)
		if err != nil {
			return err
		}
		sw := settingsSwitch{networkHelper: cur.acct.Settings.NetworkHelper, backups: cur.acct.Settings.BackupsEnabled}
		if networkHelper != nil {
			sw.networkHelper = *networkHelper
		}
		if backups != nil {
			sw.backups = *backups
		}
		if after, err = s.codec.withSettings(cur, sw); err != nil {
			return err
		}
		if err := cloudstore.PutAccountBytes(tx, by.AccountID, after.raw); err != nil {
			return err
		}
		event := prepared
		if cur.acct.Euuid != before.acct.Euuid || cur.acct.Name != before.acct.Name { // changed meanwhile
			if event, err = prepareRecord(by, "account_settings_update", accountEntity(cur.acct), now); err != nil {
				return err
			}
		}
		_, err = cloudstore.RecordPrepared(tx, event)
		return err
	})
	if err != nil {
		return cloudstore.Account{}, err
	}
	return after.acct, nil
}

// EnableManaged turns the managed service on for by's whole account, mails the welcome to the
// account's address and records managed_enabled. Enabling it again changes nothing and sends
// nothing.
func (s *Service) EnableManaged(by cloudstore.User) error {
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		acct, err := cloudstore.GetAccount(tx, by.AccountID)
		if err != nil || acct.Settings.Managed {
			return err
		}
		acct.Settings.Managed = true
		if err := cloudstore.PutAccount(tx, acct); err != nil {
			return err
		}
		mail := &outbox.Mail{Time: now, API: "cloud", From: "managed@pocketforge.test", To: []string{acct.Email},
			Subject: "Welcome to the managed service",
			Body:    "The managed service is now enabled for your whole account. Our team monitors your services around the clock.\n"}
		if err := outbox.Send(tx, mail); err != nil {
			return err
		}
		return record(tx, by, "managed_enabled", accountEntity(acct), now)
	})
}

// accountEntity is the account as an event's entity.
func accountEntity(acct cloudstore.Account) *cloudstore.EventEntity {
	return &cloudstore.EventEntity{ID: acct.Euuid, Label: acct.Name, Type: "account", URL: "/v4/account"}
}

// NetworkUsage returns account's network use this month (GB): each instance's simulated traffic
// over the hours the account owned it, by the clock, and the quota of the instances owned now.
func (s *Service) NetworkUsage(account uint64) (used float64, quota int, err error) {
	now := s.clk.Now()
	err = s.db.View(func(tx kv.Tx) error {
		acct, err := cloudstore.GetAccount(tx, account)
		if err != nil {
			return err
		}
		used, quota, err = cloudstore.NetworkUsage(tx, acct.ID, now)
		return err
	})
	return used, quota, err
}
