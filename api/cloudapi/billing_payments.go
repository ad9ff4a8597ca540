package cloudapi

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// paymentView is a Payment as the real service shows it: usd is a number (25.0), which linodego
// reads into a json.Number.
type paymentView struct {
	ID   uint64 `json:"id"`
	Date string `json:"date"`
	USD  usd    `json:"usd"`
}

func viewPayment(p cloudstore.Payment) paymentView {
	return paymentView{ID: p.ID, Date: formatTime(p.Date), USD: usd(p.USDCents)}
}

// paymentFields: the reference marks no Payment field filterable.
var paymentFields = listing.Fields[cloudstore.Payment]{}

// listPayments lists the caller's payments, oldest first: the index order, so only the page's
// payments are decoded.
func (a *api) listPayments(c *fiber.Ctx) error {
	account := callerOf(c).User.AccountID
	return renderPaged(c, paymentFields, viewPayment,
		func(w func(int) (int, int)) ([]cloudstore.Payment, int, error) {
			return a.Cloud.PaymentsPage(account, w)
		},
		func() ([]cloudstore.Payment, error) { return a.Cloud.Payments(account) })
}

func (a *api) getPayment(c *fiber.Ctx) error {
	id, err := billingID(c, "paymentId")
	if err != nil {
		return err
	}
	p, err := a.Cloud.Payment(callerOf(c).User.AccountID, id)
	if err != nil {
		return err
	}
	return c.JSON(viewPayment(p))
}

var (
	// usdString is the reference's pattern for a string amount: an optional "$", digits, and
	// exactly two decimals.
	usdString = regexp.MustCompile(`^\$?[0-9]+\.[0-9]{2}$`)
	// usdNumber is a JSON number amount (linodego sends one): digits and at most two decimals;
	// no sign, no exponent.
	usdNumber = regexp.MustCompile(`^[0-9]+(\.[0-9]{1,2})?$`)
)

// amountField reads a dollar amount in cents: a string that matches the reference's pattern
// ("120.50", "$120.50"; "20" is refused, as the pattern says), or a JSON number with at most two
// decimals (120.5, 20). ok is false when absent or wrong (the problem is recorded).
func amountField(b *body, name string) (cents int64, ok bool) {
	raw, has := b.fields[name]
	if !has || b.isNull(name) {
		return 0, false
	}
	var text string
	switch {
	case len(raw) > 0 && raw[0] == '"':
		if json.Unmarshal(raw, &text) != nil || !usdString.MatchString(text) {
			b.problems.Add(name, "Must be a dollar amount with two decimals, like 120.50")
			return 0, false
		}
		text = strings.TrimPrefix(text, "$")
	case usdNumber.Match(raw):
		text = string(raw)
	default:
		b.problems.Add(name, "Must be a positive dollar amount with at most two decimals, like 120.50")
		return 0, false
	}
	if cents, ok = cloudstore.ParseCents(text); !ok {
		b.problems.Add(name, "Must be at most $999999999.99")
	}
	return cents, ok
}

// createPayment charges a card: {usd, cvv?, payment_method_id?} (the default method when no id).
// 200 with the Payment, or 202 with the Payment and a warnings array when the card needs
// verification; records payment_submitted.
func (a *api) createPayment(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	b.require("usd")
	in := cloudstore.PaymentRequest{CVV: b.str("cvv")}
	in.Cents, _ = amountField(b, "usd")
	var id uint64
	if b.decode("payment_method_id", "an integer", &id) {
		in.MethodID = &id
	}
	pay, warning, err := a.Cloud.MakePayment(callerOf(c).User, in, b.problems)
	if err != nil {
		return err
	}
	if warning != "" {
		return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"id": pay.ID, "date": formatTime(pay.Date), "usd": usd(pay.USDCents),
			"warnings": []map[string]string{{"title": "Payment pending", "details": warning}}})
	}
	return c.JSON(viewPayment(pay))
}

// walletDisabled is the second warning of the wallet endpoints: deprecated and disabled, they
// check their request and move no money.
var walletDisabled = map[string]string{
	"title":   "Wallet payments are disabled",
	"details": "Wallet payments can no longer be made; nothing was charged. Use POST /v4/account/payments with a payment method instead.",
}

// stageWalletPayment is the deprecated, disabled wallet staging: the body {usd ($5.00–$500.00),
// redirect_url, cancel_url} is checked (400 when wrong), then the answer is 299 with the
// deprecation and "disabled" warnings, and no payment_id (nothing is staged).
func (a *api) stageWalletPayment(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	b.require("usd", "redirect_url", "cancel_url")
	if cents, ok := amountField(b, "usd"); ok && (cents < 500 || cents > 50000) {
		b.problems.Add("usd", "Must be between $5.00 and $500.00")
	}
	for _, n := range []string{"redirect_url", "cancel_url"} {
		if s := b.str(n); s != nil {
			if u, err := url.Parse(*s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				b.problems.Add(n, "Must be an absolute http(s) URL")
			}
		}
	}
	return walletAnswer(c, b)
}

// executeWalletPayment is the deprecated, disabled wallet execution: {payment_id, payer_id}
// are checked, then 299 with the warnings; no payment was ever staged, so none completes.
func (a *api) executeWalletPayment(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	b.require("payment_id", "payer_id")
	b.str("payment_id")
	b.str("payer_id")
	return walletAnswer(c, b)
}

// walletAnswer is 400 for a wrong body, else 299 with both warnings.
func walletAnswer(c *fiber.Ctx, b *body) error {
	if err := b.err(); err != nil {
		return err
	}
	return c.Status(StatusDeprecated).JSON(fiber.Map{"warnings": []map[string]string{deprecationWarning, walletDisabled}})
}
