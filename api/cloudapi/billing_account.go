package cloudapi

import (
	"net/url"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
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

// getAccountRecord answers the rendering kept for the domain's record while the domain keeps
// that record (see cloudsvc.AccountRecord): the same bytes c.JSON would write.
func (a *api) getAccountRecord(c *fiber.Ctx) error {
	rec, err := a.Cloud.AccountRecord(callerOf(c).User.AccountID)
	if err != nil {
		return err
	}
	body, err := a.accountJSON.render(rec, func() ([]byte, error) {
		return c.App().Config().JSONEncoder(viewAccountRecord(rec.Account, rec.Summary))
	})
	if err != nil {
		return err
	}
	c.Response().SetBody(body) // a copy: the kept rendering is shared
	c.Response().Header.SetContentType(fiber.MIMEApplicationJSON)
	return nil
}

// recordRenders keeps, per account, the JSON of the last account record rendered and the
// domain's record it was rendered from.
type recordRenders struct {
	mu sync.Mutex
	m  map[uint64]renderedRecord
}

type renderedRecord struct {
	rec  *cloudsvc.AccountRecord
	body []byte
}

// render returns rec's rendering, rendering it with encode unless it is kept.
func (r *recordRenders) render(rec *cloudsvc.AccountRecord, encode func() ([]byte, error)) ([]byte, error) {
	id := rec.Account.ID
	r.mu.Lock()
	kept, ok := r.m[id]
	r.mu.Unlock()
	if ok && kept.rec == rec {
		return kept.body, nil
	}
	body, err := encode()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if r.m == nil {
		r.m = map[uint64]renderedRecord{}
	}
	r.m[id] = renderedRecord{rec: rec, body: body}
	r.mu.Unlock()
	return body, nil
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
	acct, sum, err := a.Cloud.UpdateContact(callerOf(c).User, up, b.problems)
	if err != nil {
		return err
	}
	return c.JSON(viewAccountRecord(acct, sum))
}

// cancelAccount closes the caller's account (unrestricted users only; see
// cloudsvc.CancelAccount), 409 with the reference's reason when the balance cannot be charged.
// The answer links to the exit survey.
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
	acct, err := a.Cloud.CancelAccount(callerOf(c).User, *comments)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"survey_link": a.ExternalURL() + "/survey/cancel?account=" + url.QueryEscape(acct.Euuid)})
}
