package cloudstore

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// PromoCode is a code of the promotion catalogue (store.CloudPromoCodes, keyed by the upper-case
// code): what a customer types to get a Promotion.
type PromoCode struct {
	Code            string `json:"code"`
	Summary         string `json:"summary"`
	Description     string `json:"description"`
	ImageURL        string `json:"image_url"`
	ServiceType     string `json:"service_type"`
	CreditCents     int64  `json:"credit_cents"`
	MonthlyCapCents int64  `json:"monthly_cap_cents"`
	// Expires is when the code stops being accepted.
	Expires time.Time `json:"expires"`
}

// PromoMaxAccountAge is the age from which an account may no longer redeem promo codes: they
// are for new customers (the seed's 90 days).
const PromoMaxAccountAge = 90 * 24 * time.Hour

// promoKey is a code's catalogue key: codes are case-insensitive.
func promoKey(code string) []byte { return []byte(strings.ToUpper(strings.TrimSpace(code))) }

// PutPromoCode stores a catalogue entry (fixtures).
func PutPromoCode(tx *bbolt.Tx, pc PromoCode) error {
	return store.Put(tx, store.CloudPromoCodes, promoKey(pc.Code), pc)
}

// GetPromoCode looks a code up, in any case.
func GetPromoCode(tx *bbolt.Tx, code string) (PromoCode, error) {
	return store.Get[PromoCode](tx, store.CloudPromoCodes, promoKey(code))
}

// Active reports whether a promotion still gives credit at now.
func (p Promotion) Active(now time.Time) bool { return p.RemainingCents > 0 && now.Before(p.Expires) }

// AddPromoCode redeems a code for an account at now, under the seed's restrictions (the caller
// being unrestricted is the API's check): the code is 1–32 characters, known and unexpired; the
// account is younger than 90 days and holds no active promo credit. Every broken rule is
// reported at once. The promotion lasts as many months as its credit covers at its monthly cap,
// counting the current one, and ends with the last of them.
func AddPromoCode(tx *bbolt.Tx, account uint64, code string, now time.Time) (Promotion, error) {
	acct, err := GetAccount(tx, account)
	if err != nil {
		return Promotion{}, err
	}
	var p store.Problems
	if now.Sub(acct.ActiveSince) >= PromoMaxAccountAge {
		p.Add("", "Promo codes can only be added to accounts less than 90 days old")
	}
	for _, pr := range acct.Promotions {
		if pr.Active(now) {
			p.Add("", "This account already has an active promo credit")
			break
		}
	}
	pc, err := checkPromoCode(tx, &p, code, now)
	if err != nil {
		return Promotion{}, err
	}
	if err := p.Err(); err != nil {
		return Promotion{}, err
	}
	months := int((pc.CreditCents + pc.MonthlyCapCents - 1) / max(pc.MonthlyCapCents, 1))
	pr := Promotion{
		Code: pc.Code, Summary: pc.Summary, Description: pc.Description, ImageURL: pc.ImageURL, ServiceType: pc.ServiceType,
		CreditCents: pc.CreditCents, MonthlyCapCents: pc.MonthlyCapCents, RemainingCents: pc.CreditCents,
		Expires: monthOf(now).AddDate(0, max(months, 1), 0).Add(-time.Second),
	}
	acct.Promotions = append(acct.Promotions, pr)
	return pr, PutAccount(tx, acct)
}

// checkPromoCode finds an acceptable code, adding its problems to p.
func checkPromoCode(tx *bbolt.Tx, p *store.Problems, code string, now time.Time) (PromoCode, error) {
	if n := len([]rune(code)); n < 1 || n > 32 {
		p.Add("promo_code", "Must be 1-32 characters")
		return PromoCode{}, nil
	}
	pc, err := GetPromoCode(tx, code)
	switch {
	case errors.Is(err, store.ErrNotFound):
		p.Add("promo_code", "Invalid promo code")
		return pc, nil
	case err != nil:
		return pc, err
	case !now.Before(pc.Expires):
		p.Add("promo_code", fmt.Sprintf("Promo code %s has expired", pc.Code))
	}
	return pc, nil
}

// applyPromotions takes the promo credit for an invoice of [from, to) with usage cents of
// usage: each promotion active over the period gives up to its monthly cap, never more than
// what is left of it nor of the usage. It returns the credit as negative "misc" items and
// records on acct (on a copy of its promotions, so a draft never touches a stored account) what
// is left and what this period used.
func applyPromotions(acct *Account, usage int64, from, to time.Time) []InvoiceItem {
	acct.Promotions = slices.Clone(acct.Promotions)
	var items []InvoiceItem
	for i := range acct.Promotions {
		pr := &acct.Promotions[i]
		pr.UsedMonthCents = 0
		if pr.RemainingCents <= 0 || !from.Before(pr.Expires) || usage <= 0 {
			continue
		}
		credit := min(pr.MonthlyCapCents, pr.RemainingCents, usage)
		pr.RemainingCents -= credit
		pr.UsedMonthCents = credit
		usage -= credit
		items = append(items, InvoiceItem{
			Label: "Promotion " + pr.Code + ": " + pr.Summary, Type: "misc", UnitPrice: FormatCents(-credit), Quantity: 1,
			AmountCents: -credit, From: from, To: to.Add(-time.Second),
		})
	}
	return items
}
