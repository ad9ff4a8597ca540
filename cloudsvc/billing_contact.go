package cloudsvc

import (
	"fmt"
	"net/mail"
	"regexp"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

var (
	countryPattern = regexp.MustCompile(`^[A-Za-z]{2}$`)
	usZipPattern   = regexp.MustCompile(`^[0-9]{5}(-[0-9]{4})?$`)
	zipPattern     = regexp.MustCompile(`^[A-Za-z0-9 -]*$`)
	statePattern   = regexp.MustCompile(`^[A-Za-z]{2}$`)
)

// updateContact applies a PUT /account to acct: the billing e-mail and the contact fields, each
// within the reference's length; country an ISO 3166-1 alpha-2 code (stored upper-case); zip
// letters, digits, spaces and hyphens with at most 9 letters and digits — and, for a US address,
// a valid US zip (12345 or 12345-6789); state a 2-letter code for US and Canadian addresses. The
// zip and state rules are checked on the record as it would become, whenever country, zip or
// state is sent. Every problem is reported at once; nothing changes unless all are fixed.
func updateContact(acct cloudstore.Account, up cloudstore.ContactUpdate) (cloudstore.Account, error) {
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
		checkEmail(&p, *up.Email)
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
// letters and digits. Adding a card checks it too, since the card's billing address is this one.
func zipProblem(c cloudstore.Contact) string {
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

// checkEmail adds the problem of a proposed e-mail address: a user's and the account's billing
// address follow the same rule.
func checkEmail(p *store.Problems, email string) {
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || len(email) > 128 || !strings.Contains(email[strings.LastIndexByte(email, '@'):], ".") {
		p.Add("email", "Must be a valid email address")
	}
}
