package cloudstore

// ContactUpdate holds the fields a PUT /account sent (the input of cloudsvc's UpdateContact);
// nil fields stay unchanged.
type ContactUpdate struct {
	Email, Address1, Address2, City, Company, Country, FirstName, LastName, Phone, State, TaxID, Zip *string
}

// BillingSummary is what the account record shows of an account's money at some instant (cloudsvc
// computes it).
type BillingSummary struct {
	// UninvoicedCents is what the next invoice would add so far.
	UninvoicedCents int64
	// Promotions are the active promotions; UsedMonthCents is the credit this month's usage has
	// taken so far.
	Promotions []Promotion
	// Card is the default payment method, nil when none.
	Card *PaymentMethod
}

// ThisMonthCreditRemaining is the credit a promotion can still give this month.
func (p Promotion) ThisMonthCreditRemaining() int64 {
	return max(0, min(p.MonthlyCapCents, p.RemainingCents)-p.UsedMonthCents)
}
