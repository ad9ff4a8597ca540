package cloudapi

import (
	"encoding/json"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// paymentMethodView is a PaymentMethod as the reference shows it (type credit_card: data holds
// the card type, last four and expiry).
type paymentMethodView struct {
	Created   string       `json:"created"`
	Data      cardDataView `json:"data"`
	ID        uint64       `json:"id"`
	IsDefault bool         `json:"is_default"`
	Type      string       `json:"type"`
}

type cardDataView struct {
	CardType string `json:"card_type"`
	Expiry   string `json:"expiry"`
	LastFour string `json:"last_four"`
}

func viewPaymentMethod(pm cloudstore.PaymentMethod) paymentMethodView {
	return paymentMethodView{Created: formatTime(pm.Created), ID: pm.ID, IsDefault: pm.IsDefault, Type: pm.Type,
		Data: cardDataView{CardType: pm.CardType, Expiry: pm.Expiry, LastFour: pm.LastFour}}
}

// paymentMethodFields: the reference marks no PaymentMethod field filterable.
var paymentMethodFields = listing.Fields[cloudstore.PaymentMethod]{}

func (a *api) listPaymentMethods(c *fiber.Ctx) error {
	list, err := a.Cloud.PaymentMethods(callerOf(c).User.AccountID)
	if err != nil {
		return err
	}
	return renderList(c, list, paymentMethodFields, viewPaymentMethod)
}

func (a *api) getPaymentMethod(c *fiber.Ctx) error {
	id, err := billingID(c, "paymentMethodId")
	if err != nil {
		return err
	}
	pm, err := a.Cloud.PaymentMethod(callerOf(c).User.AccountID, id)
	if err != nil {
		return err
	}
	return c.JSON(viewPaymentMethod(pm))
}

// cardInput reads a CreditCard object's fields from b (every one required), naming them with
// prefix in problems.
func cardInput(b *body, prefix string, into *body) cloudstore.Card {
	var card cloudstore.Card
	for _, n := range []string{"card_number", "expiry_month", "expiry_year", "cvv"} {
		if !b.has(n) || b.isNull(n) {
			into.problems.Add(prefix+n, prefix+n+" is required")
		}
	}
	sub := &body{fields: b.fields}
	if s := sub.str("card_number"); s != nil {
		card.Number = *s
	}
	sub.decode("expiry_month", "an integer", &card.ExpiryMonth)
	sub.decode("expiry_year", "an integer", &card.ExpiryYear)
	if s := sub.str("cvv"); s != nil {
		card.CVV = *s
	}
	for _, p := range sub.problems {
		into.problems.Add(prefix+p.Field, p.Reason)
	}
	return card
}

// addPaymentMethod adds a credit card: {type: "credit_card", is_default, data: CreditCard}, all
// required. Answers {} and records payment_method_add.
func (a *api) addPaymentMethod(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	b.require("type", "is_default", "data")
	if t := b.str("type"); t != nil && *t != "credit_card" {
		b.problems.Add("type", "Must be one of credit_card")
	}
	in := cloudstore.NewPaymentMethod{FieldPrefix: "data."}
	if d := b.boolean("is_default"); d != nil {
		in.IsDefault = *d
	}
	var data map[string]json.RawMessage
	if !b.decode("data", "an object", &data) {
		return b.err() // without a card, the card's own rules would only repeat "data is required"
	}
	in.Card = cardInput(&body{fields: data}, "data.", b)
	return a.storeCard(c, b, in, "payment_method_add")
}

// addCreditCard is the deprecated POST /account/credit-card (answered with 299 and a warning):
// the CreditCard becomes the default payment method, under the same rules as a method add.
func (a *api) addCreditCard(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	in := cloudstore.NewPaymentMethod{IsDefault: true, Card: cardInput(b, "", b)}
	return a.storeCard(c, b, in, "credit_card_updated")
}

// storeCard adds the card in, reporting b's problems with the domain's, and records action.
func (a *api) storeCard(c *fiber.Ctx, b *body, in cloudstore.NewPaymentMethod, action string) error {
	if err := a.Cloud.AddPaymentMethod(callerOf(c).User, in, action, b.problems); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

// deletePaymentMethod deactivates a method; the default one cannot be deleted (400). The scope
// is read_only (the seed's), but restricted users need the read_write grant, checked before
// the path is read.
func (a *api) deletePaymentMethod(c *fiber.Ctx) error {
	u := callerOf(c).User
	if err := cloudsvc.MayWriteAccount(u); err != nil {
		return err
	}
	return a.changePaymentMethod(c, func(id uint64) error { return a.Cloud.DeletePaymentMethod(u, id) })
}

// makeDefaultPaymentMethod makes a method the default (both the seed's /make-default and
// linodego's POST to the method itself).
func (a *api) makeDefaultPaymentMethod(c *fiber.Ctx) error {
	u := callerOf(c).User
	return a.changePaymentMethod(c, func(id uint64) error { return a.Cloud.MakeDefaultPaymentMethod(u, id) })
}

// changePaymentMethod applies change to the caller's method named in the path; answers {}.
func (a *api) changePaymentMethod(c *fiber.Ctx, change func(id uint64) error) error {
	id, err := billingID(c, "paymentMethodId")
	if err != nil {
		return err
	}
	if err := change(id); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}
