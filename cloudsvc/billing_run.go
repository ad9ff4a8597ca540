package cloudsvc

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// The monthly billing cycle, driven by the clock (the "invoices" job, Service.BillingJob, calls
// billingDue every second and runBilling when it says so):
//
//   - On the first of each month at 00:00 UTC, every open account gets an invoice for the month
//     before (none when it used nothing). The first run invoices every month since the account
//     became active, so a fresh demo world has its history at once.
//   - The invoice total is added to the balance, and the whole positive balance is charged at
//     once to the default card (autopay), as the real service does. When it cannot be (no
//     card, expired, declining test card), the account's billing address gets an e-mail and
//     the balance stays.
//   - A balance still owed PastDueAfter (21 days) after the date of the oldest invoice it
//     contains makes the account past due (Account.PastDueSince); paying it clears that.
//   - Cancelled accounts are left alone: cancellation issues their final invoice.

// billingDue reports, reading only, whether runBilling has anything to do at now: an invoice
// due or a past-due mark to set or clear.
func billingDue(tx kv.Tx, now time.Time) (bool, error) {
	accts, err := cloudstore.Accounts(tx)
	if err != nil {
		return false, err
	}
	for _, acct := range accts {
		if acct.Cancelled != nil {
			continue
		}
		if firstDueMonth(acct, now).Before(monthOf(now)) {
			return true, nil
		}
		if changed, err := refreshPastDue(tx, &acct, now); err != nil || changed {
			return changed, err
		}
	}
	return false, nil
}

// runBilling brings every open account's billing up to date at now: invoices, autopay, the
// past-due mark. Running it again at the same instant changes nothing.
func runBilling(tx kv.Tx, now time.Time) error {
	accts, err := cloudstore.Accounts(tx)
	if err != nil {
		return err
	}
	for _, acct := range accts {
		if acct.Cancelled != nil {
			continue
		}
		if err := billAccount(tx, acct, now); err != nil {
			return fmt.Errorf("billing account %d: %w", acct.ID, err)
		}
	}
	return nil
}

// billAccount invoices every full month of acct not yet invoiced and refreshes its past-due
// mark, storing acct when anything changed.
func billAccount(tx kv.Tx, acct cloudstore.Account, now time.Time) error {
	changed, err := invoiceDueMonths(tx, &acct, now)
	if err != nil {
		return err
	}
	marked, err := refreshPastDue(tx, &acct, now)
	if err != nil || !changed && !marked {
		return err
	}
	return cloudstore.PutAccount(tx, acct)
}

// invoiceDueMonths issues the invoices of every full month since firstDueMonth, each followed
// by its autopay; it reports whether acct changed.
func invoiceDueMonths(tx kv.Tx, acct *cloudstore.Account, now time.Time) (bool, error) {
	changed := false
	for m := firstDueMonth(*acct, now); m.Before(monthOf(now)); m = m.AddDate(0, 1, 0) {
		next := m.AddDate(0, 1, 0)
		inv, err := issueInvoice(tx, acct, m, next, next)
		if err != nil {
			return changed, err
		}
		if inv != nil {
			if err := autopay(tx, acct, *inv); err != nil {
				return changed, err
			}
		}
		acct.LastInvoiced, changed = m, true
	}
	return changed, nil
}

// autopay charges acct's whole positive balance to its default card on the invoice's date; when
// that fails, it mails the account's billing address instead.
func autopay(tx kv.Tx, acct *cloudstore.Account, inv cloudstore.Invoice) error {
	if acct.BalanceCents <= 0 {
		return nil
	}
	amount := acct.BalanceCents
	pm, ok, err := cloudstore.DefaultPaymentMethod(tx, acct.ID)
	if err != nil {
		return err
	}
	problem := "there is no payment method on file"
	if ok {
		_, err := charge(pm, inv.Date)
		if err == nil {
			_, err := recordPayment(tx, acct, pm.ID, amount, inv.Date, true)
			return err
		}
		problem = fmt.Sprintf("your %s ending in %s was refused (%s)", pm.CardType, pm.LastFour, err)
	}
	return outbox.Send(tx, &outbox.Mail{
		Time: inv.Date, API: "cloud", From: "billing@pocketforge.test", To: []string{acct.Email},
		Subject: fmt.Sprintf("We could not charge you for invoice #%d", inv.ID),
		Body: fmt.Sprintf("Hello,\n\ninvoice #%d of $%s was issued today, but we could not collect your balance of $%s: %s.\n\n"+
			"Please add a payment method or make a payment. A balance still unpaid %d days after its invoice makes the account past due.\n",
			inv.ID, cloudstore.FormatCents(inv.TotalCents), cloudstore.FormatCents(amount), problem, int(PastDueAfter/(24*time.Hour))),
	})
}
