package cloudsvc

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

var (
	digitsPattern = regexp.MustCompile(`^[0-9]+$`)
	cvvPattern    = regexp.MustCompile(`^[0-9]{3,4}$`)
)

// checkCard adds the problems of a submitted card at now: the number is 14 to 24 digits and
// passes the Luhn check, the month is 1–12, the year has four digits, the card has not expired
// (its month is this month or later) and the cvv is 3 or 4 digits. prefix goes before each
// field name ("data.").
func checkCard(p *store.Problems, prefix string, c cloudstore.Card, now time.Time) {
	switch n := c.Number; {
	case !digitsPattern.MatchString(n):
		p.Add(prefix+"card_number", "Card number must contain only digits")
	case len(n) < 14 || len(n) > 24:
		p.Add(prefix+"card_number", "Card number must be between 14 and 24 digits")
	case !luhn(n):
		p.Add(prefix+"card_number", "Card number is not valid")
	}
	monthOK := c.ExpiryMonth >= 1 && c.ExpiryMonth <= 12
	if !monthOK {
		p.Add(prefix+"expiry_month", "Expiry month must be between 1 and 12")
	}
	yearOK := c.ExpiryYear >= 1000 && c.ExpiryYear <= 9999
	if !yearOK {
		p.Add(prefix+"expiry_year", "Expiry year must be 4 digits")
	}
	if monthOK && yearOK && expiredAt(c.ExpiryMonth, c.ExpiryYear, now) {
		p.Add(prefix+"expiry_year", "Card is expired")
	}
	if !cvvPattern.MatchString(c.CVV) {
		p.Add(prefix+"cvv", "CVV must be 3 or 4 digits")
	}
}

// checkCVV adds the problem of a cvv sent with a payment (optional there; when sent, 3–4 digits).
func checkCVV(p *store.Problems, cvv *string) {
	if cvv != nil && !cvvPattern.MatchString(*cvv) {
		p.Add("cvv", "CVV must be 3 or 4 digits")
	}
}

// expiredAt reports whether a card valid through month/year has expired at now (it works until
// the end of its month).
func expiredAt(month, year int, now time.Time) bool {
	now = now.UTC()
	return year < now.Year() || year == now.Year() && month < int(now.Month())
}

// luhn is the card-number checksum.
func luhn(n string) bool {
	sum, double := 0, false
	for i := len(n) - 1; i >= 0; i-- {
		d := int(n[i] - '0')
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// cardType names the card network from the number's issuer prefix; "Unknown" when none matches.
func cardType(n string) string {
	p := func(k int) int {
		v := 0
		for i := 0; i < k && i < len(n); i++ {
			v = v*10 + int(n[i]-'0')
		}
		return v
	}
	switch {
	case strings.HasPrefix(n, "4"):
		return "Visa"
	case p(2) >= 51 && p(2) <= 55, p(4) >= 2221 && p(4) <= 2720:
		return "MasterCard"
	case p(2) == 34, p(2) == 37:
		return "American Express"
	case p(4) == 6011, p(3) >= 644 && p(3) <= 649, p(2) == 65:
		return "Discover"
	case p(4) >= 3528 && p(4) <= 3589:
		return "JCB"
	case p(3) >= 300 && p(3) <= 305, p(2) == 36, p(2) == 38, p(2) == 39:
		return "Diners Club"
	}
	return "Unknown"
}

// methodExpired reports whether the method's card has expired at now.
func methodExpired(pm cloudstore.PaymentMethod, now time.Time) bool {
	var month, year int
	if _, err := fmt.Sscanf(pm.Expiry, "%d/%d", &month, &year); err != nil {
		return true
	}
	return expiredAt(month, year, now)
}

// The documented test cards. No money moves anywhere: every card is charged successfully,
// except these two (any valid expiry and cvv; only the type and last four are kept, so the
// behaviour is keyed on them):
//
//	4000 0000 0000 0002 (Visa ending 0002): always declined — payments answer 400 "Card
//	    declined", account cancellation 409, monthly autopay fails (the invoice stays unpaid).
//	4000 0000 0000 3220 (Visa ending 3220): needs additional verification — payments answer
//	    202 with a warning; the payment is recorded and the balance lowered at once.
var (
	declineCard = [2]string{"Visa", "0002"}
	verifyCard  = [2]string{"Visa", "3220"}
)

// VerificationWarning is the warning of a payment that needs additional verification.
const VerificationWarning = "Payment requires additional verification; it will complete shortly."

// charge charges the method at now: an error when it is expired or declines, a warning when the
// payment needs verification.
func charge(pm cloudstore.PaymentMethod, now time.Time) (warning string, err error) {
	card := [2]string{pm.CardType, pm.LastFour}
	switch {
	case methodExpired(pm, now):
		return "", fault.Invalid("", "The payment method has expired")
	case card == declineCard:
		return "", ErrCardDeclined
	case card == verifyCard:
		return VerificationWarning, nil
	}
	return "", nil
}

// ErrCardDeclined means the card refused the charge (the declining test card). HTTP 400.
var ErrCardDeclined = fault.Invalid("", "Card declined")
