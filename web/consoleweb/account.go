package consoleweb

import (
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// accountView is the account page's data: the record GET /account shows.
type accountView struct {
	top
	Account     cloudstore.Account
	Balance     usd
	Uninvoiced  usd
	ActiveSince stamp
	Card        *cloudstore.PaymentMethod
	Promotions  []promotionRow
}

// promotionRow is an active promo credit.
type promotionRow struct {
	cloudstore.Promotion
}

// Remaining is the credit not yet used.
func (p promotionRow) Remaining() usd { return usd(p.RemainingCents) }

// Expires is when the credit ends.
func (p promotionRow) Expires() stamp { return stamp(p.Promotion.Expires) }

// account is GET /console and /console/account (GET /account: the account_access grant).
func (con *console) account(c *fiber.Ctx, who *cloudsvc.Caller) error {
	if err := allow(cloudsvc.NeedGetAccount, who); err != nil {
		return err
	}
	rec, err := con.Cloud.AccountRecord(who.User.AccountID)
	if err != nil {
		return err
	}
	v := accountView{top: newTop(who, "account"), Account: rec.Account, Balance: usd(rec.Account.BalanceCents),
		Uninvoiced: usd(rec.Summary.UninvoicedCents), ActiveSince: stamp(rec.Account.ActiveSince), Card: rec.Summary.Card}
	for _, p := range rec.Summary.Promotions {
		v.Promotions = append(v.Promotions, promotionRow{p})
	}
	return con.render(c, http.StatusOK, "Account", web.PageOf(accountPage, v))
}
