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
)

// TestRoundDiv: tax and proration round half away from zero.
func TestRoundDiv(t *testing.T) {
	for _, c := range []struct{ n, d, want int64 }{{5, 10, 1}, {4, 10, 0}, {-5, 10, -1}, {-4, 10, 0}, {90720, 10000, 9}} {
		if got := roundDiv(c.n, c.d); got != c.want {
			t.Errorf("roundDiv(%d, %d) = %d, want %d", c.n, c.d, got, c.want)
		}
	}
}

func TestCards(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	types := map[string]string{
		"4242424242424242": "Visa", "5555555555554444": "MasterCard", "2223003122003222": "MasterCard", "378282246310005": "American Express",
		"6011111111111117": "Discover", "6500000000000002": "Discover", "3530111333300000": "JCB", "30569309025904": "Diners Club",
		"36227206271667": "Diners Club", "9999999999999995": "Unknown",
	}
	for n, want := range types {
		if got := cardType(n); got != want || !luhn(n) {
			t.Errorf("%s: %s (luhn %v), want %s", n, got, luhn(n), want)
		}
	}
	cases := []struct {
		name   string
		card   cloudstore.Card
		fields string
	}{
		{"good", cloudstore.Card{Number: "4242424242424242", ExpiryMonth: 12, ExpiryYear: 2028, CVV: "123"}, ""},
		{"this month", cloudstore.Card{Number: "4242424242424242", ExpiryMonth: 11, ExpiryYear: 2026, CVV: "1234"}, ""},
		{"last month", cloudstore.Card{Number: "4242424242424242", ExpiryMonth: 10, ExpiryYear: 2026, CVV: "123"}, "expiry_year"},
		{"last year", cloudstore.Card{Number: "4242424242424242", ExpiryMonth: 12, ExpiryYear: 2025, CVV: "123"}, "expiry_year"},
		{"Luhn", cloudstore.Card{Number: "4242424242424241", ExpiryMonth: 12, ExpiryYear: 2028, CVV: "123"}, "card_number"},
		{"13 digits", cloudstore.Card{Number: "4222222222222", ExpiryMonth: 12, ExpiryYear: 2028, CVV: "123"}, "card_number"},
		{"25 digits", cloudstore.Card{Number: strings.Repeat("0", 25), ExpiryMonth: 12, ExpiryYear: 2028, CVV: "123"}, "card_number"},
		{"spaces", cloudstore.Card{Number: "4242 4242 4242 4242", ExpiryMonth: 12, ExpiryYear: 2028, CVV: "123"}, "card_number"},
		{"month 0", cloudstore.Card{Number: "4242424242424242", ExpiryMonth: 0, ExpiryYear: 2028, CVV: "123"}, "expiry_month"},
		{"year 99999", cloudstore.Card{Number: "4242424242424242", ExpiryMonth: 1, ExpiryYear: 99999, CVV: "123"}, "expiry_year"},
		{"cvv 5 digits", cloudstore.Card{Number: "4242424242424242", ExpiryMonth: 1, ExpiryYear: 2030, CVV: "12345"}, "cvv"},
		{"all", cloudstore.Card{Number: "", ExpiryMonth: 13, ExpiryYear: 1, CVV: ""}, "card_number expiry_month expiry_year cvv"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p store.Problems
			checkCard(&p, "", c.card, now)
			var fields []string
			for _, x := range p {
				fields = append(fields, x.Field)
			}
			if strings.Join(fields, " ") != c.fields {
				t.Fatalf("problems %v, want fields %q", p, c.fields)
			}
		})
	}
}

func TestTestCardsAndLimits(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	charges := []struct {
		name    string
		pm      cloudstore.PaymentMethod
		warning bool
		err     error
	}{
		{"ordinary", cloudstore.PaymentMethod{CardType: "Visa", LastFour: "4242", Expiry: "12/2028"}, false, nil},
		{"declining", cloudstore.PaymentMethod{CardType: "Visa", LastFour: "0002", Expiry: "12/2028"}, false, ErrCardDeclined},
		{"verification", cloudstore.PaymentMethod{CardType: "Visa", LastFour: "3220", Expiry: "12/2028"}, true, nil},
		{"same last four, other network", cloudstore.PaymentMethod{CardType: "MasterCard", LastFour: "0002", Expiry: "12/2028"}, false, nil},
		{"expired", cloudstore.PaymentMethod{CardType: "Visa", LastFour: "4242", Expiry: "10/2026"}, false, store.ErrInvalid},
		{"expiring this month", cloudstore.PaymentMethod{CardType: "Visa", LastFour: "4242", Expiry: "11/2026"}, false, nil},
	}
	for _, c := range charges {
		t.Run(c.name, func(t *testing.T) {
			w, err := charge(c.pm, now)
			if (w != "") != c.warning || !errors.Is(err, c.err) && err != c.err {
				t.Fatalf("charge: %q, %v", w, err)
			}
		})
	}
	amounts := []struct {
		name           string
		cents, balance int64
		ok             bool
	}{
		{"minimum", 500, 0, true}, {"below minimum", 499, 0, false}, {"zero", 0, 0, false}, {"below minimum, balance lower", 200, 200, true},
		{"below a lower balance", 100, 200, false}, {"maximum", 200000, 0, true}, {"above maximum", 200001, 0, false},
		{"the balance above the maximum", 300000, 300000, true}, {"above the balance", 300001, 300000, false},
		{"the balance cap", 5000000, 9000000, true}, {"above the balance cap", 5000001, 9000000, false},
	}
	for _, c := range amounts {
		t.Run(c.name, func(t *testing.T) {
			var p store.Problems
			checkAmount(&p, c.cents, c.balance)
			if (len(p) == 0) != c.ok {
				t.Fatalf("checkAmount(%d, %d): %v", c.cents, c.balance, p)
			}
		})
	}
}

func TestPastDue(t *testing.T) {
	oct, nov, dec := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	invs := []cloudstore.Invoice{{Date: oct, TotalCents: 1000}, {Date: nov, TotalCents: 2000}, {Date: dec, TotalCents: 3000}}
	cases := []struct {
		name    string
		balance int64
		now     time.Time
		want    time.Time // zero: not past due
	}{
		{"nothing owed", 0, dec.AddDate(1, 0, 0), time.Time{}},
		{"credit", -500, dec.AddDate(1, 0, 0), time.Time{}},
		{"newest unpaid, not yet due", 3000, dec.Add(PastDueAfter - time.Second), time.Time{}},
		{"newest unpaid, due", 3000, dec.Add(PastDueAfter), dec.Add(PastDueAfter)},
		{"part of November unpaid", 3500, dec.Add(time.Hour), nov.Add(PastDueAfter)},
		{"everything unpaid", 6000, dec, oct.Add(PastDueAfter)},
		{"more than every invoice", 9000, dec, oct.Add(PastDueAfter)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := pastDueSince(invs, c.balance, c.now)
			if c.want.IsZero() != (got == nil) || got != nil && !got.Equal(c.want) {
				t.Fatalf("pastDueSince = %v, want %v", got, c.want)
			}
		})
	}
	if pastDueSince(nil, 100, dec) != nil {
		t.Fatal("a balance without invoices is never past due")
	}
}

func TestUpdateContact(t *testing.T) {
	us := cloudstore.Account{Email: "a@example.com", Contact: cloudstore.Contact{Country: "US", State: "PA", Zip: "19102"}}
	s := func(v string) *string { return &v }
	cases := []struct {
		name   string
		acct   cloudstore.Account
		up     cloudstore.ContactUpdate
		fields string
	}{
		{"nothing", us, cloudstore.ContactUpdate{}, ""},
		{"zip+4", us, cloudstore.ContactUpdate{Zip: s("19102-1234")}, ""},
		{"letters in a US zip", us, cloudstore.ContactUpdate{Zip: s("1910A")}, "zip"},
		{"zip+3", us, cloudstore.ContactUpdate{Zip: s("19102-123")}, "zip"},
		{"country alone checks the stored zip", cloudstore.Account{Contact: cloudstore.Contact{Country: "GB", Zip: "EC1A 1BB"}}, cloudstore.ContactUpdate{Country: s("US")}, "zip"},
		{"a foreign zip", cloudstore.Account{Contact: cloudstore.Contact{Country: "GB"}}, cloudstore.ContactUpdate{Zip: s("EC1A 1BB")}, ""},
		{"a foreign zip with symbols", cloudstore.Account{Contact: cloudstore.Contact{Country: "GB"}}, cloudstore.ContactUpdate{Zip: s("EC1A/1BB")}, "zip"},
		{"three-letter country", us, cloudstore.ContactUpdate{Country: s("DEU")}, "country"},
		{"empty country", us, cloudstore.ContactUpdate{Country: s("")}, "country"},
		{"long state", us, cloudstore.ContactUpdate{State: s("Pennsylvania")}, "state"},
		{"a foreign state name", cloudstore.Account{Contact: cloudstore.Contact{Country: "DE"}}, cloudstore.ContactUpdate{State: s("Berlin")}, ""},
		{"lengths", us, cloudstore.ContactUpdate{City: s(strings.Repeat("c", 25)), TaxID: s(strings.Repeat("t", 26)), Phone: s(strings.Repeat("1", 32))}, "city tax_id"},
		{"email", us, cloudstore.ContactUpdate{Email: s("not an email")}, "email"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := updateContact(c.acct, c.up)
			var p store.Problems
			errors.As(err, &p)
			var fields []string
			for _, x := range p {
				fields = append(fields, x.Field)
			}
			if strings.Join(fields, " ") != c.fields {
				t.Fatalf("problems %v, want fields %q", p, c.fields)
			}
		})
	}
	got, err := updateContact(us, cloudstore.ContactUpdate{Country: s("de"), Zip: s("10115"), State: s("")})
	if err != nil || got.Country != "DE" || got.Email != "a@example.com" {
		t.Fatalf("moving abroad: %+v %v", got, err)
	}
}

// TestUsageFollowsOwnership moves an instance between accounts mid-month: each is billed for
// its own stretch, every started hour counting, and the monthly cap applies per stretch.
func TestUsageFollowsOwnership(t *testing.T) {
	db := testdb.Open(t)
	oct := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	nov := oct.AddDate(0, 1, 0)
	moved := oct.Add(10*24*time.Hour + 90*time.Minute)
	err := db.Write(func(tx kv.Tx) error {
		a, b := &cloudstore.Account{Name: "a", ActiveSince: oct}, &cloudstore.Account{Name: "b", ActiveSince: oct}
		if err := cloudstore.CreateAccount(tx, a); err != nil {
			return err
		}
		if err := cloudstore.CreateAccount(tx, b); err != nil {
			return err
		}
		in := cloudstore.Instance{AccountID: a.ID, Label: "x", Type: "t", Region: "r", HourlyPrice: 0.01, MonthlyPrice: 5, BackupsEnabled: true, Created: oct.AddDate(0, -1, 0)}
		if err := cloudstore.CreateInstance(tx, &in); err != nil {
			return err
		}
		if _, err := cloudstore.MoveInstance(tx, in, b.ID, moved); err != nil {
			return err
		}
		itemsA, _ := usageItems(tx, a.ID, oct, nov)
		itemsB, _ := usageItems(tx, b.ID, oct, nov)
		// a: 10 days 1.5 h = 242 started hours → $2.42, backups 242 × $0.003 = $0.73;
		// b: the remaining 502.5 → 503 started hours → $5.03, capped at $5.00; backups $1.51.
		if len(itemsA) != 2 || itemsA[0].Quantity != 242 || itemsA[0].AmountCents != 242 || itemsA[1].AmountCents != 73 || !itemsA[0].To.Equal(moved.Add(-time.Second)) {
			t.Errorf("a's items: %+v", itemsA)
		}
		if len(itemsB) != 2 || itemsB[0].Quantity != 503 || itemsB[0].AmountCents != 500 || itemsB[1].AmountCents != 151 || !itemsB[0].From.Equal(moved) {
			t.Errorf("b's items: %+v", itemsB)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestPromotionCredit(t *testing.T) {
	nov := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	acct := cloudstore.Account{Promotions: []cloudstore.Promotion{
		{Code: "A", MonthlyCapCents: 1000, RemainingCents: 1500, Expires: nov.AddDate(0, 2, 0).Add(-time.Second)},
		{Code: "OLD", MonthlyCapCents: 1000, RemainingCents: 1000, Expires: nov.Add(-time.Second)},
	}}
	orig := acct.Promotions
	items := applyPromotions(&acct, 3000, nov, nov.AddDate(0, 1, 0))
	if len(items) != 1 || items[0].AmountCents != -1000 || acct.Promotions[0].RemainingCents != 500 || orig[0].RemainingCents != 1500 {
		t.Fatalf("first month: %+v, %+v (stored copy %+v)", items, acct.Promotions, orig)
	}
	items = applyPromotions(&acct, 300, nov.AddDate(0, 1, 0), nov.AddDate(0, 2, 0))
	if len(items) != 1 || items[0].AmountCents != -300 || acct.Promotions[0].RemainingCents != 200 {
		t.Fatalf("small usage: %+v, %+v", items, acct.Promotions)
	}
	if items = applyPromotions(&acct, 3000, nov.AddDate(0, 2, 0), nov.AddDate(0, 3, 0)); len(items) != 0 {
		t.Fatalf("after expiry: %+v", items)
	}
}
