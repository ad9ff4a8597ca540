package cloudsvc

import (
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Payments lists account's payments.
func (s *Service) Payments(account uint64) ([]cloudstore.Payment, error) {
	var list []cloudstore.Payment
	err := s.db.View(func(tx kv.Tx) (err error) {
		list, err = cloudstore.AccountPayments(tx, account)
		return err
	})
	return list, err
}

// Payment returns account's payment id.
func (s *Service) Payment(account, id uint64) (cloudstore.Payment, error) {
	var p cloudstore.Payment
	err := s.db.View(func(tx kv.Tx) (err error) {
		p, err = cloudstore.AccountPayment(tx, account, id)
		return err
	})
	return p, err
}

// MakePayment charges a payment method of by's account and records payment_submitted. A
// non-empty warning says the payment is pending verification. parsed are the problems the
// caller found reading the request (see CreateUser).
func (s *Service) MakePayment(by cloudstore.User, in cloudstore.PaymentRequest, parsed store.Problems) (pay cloudstore.Payment, warning string, err error) {
	now := s.clk.Now()
	err = s.db.Write(func(tx kv.Tx) (err error) {
		if pay, warning, err = makePayment(tx, by.AccountID, in, now); withParsed(parsed, err) != nil {
			return withParsed(parsed, err)
		}
		return record(tx, by, "payment_submitted", nil, now)
	})
	return pay, warning, err
}

// Invoices lists account's invoices, oldest first.
func (s *Service) Invoices(account uint64) ([]cloudstore.Invoice, error) {
	var list []cloudstore.Invoice
	err := s.db.View(func(tx kv.Tx) (err error) {
		list, err = cloudstore.AccountInvoices(tx, account)
		return err
	})
	return list, err
}

// Invoice returns account's invoice id.
func (s *Service) Invoice(account, id uint64) (cloudstore.Invoice, error) {
	var inv cloudstore.Invoice
	err := s.db.View(func(tx kv.Tx) (err error) {
		inv, err = cloudstore.AccountInvoice(tx, account, id)
		return err
	})
	return inv, err
}

// AddPromoCode redeems code for account and returns the promotion as the account record shows
// it (this month's usage already counted).
func (s *Service) AddPromoCode(account uint64, code string) (cloudstore.Promotion, error) {
	now := s.clk.Now()
	var out cloudstore.Promotion
	err := s.db.Write(func(tx kv.Tx) error {
		pr, err := addPromoCode(tx, account, code, now)
		if err != nil {
			return err
		}
		acct, err := cloudstore.GetAccount(tx, account)
		if err != nil {
			return err
		}
		sum, err := accountBillingSummary(tx, acct, now, nil)
		out = pr
		for _, p := range sum.Promotions {
			if p.Code == pr.Code {
				out = p
			}
		}
		return err
	})
	return out, err
}
