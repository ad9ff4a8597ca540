package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// cancelAccount closes an account at now: it issues every invoice due and a final one for the
// current month so far, charges the whole positive balance to the default card, marks the
// account cancelled and logs every one of its users out (all their tokens are revoked).
// ErrUncollectable when the balance cannot be charged (no default card, expired or declining);
// then nothing changes.
func cancelAccount(tx kv.Tx, account uint64, now time.Time) (cloudstore.Account, error) {
	acct, err := cloudstore.GetAccount(tx, account)
	if err != nil {
		return acct, err
	}
	if acct.Cancelled != nil {
		return acct, fault.Conflict("", "This account is already cancelled")
	}
	if _, err := invoiceDueMonths(tx, &acct, now); err != nil {
		return acct, err
	}
	if _, err := issueInvoice(tx, &acct, monthOf(now), now, now); err != nil {
		return acct, err
	}
	if acct.BalanceCents > 0 {
		pm, ok, err := cloudstore.DefaultPaymentMethod(tx, acct.ID)
		if err != nil {
			return acct, err
		}
		if !ok {
			return acct, ErrUncollectable
		}
		if _, err := charge(pm, now); err != nil {
			return acct, ErrUncollectable
		}
		if _, err := recordPayment(tx, &acct, pm.ID, acct.BalanceCents, now, true); err != nil {
			return acct, err
		}
	}
	acct.Cancelled, acct.PastDueSince = &now, nil
	if err := cloudstore.PutAccount(tx, acct); err != nil {
		return acct, err
	}
	users, err := cloudstore.AccountUsers(tx, acct.ID)
	for _, u := range users {
		if err == nil {
			err = cloudstore.RevokeUserTokens(tx, u.Username)
		}
	}
	return acct, err
}

// ErrUncollectable means the balance cannot be charged to the card on file (none, expired or
// declining): account cancellation answers 409.
var ErrUncollectable = fault.Conflict("", "We were unable to charge your credit card for services rendered. We cannot cancel this account until the balance has been paid.")
