package cloudstore

import (
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
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

// promoKey is a code's catalogue key: codes are case-insensitive.
func promoKey(code string) []byte { return []byte(strings.ToUpper(strings.TrimSpace(code))) }

// PutPromoCode stores a catalogue entry (fixtures).
func PutPromoCode(tx kv.Tx, pc PromoCode) error {
	return store.Put(tx, store.CloudPromoCodes, promoKey(pc.Code), pc)
}

// GetPromoCode looks a code up, in any case.
func GetPromoCode(tx kv.Tx, code string) (PromoCode, error) {
	return store.Get[PromoCode](tx, store.CloudPromoCodes, promoKey(code))
}
