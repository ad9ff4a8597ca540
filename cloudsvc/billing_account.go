package cloudsvc

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// AccountRecord is an account with its billing summary as of some instant.
type AccountRecord struct {
	Account cloudstore.Account
	Summary cloudstore.BillingSummary
}

// AccountRecord returns account id and its billing summary as of now. Drafting the uninvoiced
// usage reads every instance and database of the account, so the answer is kept (s.records)
// until a committed write or the clock moves it — the next started hour of an item running now,
// the next month, a promotion's expiry — rather than drafted on every read. The same record is
// returned for as long as it holds, so a renderer may keep its rendering by it; it is shared:
// callers must not modify it.
func (s *Service) AccountRecord(id uint64) (*AccountRecord, error) {
	now := s.clk.Now()
	return s.records.get(id, now, func(tx kv.Tx, h *horizon) (*AccountRecord, error) {
		acct, sum, err := accountRecord(tx, id, now, h)
		return &AccountRecord{Account: acct, Summary: sum}, err
	})
}

// accountRecord reads account id and drafts its billing summary at now; h, when not nil, notes
// how long that summary holds (see accountBillingSummary).
func accountRecord(tx kv.Tx, id uint64, now time.Time, h *horizon) (cloudstore.Account, cloudstore.BillingSummary, error) {
	acct, err := cloudstore.GetAccount(tx, id)
	if err != nil {
		return acct, cloudstore.BillingSummary{}, err
	}
	sum, err := accountBillingSummary(tx, acct, now, h)
	return acct, sum, err
}

// UpdateContact changes the contact fields of by's account that up sends (omitted ones stay),
// records account_update and returns the account with its billing summary. parsed are the
// problems the caller found reading the request (see CreateUser).
func (s *Service) UpdateContact(by cloudstore.User, up cloudstore.ContactUpdate, parsed store.Problems) (cloudstore.Account, cloudstore.BillingSummary, error) {
	now := s.clk.Now()
	var acct cloudstore.Account
	var sum cloudstore.BillingSummary
	err := s.db.Write(func(tx kv.Tx) (err error) {
		if acct, err = cloudstore.GetAccount(tx, by.AccountID); err != nil {
			return err
		}
		if acct, err = updateContact(acct, up); withParsed(parsed, err) != nil {
			return withParsed(parsed, err)
		}
		if err := cloudstore.PutAccount(tx, acct); err != nil {
			return err
		}
		if err := record(tx, by, "account_update", accountEntity(acct), now); err != nil {
			return err
		}
		acct, sum, err = accountRecord(tx, acct.ID, now, nil)
		return err
	})
	return acct, sum, err
}

// CancelAccount closes by's account: the final invoice, the charge of the whole balance to the
// default card (a conflict when it cannot be charged), the cancellation, every user's tokens
// revoked, and a confirmation e-mail to the billing address quoting comments — all in one
// transaction, so a failed charge cancels nothing.
func (s *Service) CancelAccount(by cloudstore.User, comments string) (cloudstore.Account, error) {
	now := s.clk.Now()
	var acct cloudstore.Account
	err := s.db.Write(func(tx kv.Tx) (err error) {
		if acct, err = cancelAccount(tx, by.AccountID, now); err != nil {
			return err
		}
		return outbox.Send(tx, &outbox.Mail{
			Time: now, API: "cloud", From: "billing@pocketforge.test", To: []string{acct.Email},
			Subject: "Your account has been cancelled",
			Body: fmt.Sprintf("Hello,\n\n%s cancelled account %s on %s UTC. Your final balance has been settled and every user has been logged out.\n\nYour comments:\n\n%s\n",
				by.Username, acct.Name, now.UTC().Format(cloudTime), comments),
		})
	})
	return acct, err
}

// cloudTime is the cloud's time layout: UTC, no zone, no fraction.
const cloudTime = "2006-01-02T15:04:05"
