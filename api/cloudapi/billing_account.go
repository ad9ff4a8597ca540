package cloudapi

import (
	"fmt"
	"net/url"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/outbox"
	"go.etcd.io/bbolt"
)

// accountView is the Account record as the reference shows it.
type accountView struct {
	ActivePromotions  []promotionView `json:"active_promotions"`
	ActiveSince       string          `json:"active_since"`
	Address1          string          `json:"address_1"`
	Address2          string          `json:"address_2"`
	Balance           usd             `json:"balance"`
	BalanceUninvoiced usd             `json:"balance_uninvoiced"`
	BillingSource     string          `json:"billing_source"`
	Capabilities      []string        `json:"capabilities"`
	City              string          `json:"city"`
	Company           string          `json:"company"`
	Country           string          `json:"country"`
	CreditCard        creditCardView  `json:"credit_card"`
	Email             string          `json:"email"`
	Euuid             string          `json:"euuid"`
	FirstName         string          `json:"first_name"`
	LastName          string          `json:"last_name"`
	Phone             string          `json:"phone"`
	State             string          `json:"state"`
	TaxID             string          `json:"tax_id"`
	Zip               string          `json:"zip"`
}

// creditCardView is the default card; both fields null when there is none.
type creditCardView struct {
	LastFour *string `json:"last_four"`
	Expiry   *string `json:"expiry"`
}

// accountCapabilities are the products every account may use, in the reference's words.
// Shared, never modified.
var accountCapabilities = []string{"Linodes", "NodeBalancers", "Block Storage", "Object Storage", "Managed Databases"}

func viewAccountRecord(acct cloudstore.Account, s cloudstore.BillingSummary) accountView {
	c := acct.Contact
	v := accountView{
		ActivePromotions: make([]promotionView, 0, len(s.Promotions)), ActiveSince: formatTime(acct.ActiveSince),
		Address1: c.Address1, Address2: c.Address2, Balance: usd(acct.BalanceCents), BalanceUninvoiced: usd(s.UninvoicedCents),
		BillingSource: "akamai", Capabilities: accountCapabilities, City: c.City, Company: c.Company, Country: c.Country,
		Email: acct.Email, Euuid: acct.Euuid, FirstName: c.FirstName, LastName: c.LastName, Phone: c.Phone, State: c.State,
		TaxID: c.TaxID, Zip: c.Zip,
	}
	for _, pr := range s.Promotions {
		v.ActivePromotions = append(v.ActivePromotions, viewPromotion(pr))
	}
	if s.Card != nil {
		v.CreditCard = creditCardView{LastFour: &s.Card.LastFour, Expiry: &s.Card.Expiry}
	}
	return v
}

// accountRecord reads the caller's account and its billing summary at now.
func (a *api) accountRecord(tx *bbolt.Tx, account uint64, now time.Time) (accountView, error) {
	acct, err := cloudstore.GetAccount(tx, account)
	if err != nil {
		return accountView{}, err
	}
	s, err := cloudstore.AccountBillingSummary(tx, acct, now)
	return viewAccountRecord(acct, s), err
}

func (a *api) getAccountRecord(c *fiber.Ctx) error {
	var v accountView
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		v, err = a.accountRecord(tx, callerOf(c).user.AccountID, a.Clock.Now())
		return err
	}); err != nil {
		return err
	}
	return c.JSON(v)
}

// putAccountRecord changes the contact fields sent (omitted ones stay) and records
// account_update.
func (a *api) putAccountRecord(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	up := cloudstore.ContactUpdate{
		Email: b.str("email"), Address1: b.str("address_1"), Address2: b.str("address_2"), City: b.str("city"),
		Company: b.str("company"), Country: b.str("country"), FirstName: b.str("first_name"), LastName: b.str("last_name"),
		Phone: b.str("phone"), State: b.str("state"), TaxID: b.str("tax_id"), Zip: b.str("zip"),
	}
	cl, now := callerOf(c), a.Clock.Now()
	var v accountView
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		acct, err := cloudstore.GetAccount(tx, cl.user.AccountID)
		if err != nil {
			return err
		}
		if acct, err = cloudstore.UpdateContact(acct, up); b.with(err) != nil {
			return b.with(err)
		}
		if err := cloudstore.PutAccount(tx, acct); err != nil {
			return err
		}
		if err := a.record(tx, cl, "account_update", accountRecordEntity(acct), now); err != nil {
			return err
		}
		v, err = a.accountRecord(tx, acct.ID, now)
		return err
	})
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// cancelAccount closes the caller's account (unrestricted users only): the final invoice, the
// charge of the whole balance to the default card (409 with the reference's reason when it
// cannot be charged), the cancellation, every user's tokens revoked, and a confirmation e-mail
// to the billing address quoting the comments. The answer links to the exit survey.
func (a *api) cancelAccount(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	b.require("comments")
	comments := b.str("comments")
	if err := b.err(); err != nil {
		return err
	}
	cl, now := callerOf(c), a.Clock.Now()
	var acct cloudstore.Account
	err = a.Store.Write(func(tx *bbolt.Tx) (err error) {
		if acct, err = cloudstore.CancelAccount(tx, cl.user.AccountID, now); err != nil {
			return err
		}
		return outbox.Send(tx, &outbox.Mail{
			Time: now, API: "cloud", From: "billing@pocketforge.test", To: []string{acct.Email},
			Subject: "Your account has been cancelled",
			Body: fmt.Sprintf("Hello,\n\n%s cancelled account %s on %s UTC. Your final balance has been settled and every user has been logged out.\n\nYour comments:\n\n%s\n",
				cl.user.Username, acct.Name, formatTime(now), *comments),
		})
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"survey_link": a.ExternalURL() + "/survey/cancel?account=" + url.QueryEscape(acct.Euuid)})
}
