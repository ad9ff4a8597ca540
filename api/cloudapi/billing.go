package cloudapi

import (
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// bindBilling registers the account record, cancel, payment methods, payments, the deprecated
// credit-card and wallet endpoints, promo codes and invoices. (The clock-driven job that issues
// invoices on the first of each month is cloudsvc's.)
//
// Payment method add, view and make-default are served under /v4 only (the seed, and the
// reference for make-default); a method the other prefix does serve on the same path (the list,
// the DELETE) makes such a request a 405 rather than a 404.
//
// Everything is account-wide, so restricted users need the account_access grant (read_only to
// look, read_write to change), except cancel and promo codes, which are unrestricted only. The
// seed gives the payment-method DELETE and the promo-code POST the scope account:read_only;
// the DELETE still needs the read_write grant (checked in its handler). linodego's
// SetDefaultPaymentMethod POSTs to the method itself, so that path makes a method the default too.
func (a *api) bindBilling(r *routes) {
	r.add(both, "GET", "/account", accessOf(cloudsvc.NeedGetAccount), a.getAccountRecord)
	r.add(both, "PUT", "/account", account(accountGrant), a.putAccountRecord)
	r.add(both, "POST", "/account/cancel", account(unrestrictedOnly), a.cancelAccount)
	r.add(both, "POST", "/account/credit-card", access{area: "account", who: accountGrant, deprecated: true}, a.addCreditCard)

	r.add(both, "GET", "/account/payment-methods", account(accountGrant), a.listPaymentMethods)
	r.add(stableOnly, "POST", "/account/payment-methods", account(accountGrant), a.addPaymentMethod)
	r.add(stableOnly, "GET", "/account/payment-methods/:paymentMethodId", account(accountGrant), a.getPaymentMethod)
	r.add(both, "DELETE", "/account/payment-methods/:paymentMethodId", access{area: "account", level: cloudstore.ReadOnly, who: accountGrant}, a.deletePaymentMethod)
	r.add(stableOnly, "POST", "/account/payment-methods/:paymentMethodId/make-default", account(accountGrant), a.makeDefaultPaymentMethod)
	r.add(stableOnly, "POST", "/account/payment-methods/:paymentMethodId", account(accountGrant), a.makeDefaultPaymentMethod)

	r.add(both, "GET", "/account/payments", accessOf(cloudsvc.NeedListPayments), a.listPayments)
	r.add(both, "POST", "/account/payments", account(accountGrant), a.createPayment)
	r.add(both, "GET", "/account/payments/:paymentId", account(accountGrant), a.getPayment)
	r.add(both, "POST", "/account/payments/wallet", access{area: "account", who: accountGrant, deprecated: true}, a.stageWalletPayment)
	r.add(both, "POST", "/account/payments/wallet/execute", access{area: "account", who: accountGrant, deprecated: true}, a.executeWalletPayment)

	r.add(both, "POST", "/account/promo-codes", access{area: "account", level: cloudstore.ReadOnly, who: unrestrictedOnly}, a.addPromoCode)
	r.add(both, "GET", "/account/invoices", accessOf(cloudsvc.NeedListInvoices), a.listInvoices)
	r.add(both, "GET", "/account/invoices/:invoiceId", account(accountGrant), a.getInvoice)
	r.add(both, "GET", "/account/invoices/:invoiceId/items", account(accountGrant), a.listInvoiceItems)
}

// usd is money in cents shown as a JSON number of dollars with two decimals (120.50), as the
// real service shows balances, payments and invoice amounts.
type usd int64

// MarshalJSON writes the dollar amount as a number literal.
func (u usd) MarshalJSON() ([]byte, error) { return []byte(cloudstore.FormatCents(int64(u))), nil }

// billingID reads a numeric id path parameter; anything else names nothing (404).
func billingID(c *fiber.Ctx, name string) (uint64, error) {
	id, err := strconv.ParseUint(c.Params(name), 10, 64)
	if err != nil {
		return 0, fiber.ErrNotFound
	}
	return id, nil
}
