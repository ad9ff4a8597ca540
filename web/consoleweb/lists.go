package consoleweb

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// clientsView is the OAuth clients page's data (secrets are never stored in the clear, so
// never shown).
type clientsView struct {
	top
	Clients []clientRow
	Pager   pager
	// MayCreate shows the form that registers a client; Form is what it holds, Error why it was
	// refused.
	MayCreate bool
	Form      clientForm
	Error     string
	// New is the client just registered and Secret its secret, shown once (the page is not
	// cached).
	New    *clientRow
	Secret string
}

// clientForm is what the register form holds.
type clientForm struct {
	Label, RedirectURI string
	Public             bool
}

// clientRow is an OAuth client as the list shows it.
type clientRow struct{ cloudstore.Client }

// Since is when the client was registered.
func (cl clientRow) Since() stamp { return stamp(cl.Created) }

// clients is GET /console/oauth-clients (GET /account/oauth-clients: the account_access grant).
func (con *console) clients(c *fiber.Ctx, who *cloudsvc.Caller) error {
	return con.clientsPage(c, who, http.StatusOK, clientsView{})
}

// clientsPage draws the OAuth clients page with status over v's form, error and new client.
func (con *console) clientsPage(c *fiber.Ctx, who *cloudsvc.Caller, status int, v clientsView) error {
	if err := allow(cloudsvc.NeedListOAuthClients, who); err != nil {
		return err
	}
	list, err := con.Cloud.AccountClients(who.User.AccountID)
	if err != nil {
		return err
	}
	page, p := paginate(c, "/console/oauth-clients", list)
	v.top, v.Pager = newTop(who, "oauth-clients"), p
	v.MayCreate = allow(cloudsvc.NeedCreateOAuthClient, who) == nil
	for _, cl := range page {
		v.Clients = append(v.Clients, clientRow{cl})
	}
	return con.render(c, status, "OAuth clients", web.PageOf(clientsPage, v))
}

// createClient is POST /console/oauth-clients: cloudsvc.CreateClient, as POST
// /account/oauth-clients does. The answer is the page itself, carrying the secret once; a
// refused input shows the form again with the domain's reasons (400).
func (con *console) createClient(c *fiber.Ctx, who *cloudsvc.Caller) error {
	if err := allow(cloudsvc.NeedCreateOAuthClient, who); err != nil {
		return err
	}
	form := clientForm{Label: c.FormValue("label"), RedirectURI: c.FormValue("redirect_uri"), Public: c.FormValue("public") != ""}
	cl, secret, err := con.Cloud.CreateClient(who.User, cloudstore.ClientInput{Label: &form.Label, RedirectURI: &form.RedirectURI, Public: &form.Public})
	if errors.Is(err, store.ErrInvalid) {
		return con.clientsPage(c, who, http.StatusBadRequest, clientsView{Form: form, Error: err.Error()})
	}
	if err != nil {
		return err
	}
	return con.clientsPage(c, who, http.StatusOK, clientsView{New: &clientRow{cl}, Secret: secret})
}

// eventsView is the events page's data: a page of the events the user may see, newest first.
type eventsView struct {
	top
	Events []eventRow
	Pager  pager
}

// eventRow is an event as the list shows it.
type eventRow struct{ cloudstore.Event }

// When is when it happened.
func (e eventRow) When() stamp { return stamp(e.Created) }

// By is who did it ("system" for the appliance itself).
func (e eventRow) By() string {
	if e.Username == nil {
		return "system"
	}
	return *e.Username
}

// entity names what the event is about ("database orders-sql"), "" for nothing.
func (e eventRow) entity() string {
	if e.Entity == nil {
		return ""
	}
	return e.Entity.Type + " " + e.Entity.Label
}

// events is GET /console/events (GET /account/events: the last 90 days, what the user's grants
// let them see). The page is cut by the domain (cloudsvc.ListEvents' window), so a long
// history is not decoded whole.
func (con *console) events(c *fiber.Ctx, who *cloudsvc.Caller) error {
	if err := allow(cloudsvc.NeedListEvents, who); err != nil {
		return err
	}
	const path = "/console/events"
	list, err := con.Cloud.ListEvents(who.User, cloudsvc.EventQuery{Covered: true,
		Window: func(total int) (int, int) { w := newPager(c, path, total); return w.From, w.To }})
	if err != nil {
		return err
	}
	events, p := list.Events, newPager(c, path, list.Total)
	if !list.Windowed {
		events, p = paginate(c, path, list.Events)
	}
	v := eventsView{top: newTop(who, "events"), Pager: p}
	for _, e := range events {
		v.Events = append(v.Events, eventRow{e})
	}
	return con.render(c, http.StatusOK, "Events", web.PageOf(eventsPage, v))
}

// billingView is the billing page's data: the account's invoices and payments, newest first,
// each list capped at a page.
type billingView struct {
	top
	Invoices      []invoiceRow
	InvoicesTotal int
	Payments      []paymentRow
	PaymentsTotal int
}

// invoiceRow is an invoice as the list shows it.
type invoiceRow struct{ cloudstore.Invoice }

// On is the invoice's date.
func (i invoiceRow) On() stamp { return stamp(i.Date) }

// Total is what the invoice charges, tax included.
func (i invoiceRow) Total() usd { return usd(i.TotalCents) }

// paymentRow is a payment as the list shows it.
type paymentRow struct{ cloudstore.Payment }

// On is the payment's date.
func (p paymentRow) On() stamp { return stamp(p.Date) }

// Amount is what was paid.
func (p paymentRow) Amount() usd { return usd(p.USDCents) }

// billing is GET /console/billing (GET /account/invoices and /account/payments: the
// account_access grant).
func (con *console) billing(c *fiber.Ctx, who *cloudsvc.Caller) error {
	if err := allow(cloudsvc.NeedListInvoices, who); err != nil {
		return err
	}
	if err := allow(cloudsvc.NeedListPayments, who); err != nil {
		return err
	}
	invoices, err := con.Cloud.Invoices(who.User.AccountID)
	if err != nil {
		return err
	}
	payments, err := con.Cloud.Payments(who.User.AccountID)
	if err != nil {
		return err
	}
	v := billingView{top: newTop(who, "billing"), InvoicesTotal: len(invoices), PaymentsTotal: len(payments)}
	for i := len(invoices) - 1; i >= 0 && len(v.Invoices) < pageSize; i-- {
		v.Invoices = append(v.Invoices, invoiceRow{invoices[i]})
	}
	for i := len(payments) - 1; i >= 0 && len(v.Payments) < pageSize; i-- {
		v.Payments = append(v.Payments, paymentRow{payments[i]})
	}
	return con.render(c, http.StatusOK, "Billing", web.PageOf(billingPage, v))
}
