package cloudstore

import (
	"fmt"
	"regexp"
	"strconv"
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
