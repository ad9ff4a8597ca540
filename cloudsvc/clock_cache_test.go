package cloudsvc

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestCachedAccountFollowsTheClock: the account record and the notifications kept between reads
// (clockCache) are, at every instant the clock is set to — forwards by a nanosecond, an hour, a
// month, and backwards — exactly what deriving them afresh gives: each started hour of an
// instance or database that is running, the month boundary, a promotion's expiry, a card coming
// close to and past its expiry, maintenance passing, a transfer expiring and a database leaving
// a transient status all show at once. A write shows at once too.
func TestCachedAccountFollowsTheClock(t *testing.T) {
	db := testdb.Open(t)
	oct := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	odd := func(d time.Time) time.Time {
		return d.Add(5*time.Hour + 17*time.Minute + 23*time.Second + 500*time.Millisecond)
	}
	instStart, moved := odd(oct.AddDate(0, 0, 2)), odd(time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC))
	dbCreated, dbUntil := odd(time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)).Add(11*time.Minute), time.Date(2026, 11, 30, 7, 3, 0, 0, time.UTC)
	promoEnds := time.Date(2026, 11, 30, 23, 59, 59, 0, time.UTC)
	maintenance := time.Date(2026, 11, 30, 9, 30, 0, 0, time.UTC)
	transferExpiry := time.Date(2026, 11, 30, 14, 45, 10, 0, time.UTC)
	cardEnd := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) // a card expiring 11/2026
	var acct, other cloudstore.Account
	var dbID uint64
	err := db.Write(func(tx kv.Tx) error {
		acct = cloudstore.Account{Name: "a", ActiveSince: oct, Contact: cloudstore.Contact{Country: "US", State: "PA"},
			Promotions: []cloudstore.Promotion{{Code: "P", MonthlyCapCents: 300, RemainingCents: 1000, CreditCents: 1000, Expires: promoEnds}}}
		other = cloudstore.Account{Name: "b", ActiveSince: oct}
		for _, a := range []*cloudstore.Account{&acct, &other} {
			if err := cloudstore.CreateAccount(tx, a); err != nil {
				return err
			}
		}
		kept := cloudstore.Instance{AccountID: acct.ID, Label: "kept", Type: "t", Region: "r", HourlyPrice: 0.015, MonthlyPrice: 10, BackupsEnabled: true,
			Created: instStart, Maintenance: []cloudstore.Maintenance{{Type: "reboot", Status: "pending", Reason: "host", When: maintenance}}}
		gone := cloudstore.Instance{AccountID: acct.ID, Label: "gone", Type: "t", Region: "r", HourlyPrice: 0.0075, MonthlyPrice: 5, Created: instStart.Add(-17 * time.Minute)}
		for _, in := range []*cloudstore.Instance{&kept, &gone} {
			if err := cloudstore.CreateInstance(tx, in); err != nil {
				return err
			}
		}
		if _, err := cloudstore.MoveInstance(tx, gone, other.ID, moved); err != nil {
			return err
		}
		d := cloudstore.Database{AccountID: acct.ID, Family: cloudstore.FamilySQL, Engine: "mysql", Label: "sql", ClusterSize: 1, Region: "r", Type: "t",
			HourlyPrice: 0.03, MonthlyPrice: 20, Created: dbCreated, Updated: dbCreated, Status: cloudstore.DBUpdating, Op: cloudstore.OpPatch,
			Next: cloudstore.DBActive, Until: dbUntil}
		if err := cloudstore.ImportDatabase(tx, &d, cloudstore.DatabaseSecrets{Password: "p"}); err != nil {
			return err
		}
		dbID = d.ID
		pm := cloudstore.PaymentMethod{AccountID: acct.ID, Type: "credit_card", Active: true, IsDefault: true, CardType: "Visa", LastFour: "4242", Expiry: "11/2026"}
		if err := cloudstore.CreatePaymentMethod(tx, &pm); err != nil {
			return err
		}
		tr := cloudstore.Transfer{Token: "0b1f6a34-5d3c-4e1b-9a0a-2f5c3e1d7b90", Kind: cloudstore.TransferService, From: acct.ID, Status: cloudstore.TransferPending,
			Created: transferExpiry.Add(-24 * time.Hour), Updated: transferExpiry.Add(-24 * time.Hour), Expiry: transferExpiry}
		if err := cloudstore.PutTransfer(tx, tr); err != nil {
			return err
		}
		return cloudstore.ListTransfer(tx, acct.ID, tr)
	})
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFixed(time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
	svc := New(db, clk, nil, Options{})
	owner := cloudstore.User{Username: "owner", AccountID: acct.ID}
	restricted := cloudstore.User{Username: "r", AccountID: acct.ID, Restricted: true}
	granted := cloudstore.User{Username: "g", AccountID: acct.ID, Restricted: true,
		Grants: &cloudstore.Grants{Entities: map[string]map[uint64]string{cloudstore.DatabaseGrantKind: {dbID: cloudstore.ReadOnly}}}}

	// Every instant something may flip at, a nanosecond either side, and random ones between.
	var marks []time.Time
	for _, s := range []time.Time{instStart, instStart.Add(-17 * time.Minute), moved, dbCreated} {
		for h := time.Duration(0); h < 80; h++ {
			if at := s.Add(h * time.Hour); at.After(clk.Now()) && at.Before(time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)) {
				marks = append(marks, at)
			}
		}
	}
	marks = append(marks, dbUntil, promoEnds, maintenance, transferExpiry, cardEnd, cardEnd.Add(-CardSoon), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	rnd := rand.New(rand.NewPCG(13, 13))
	var instants []time.Time
	for _, m := range marks {
		instants = append(instants, m.Add(-time.Nanosecond), m, m.Add(time.Nanosecond), m.Add(time.Duration(rnd.Int64N(int64(time.Hour)))))
	}
	slices.SortFunc(instants, func(a, b time.Time) int { return a.Compare(b) })
	for i := 0; i < 40; i++ { // and some jumps back
		j := rnd.IntN(len(instants))
		instants = slices.Insert(instants, j, instants[rnd.IntN(len(instants))])
	}

	check := func(now time.Time) {
		t.Helper()
		clk.Set(now)
		rec, err := svc.AccountRecord(acct.ID)
		if err != nil {
			t.Fatal(err)
		}
		gotAcct, gotSum := rec.Account, rec.Summary
		var wantAcct cloudstore.Account
		var wantSum cloudstore.BillingSummary
		var wantNotices []accountNotice
		db.View(func(tx kv.Tx) error {
			wantAcct, wantSum, err = accountRecord(tx, acct.ID, now, nil)
			if err == nil {
				wantNotices, err = accountNotices(tx, acct.ID, now, nil)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotAcct, wantAcct) || !reflect.DeepEqual(gotSum, wantSum) {
			t.Fatalf("at %s the cached record says %+v %+v, afresh %+v %+v", now, gotAcct, gotSum, wantAcct, wantSum)
		}
		for _, u := range []cloudstore.User{owner, restricted, granted} {
			got, err := svc.Notifications(u)
			if err != nil {
				t.Fatal(err)
			}
			want := []Notification{}
			for _, n := range wantNotices {
				if n.visibleTo(u) {
					if n.whenRead {
						n.When = &now
					}
					want = append(want, n.Notification)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("at %s %s's cached notifications are %+v, afresh %+v", now, u.Username, got, want)
			}
		}
	}
	seen := map[int64]bool{}
	for _, now := range instants {
		check(now)
		rec, _ := svc.AccountRecord(acct.ID)
		seen[rec.Summary.UninvoicedCents] = true
	}
	if len(seen) < 20 {
		t.Fatalf("the walk saw only %d different uninvoiced balances: it does not exercise the hours", len(seen))
	}
	// A write shows at the same instant.
	if err := db.Write(func(tx kv.Tx) error {
		a, err := cloudstore.GetAccount(tx, acct.ID)
		a.Contact.State = "NY"
		return errors.Join(err, cloudstore.PutAccount(tx, a))
	}); err != nil {
		t.Fatal(err)
	}
	check(clk.Now())
	if err := db.Write(func(tx kv.Tx) error {
		tr, err := cloudstore.GetTransfer(tx, "0b1f6a34-5d3c-4e1b-9a0a-2f5c3e1d7b90")
		tr.Status, tr.Expiry = cloudstore.TransferPending, clk.Now().Add(time.Hour)
		return errors.Join(err, cloudstore.PutTransfer(tx, tr))
	}); err != nil {
		t.Fatal(err)
	}
	check(clk.Now())
}
