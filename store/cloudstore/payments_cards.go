package cloudstore

// Card is a credit card as a client submits it (the seed's CreditCard), the input cloudsvc checks. The full number and the
// cvv are checked and then forgotten: a PaymentMethod keeps only the type, last four and expiry.
type Card struct {
	Number      string
	ExpiryMonth int
	ExpiryYear  int
	CVV         string
}
