package cloudsvc

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// PromoMaxAccountAge is the age from which an account may no longer redeem promo codes: they
// are for new customers (the seed's 90 days).
const PromoMaxAccountAge = 90 * 24 * time.Hour

// promotionActive reports whether a promotion still gives credit at now.
func promotionActive(p cloudstore.Promotion, now time.Time) bool {
	return p.RemainingCents > 0 && now.Before(p.Expires)
}

// addPromoCode redeems a code for an account at now, under the seed's restrictions (the caller
// being unrestricted is the API's check): the code is 1–32 characters, known and unexpired; the
// account is younger than 90 days and holds no active promo credit. Every broken rule is
// reported at once. The promotion lasts as many months as its credit covers at its monthly cap,
// counting the current one, and ends with the last of them.
func addPromoCode(tx kv.Tx, account uint64, code string, now time.Time) (cloudstore.Promotion, error) {
	acct, err := cloudstore.GetAccount(tx, account)
	if err != nil {
		return cloudstore.Promotion{}, err
	}
	var p store.Problems
	if now.Sub(acct.ActiveSince) >= PromoMaxAccountAge {
		p.Add("", "Promo codes can only be added to accounts less than 90 days old")
	}
	for _, pr := range acct.Promotions {
		if promotionActive(pr, now) {
			p.Add("", "This account already has an active promo credit")
			break
		}
	}
	pc, err := checkPromoCode(tx, &p, code, now)
	if err != nil {
		return cloudstore.Promotion{}, err
	}
	if err := p.Err(); err != nil {
		return cloudstore.Promotion{}, err
	}
	months := int((pc.CreditCents + pc.MonthlyCapCents - 1) / max(pc.MonthlyCapCents, 1))
	pr := cloudstore.Promotion{
		Code: pc.Code, Summary: pc.Summary, Description: pc.Description, ImageURL: pc.ImageURL, ServiceType: pc.ServiceType,
		CreditCents: pc.CreditCents, MonthlyCapCents: pc.MonthlyCapCents, RemainingCents: pc.CreditCents,
		Expires: monthOf(now).AddDate(0, max(months, 1), 0).Add(-time.Second),
	}
	acct.Promotions = append(acct.Promotions, pr)
	return pr, cloudstore.PutAccount(tx, acct)
}

// checkPromoCode finds an acceptable code, adding its problems to p.
func checkPromoCode(tx kv.Tx, p *store.Problems, code string, now time.Time) (cloudstore.PromoCode, error) {
	if n := len([]rune(code)); n < 1 || n > 32 {
		p.Add("promo_code", "Must be 1-32 characters")
		return cloudstore.PromoCode{}, nil
	}
	pc, err := cloudstore.GetPromoCode(tx, code)
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
func applyPromotions(acct *cloudstore.Account, usage int64, from, to time.Time) []cloudstore.InvoiceItem {
	acct.Promotions = slices.Clone(acct.Promotions)
	var items []cloudstore.InvoiceItem
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
		items = append(items, cloudstore.InvoiceItem{
			Label: "Promotion " + pr.Code + ": " + pr.Summary, Type: "misc", UnitPrice: cloudstore.FormatCents(-credit), Quantity: 1,
			AmountCents: -credit, From: from, To: to.Add(-time.Second),
		})
	}
	return items
}
