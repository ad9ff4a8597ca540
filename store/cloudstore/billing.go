package cloudstore

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// Money is kept in integer cents everywhere (balances, payments, invoices, promo credit), so no
// sum ever drifts; only prices per hour are float dollars (Instance.HourlyPrice), rounded to the
// cent once per invoice item.

// FormatCents renders cents as dollars with two decimals ("12.05", "-0.50"): the string form of
// money the API shows (promotions) and the literal of its JSON numbers.
func FormatCents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// centsPattern is a plain dollar amount: digits, then at most two decimals. Nine integer digits
// at most, so that no amount overflows (and nothing near a billion dollars is ever plausible).
var centsPattern = regexp.MustCompile(`^(\d{1,9})(?:\.(\d{1,2}))?$`)

// ParseCents reads a plain dollar amount ("60", "60.5", "60.00") as cents; false when it is not
// one (signs, exponents, three decimals, letters).
func ParseCents(s string) (int64, bool) {
	m := centsPattern.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	whole, _ := strconv.ParseInt(m[1], 10, 64)
	frac := m[2]
	if len(frac) == 1 {
		frac += "0"
	}
	f, _ := strconv.ParseInt("0"+frac, 10, 64)
	return whole*100 + f, true
}

// roundDiv divides with rounding half away from zero (tax and proration).
func roundDiv(n, d int64) int64 {
	if n < 0 {
		return -((-n + d/2) / d)
	}
	return (n + d/2) / d
}

// taxRates is the sales tax the appliance charges, in hundredths of a percent, by US state.
// The reference shows only "PA STATE TAX" on a US invoice; the rule chosen here: US accounts in
// these states pay their state's base sales tax on every invoice item (credits included, so a
// promotion lowers the tax too); every other account — other US states, every other country
// (where VAT and GST would be reverse-charged) — pays no tax.
var taxRates = map[string]int64{"PA": 600, "NY": 400, "TX": 625, "WA": 650, "CA": 725}

// TaxRule returns the tax an account's address attracts: its name on invoices ("PA STATE TAX")
// and its rate in hundredths of a percent; rate 0 when none.
func TaxRule(c Contact) (name string, rate int64) {
	if !strings.EqualFold(c.Country, "US") {
		return "", 0
	}
	state := strings.ToUpper(c.State)
	if r, ok := taxRates[state]; ok {
		return state + " STATE TAX", r
	}
	return "", 0
}

// PastDueAfter is how long an invoice may stay unpaid: an invoice whose amount is still part of
// the balance this long after its date makes the account past due (blocking service transfers).
const PastDueAfter = 21 * 24 * time.Hour

// pastDueSince says since when the account is past due, or nil. Payments settle the oldest
// invoices first, so the unpaid part of the balance is made of the newest invoices: walking
// back from the newest, the invoice where their totals reach the balance is the oldest one not
// (fully) paid, and the account is past due from its date plus PastDueAfter. A balance that no
// invoice explains (set by hand) is never past due.
func pastDueSince(invoices []Invoice, balance int64, now time.Time) *time.Time {
	if balance <= 0 || len(invoices) == 0 {
		return nil
	}
	oldest := invoices[0]
	for i := len(invoices) - 1; i >= 0; i-- {
		balance -= invoices[i].TotalCents
		if balance <= 0 {
			oldest = invoices[i]
			break
		}
	}
	due := oldest.Date.Add(PastDueAfter)
	if now.Before(due) {
		return nil
	}
	return &due
}

// sameTime compares two optional times.
func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// refreshPastDue recomputes acct.PastDueSince from its invoices and balance at now; it reports
// whether it changed (the caller stores the account).
func refreshPastDue(tx *bbolt.Tx, acct *Account, now time.Time) (bool, error) {
	if acct.BalanceCents <= 0 && acct.PastDueSince == nil {
		return false, nil // the usual case, answered without reading invoices (the job asks every second)
	}
	invoices, err := AccountInvoices(tx, acct.ID)
	if err != nil {
		return false, err
	}
	since := pastDueSince(invoices, acct.BalanceCents, now)
	if sameTime(since, acct.PastDueSince) {
		return false, nil
	}
	acct.PastDueSince = since
	return true, nil
}

// ruleError is a broken billing rule the client is told word for word; it wraps the store
// sentinel that gives its HTTP status.
type ruleError struct {
	reason string
	kind   error
}

func (e ruleError) Error() string { return e.reason }
func (e ruleError) Unwrap() error { return e.kind }

// Billing rule errors a handler may meet.
var (
	// ErrCardDeclined means the card refused the charge (the declining test card). HTTP 400.
	ErrCardDeclined = error(ruleError{"Card declined", store.ErrInvalid})
	// ErrUncollectable means the balance cannot be charged to the card on file (none, expired or
	// declining): account cancellation answers 409. HTTP 409.
	ErrUncollectable = error(ruleError{"We were unable to charge your credit card for services rendered. We cannot cancel this account until the balance has been paid.", store.ErrConflict})
)
