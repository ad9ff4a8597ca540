package cloudsvc

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
)

// TestRunBilling runs the cycle for accounts the demo world lacks: one without a card (its
// invoice cannot be autopaid: a mail, then past due), one never active (nothing due), one
// cancelled (left alone); billingDue agrees with what runBilling does.
func TestRunBilling(t *testing.T) {
	db := testdb.Open(t)
	aug := time.Date(2026, 8, 15, 0, 0, 0, 0, time.UTC)
	now := time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC)
	var owing, cancelled cloudstore.Account
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.Write(func(tx kv.Tx) error {
		owing = cloudstore.Account{Name: "owing", Email: "o@example.com", ActiveSince: aug}
		cancelled = cloudstore.Account{Name: "gone", ActiveSince: aug, Cancelled: &aug}
		never := cloudstore.Account{Name: "never"}
		for _, a := range []*cloudstore.Account{&owing, &cancelled, &never} {
			must(cloudstore.CreateAccount(tx, a))
			in := cloudstore.Instance{AccountID: a.ID, Label: a.Name, HourlyPrice: 0.01, MonthlyPrice: 5, Created: aug}
			must(cloudstore.CreateInstance(tx, &in))
		}
		return nil
	}))
	due := func(at time.Time) bool {
		var d bool
		must(db.View(func(tx kv.Tx) (err error) { d, err = billingDue(tx, at); return err }))
		return d
	}
	if !due(now) {
		t.Fatal("August and September should be due")
	}
	must(db.Write(func(tx kv.Tx) error { return runBilling(tx, now) }))
	if due(now) {
		t.Fatal("still due after a run")
	}
	must(db.View(func(tx kv.Tx) error {
		a, _ := cloudstore.GetAccount(tx, owing.ID)
		invs, _ := cloudstore.AccountInvoices(tx, owing.ID)
		// August: 17 days = 408 h × $0.01 = $4.08; September: 720 h, capped at $5.00.
		if len(invs) != 2 || invs[0].TotalCents != 408 || invs[1].TotalCents != 500 || a.BalanceCents != 908 || a.PastDueSince == nil {
			t.Errorf("owing: %+v, invoices %+v", a, invs)
		}
		if !a.PastDueSince.Equal(invs[0].Date.Add(PastDueAfter)) {
			t.Errorf("past due since %v", a.PastDueSince)
		}
		mails, _ := outbox.List(tx, "o@example.com", 0)
		if len(mails) != 2 || !strings.Contains(mails[0].Body, "no payment method on file") {
			t.Errorf("mails: %+v", mails)
		}
		if invs, _ := cloudstore.AccountInvoices(tx, cancelled.ID); len(invs) != 0 {
			t.Errorf("a cancelled account was invoiced: %+v", invs)
		}
		return nil
	}))
	// Without a card, an account that owes cannot be cancelled; once it owes nothing (its
	// instance gone, its balance settled), it can.
	err := db.Write(func(tx kv.Tx) error { _, err := cancelAccount(tx, owing.ID, now); return err })
	if !errors.Is(err, ErrUncollectable) || !errors.Is(err, store.ErrConflict) {
		t.Fatalf("cancel without a card: %v", err)
	}
	must(db.Write(func(tx kv.Tx) error {
		in, err := cloudstore.GetInstance(tx, 1)
		if err != nil {
			return err
		}
		in.Owners[0].AccountID = 999 // never the account's: nothing to bill
		if err := cloudstore.PutInstance(tx, in); err != nil {
			return err
		}
		a, err := cloudstore.GetAccount(tx, owing.ID)
		a.BalanceCents = 0
		if err == nil {
			err = cloudstore.PutAccount(tx, a)
		}
		return err
	}))
	must(db.Write(func(tx kv.Tx) error {
		a, err := cancelAccount(tx, owing.ID, now)
		if err == nil && (a.Cancelled == nil || a.PastDueSince != nil) {
			t.Errorf("cancelled: %+v", a)
		}
		return err
	}))
}
