package consoleweb

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// The transfers page lists the account's transfers and receives one as Cloud Manager does: the
// user pastes the token the sending account gave them, reviews what it moves, and accepts it.
// The token travels in POST bodies only, never in a URL (a URL lands in logs, the journal and
// the browser's history, and anyone holding a pending token may accept it).
//
//	GET  /console/transfers          the list and the "receive a transfer" form
//	POST /console/transfers/review   the transfer of a token (cloudsvc.Transfer, as GET …/{token})
//	POST /console/transfers/accept   cloudsvc.AcceptTransfer, as POST …/{token}/accept, under its limit

// transfersView is the transfers page's data.
type transfersView struct {
	top
	Transfers []transferRow
	Pager     pager
	// Token is what the receive form holds; Review the transfer it names, shown for acceptance.
	Token  string
	Review *transferRow
	// Error says why a review or an accept was refused; Accepted says a transfer was just taken.
	Error    string
	Accepted bool
}

// transferRow is a transfer as the user's account sees it.
type transferRow struct {
	cloudstore.Transfer
	account uint64
}

// Sender says the user's account created the transfer.
func (t transferRow) Sender() bool { return t.From == t.account }

// Since is when the transfer was created.
func (t transferRow) Since() stamp { return stamp(t.Created) }

// Until is when a pending transfer expires.
func (t transferRow) Until() stamp { return stamp(t.Expiry) }

// Acceptable says the account may try to accept it: pending and not its own (the domain checks
// the rest when it is accepted).
func (t transferRow) Acceptable() bool {
	return t.Status == cloudstore.TransferPending && !t.Sender()
}

// instances lists the ids of the instances the transfer moves, comma-separated.
func (t transferRow) instances() string {
	ids := make([]string, len(t.Entities.Instances))
	for i, id := range t.Entities.Instances {
		ids[i] = strconv.FormatUint(id, 10)
	}
	return web.Commas(ids)
}

// transfers is GET /console/transfers (GET /account/service-transfers, which lists the
// deprecated entity transfers too: unrestricted users only).
func (con *console) transfers(c *fiber.Ctx, who *cloudsvc.Caller) error {
	return con.transfersPage(c, who, http.StatusOK, transfersView{Accepted: c.Query("accepted") == "1"})
}

// transfersPage draws the transfers page with status over v's form, review and messages.
func (con *console) transfersPage(c *fiber.Ctx, who *cloudsvc.Caller, status int, v transfersView) error {
	if err := allow(cloudsvc.NeedListServiceTransfers, who); err != nil {
		return err
	}
	list, err := con.Cloud.VisibleTransfers(who.User.AccountID)
	if err != nil {
		return err
	}
	page, p := paginate(c, "/console/transfers", list)
	v.top, v.Pager = newTop(who, "transfers"), p
	for _, t := range page {
		v.Transfers = append(v.Transfers, transferRow{t, who.User.AccountID})
	}
	return con.render(c, status, "Transfers", web.PageOf(transfersPage, v))
}

// reviewTransfer is POST /console/transfers/review: the transfer the form's token names, as
// GET /account/service-transfers/{token} shows it to the account; an unknown or invisible token
// is the page again with the API's answer (404), worded for a person.
func (con *console) reviewTransfer(c *fiber.Ctx, who *cloudsvc.Caller) error {
	if err := allow(cloudsvc.NeedAcceptTransfer, who); err != nil {
		return err
	}
	token := strings.TrimSpace(c.FormValue("token"))
	if token == "" {
		return con.transfersPage(c, who, http.StatusBadRequest, transfersView{Error: "Enter the token the sending account gave you."})
	}
	t, err := con.Cloud.Transfer(who.User.AccountID, token)
	if status, msg, ok := transferRefusal(err); ok {
		return con.transfersPage(c, who, status, transfersView{Token: token, Error: msg})
	}
	if err != nil {
		return err
	}
	return con.transfersPage(c, who, http.StatusOK, transfersView{Token: token, Review: &transferRow{t, who.User.AccountID}})
}

// acceptTransfer is POST /console/transfers/accept: cloudsvc.AcceptTransfer, as POST
// /account/service-transfers/{token}/accept does, counted against that route's limit for the
// session's token (the seed's 2 per minute: 429 with Retry-After when spent). A refusal is the
// page again with the domain's reasons; an accept leads to the list, which shows it accepted.
func (con *console) acceptTransfer(c *fiber.Ctx, who *cloudsvc.Caller) error {
	if err := allow(cloudsvc.NeedAcceptTransfer, who); err != nil {
		return err
	}
	token := strings.TrimSpace(c.FormValue("token"))
	if con.AcceptLimit != nil {
		if wait := con.AcceptLimit(who.Token.ID); wait > 0 {
			secs := int((wait + 999_999_999) / 1_000_000_000)
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(secs))
			return con.transfersPage(c, who, http.StatusTooManyRequests, transfersView{Token: token,
				Error: fmt.Sprintf("Too many accept attempts: the limit is 2 a minute. Try again in %d s.", secs)})
		}
	}
	if token == "" {
		return con.transfersPage(c, who, http.StatusBadRequest, transfersView{Error: "Enter the token the sending account gave you."})
	}
	err := con.Cloud.AcceptTransfer(who.User, token)
	if status, msg, ok := transferRefusal(err); ok {
		return con.transfersPage(c, who, status, transfersView{Token: token, Error: msg})
	}
	if err != nil {
		return err
	}
	return c.Redirect("/console/transfers?accepted=1", http.StatusSeeOther)
}

// transferRefusal words the domain's refusals of a review or an accept with the status the API
// gives them; ok is false for anything else (a fault of the appliance, left to the error page).
func transferRefusal(err error) (status int, msg string, ok bool) {
	switch {
	case err == nil:
		return 0, "", false
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, "No transfer your account may see has this token: check it, or ask the sender for a new one.", true
	case errors.Is(err, store.ErrInvalid):
		return http.StatusBadRequest, err.Error(), true
	case errors.Is(err, store.ErrForbidden):
		return http.StatusForbidden, err.Error(), true
	}
	return 0, "", false
}
