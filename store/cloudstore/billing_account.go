package cloudstore

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// ContactUpdate holds the fields a PUT /account sent; nil fields stay unchanged.
type ContactUpdate struct {
	Email, Address1, Address2, City, Company, Country, FirstName, LastName, Phone, State, TaxID, Zip *string
}

var (
	countryPattern = regexp.MustCompile(`^[A-Za-z]{2}$`)
	usZipPattern   = regexp.MustCompile(`^[0-9]{5}(-[0-9]{4})?$`)
	zipPattern     = regexp.MustCompile(`^[A-Za-z0-9 -]*$`)
	statePattern   = regexp.MustCompile(`^[A-Za-z]{2}$`)
)

// UpdateContact applies a PUT /account to acct: the billing e-mail and the contact fields, each
// within the reference's length; country an ISO 3166-1 alpha-2 code (stored upper-case); zip
// letters, digits, spaces and hyphens with at most 9 letters and digits — and, for a US address,
// a valid US zip (12345 or 12345-6789); state a 2-letter code for US and Canadian addresses. The
// zip and state rules are checked on the record as it would become, whenever country, zip or
// state is sent. Every problem is reported at once; nothing changes unless all are fixed.
func UpdateContact(acct Account, up ContactUpdate) (Account, error) {
	var p store.Problems
	c := &acct.Contact
	fields := []struct {
		name string
		in   *string
		dst  *string
		max  int
	}{
		{"address_1", up.Address1, &c.Address1, 64}, {"address_2", up.Address2, &c.Address2, 64},
		{"city", up.City, &c.City, 24}, {"company", up.Company, &c.Company, 128},
		{"first_name", up.FirstName, &c.FirstName, 50}, {"last_name", up.LastName, &c.LastName, 50},
		{"phone", up.Phone, &c.Phone, 32}, {"state", up.State, &c.State, 24}, {"tax_id", up.TaxID, &c.TaxID, 25},
		{"zip", up.Zip, &c.Zip, 16}, {"country", up.Country, &c.Country, 64},
	}
	for _, f := range fields {
		if f.in == nil {
			continue
		}
		if n := len([]rune(*f.in)); n > f.max {
			p.Add(f.name, fmt.Sprintf("Must be %d characters or fewer", f.max))
		}
		*f.dst = *f.in
	}
	if up.Email != nil {
		CheckEmail(&p, *up.Email)
		acct.Email = *up.Email
	}
	if up.Country != nil && !countryPattern.MatchString(*up.Country) {
		p.Add("country", "Must be a 2-letter ISO 3166-1 country code")
	}
	c.Country = strings.ToUpper(c.Country)
	if up.Country != nil || up.Zip != nil || up.State != nil {
		if reason := zipProblem(*c); reason != "" {
			p.Add("zip", reason)
		}
		if (c.Country == "US" || c.Country == "CA") && c.State != "" && !statePattern.MatchString(c.State) {
			p.Add("state", "Must be a 2-letter state or province code")
		}
	}
	return acct, p.Err()
}

// zipProblem says what is wrong with an address's zip ("" when nothing): a US address needs a
// valid US zip; any other may have none, or letters, digits, spaces and hyphens with at most 9
// letters and digits.
func zipProblem(c Contact) string {
	if strings.EqualFold(c.Country, "US") {
		if !usZipPattern.MatchString(c.Zip) {
			return "Must be a valid US zip code, like 19102 or 19102-1234"
		}
		return ""
	}
	alnum := 0
	for _, r := range c.Zip {
		if r != ' ' && r != '-' {
			alnum++
		}
	}
	if !zipPattern.MatchString(c.Zip) || alnum > 9 {
		return "Must contain only letters, digits, spaces and hyphens, with at most 9 letters and digits"
	}
	return ""
}

// BillingSummary is what the account record shows of an account's money at some instant.
type BillingSummary struct {
	// UninvoicedCents is what the next invoice would add so far (see UninvoicedUsage).
	UninvoicedCents int64
	// Promotions are the active promotions; UsedMonthCents is the credit this month's usage has
	// taken so far.
	Promotions []Promotion
	// Card is the default payment method, nil when none.
	Card *PaymentMethod
}

// AccountBillingSummary gathers acct's uninvoiced usage, active promotions and default card.
func AccountBillingSummary(tx *bbolt.Tx, acct Account, now time.Time) (BillingSummary, error) {
	var s BillingSummary
	un, err := UninvoicedUsage(tx, acct, now)
	if err != nil {
		return s, err
	}
	s.UninvoicedCents = un.TotalCents
	for i, pr := range acct.Promotions {
		if pr.Active(now) {
			pr.UsedMonthCents = un.Promotions[i].UsedMonthCents
			s.Promotions = append(s.Promotions, pr)
		}
	}
	pm, ok, err := DefaultPaymentMethod(tx, acct.ID)
	if ok {
		s.Card = &pm
	}
	return s, err
}

// ThisMonthCreditRemaining is the credit a promotion can still give this month.
func (p Promotion) ThisMonthCreditRemaining() int64 {
	return max(0, min(p.MonthlyCapCents, p.RemainingCents)-p.UsedMonthCents)
}

// CancelAccount closes an account at now: it issues every invoice due and a final one for the
// current month so far, charges the whole positive balance to the default card, marks the
// account cancelled and logs every one of its users out (all their tokens are revoked).
// ErrUncollectable when the balance cannot be charged (no default card, expired or declining);
// then nothing changes.
func CancelAccount(tx *bbolt.Tx, account uint64, now time.Time) (Account, error) {
	acct, err := GetAccount(tx, account)
	if err != nil {
		return acct, err
	}
	if acct.Cancelled != nil {
		return acct, ruleError{"This account is already cancelled", store.ErrConflict}
	}
	if _, err := invoiceDueMonths(tx, &acct, now); err != nil {
		return acct, err
	}
	if _, err := issueInvoice(tx, &acct, monthOf(now), now, now); err != nil {
		return acct, err
	}
	if acct.BalanceCents > 0 {
		pm, ok, err := DefaultPaymentMethod(tx, acct.ID)
		if err != nil {
			return acct, err
		}
		if !ok {
			return acct, ErrUncollectable
		}
		if _, err := pm.charge(now); err != nil {
			return acct, ErrUncollectable
		}
		if _, err := recordPayment(tx, &acct, pm.ID, acct.BalanceCents, now, true); err != nil {
			return acct, err
		}
	}
	acct.Cancelled, acct.PastDueSince = &now, nil
	if err := PutAccount(tx, acct); err != nil {
		return acct, err
	}
	users, err := AccountUsers(tx, acct.ID)
	for _, u := range users {
		if err == nil {
			err = RevokeUserTokens(tx, u.Username)
		}
	}
	return acct, err
}
