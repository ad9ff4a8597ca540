package applianceweb

import (
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/outbox"
	"github.com/pocketforge/pocketforge/web"
)

// pageLimit caps a list page: a journal row is a few hundred bytes, and a page stays under
// 100 KB. GET /_appliance/requests and /outbox give more (up to 100000).
const pageLimit = 200

// requestsView is the journal page's data.
type requestsView struct {
	Tab      string
	Filter   Filter
	Requests []Request
	Capacity int
	// StatusText is the status filter as typed ("" for none).
	StatusText string
	PageLimit  int
}

// APIs are the journal's API names the filter suggests (any other can be typed).
func (requestsView) APIs() []string { return []string{"cloud", "build", "explorer", "deploy", "web"} }

// requests shows the latest requests the APIs answered, newest first, with GET
// /_appliance/requests' filters: api, method, path (prefix), status (404, or 4 for every 4xx),
// limit (default 100, at most pageLimit here).
func (h *handlers) requests(c *fiber.Ctx) error {
	limit, err := queryInt(c, "limit", 100, 1, pageLimit)
	if err != nil {
		return err
	}
	status, err := queryInt(c, "status", 0, 0, 599)
	if err != nil {
		return err
	}
	f := Filter{API: c.Query("api"), Method: c.Query("method"), PathPrefix: c.Query("path"), Status: status, Limit: limit}
	v := requestsView{Tab: "requests", Filter: f, StatusText: c.Query("status"), PageLimit: pageLimit}
	if h.Requests != nil {
		v.Requests, v.Capacity = h.Requests(f)
	}
	return h.Site.Render(c, http.StatusOK, "Request journal", web.SectionAppliance, web.PageOf(requestsPage, v))
}

// outboxView is the outbox page's data.
type outboxView struct {
	Tab       string
	To        string
	Limit     int
	Mails     []outbox.Mail
	PageLimit int
}

// outbox lists the e-mails the APIs sent, newest first (subjects; each opens on its own page),
// with GET /_appliance/outbox's filters: to (an address), limit.
func (h *handlers) outbox(c *fiber.Ctx) error {
	limit, err := queryInt(c, "limit", 50, 1, pageLimit)
	if err != nil {
		return err
	}
	v := outboxView{Tab: "outbox", To: c.Query("to"), Limit: limit, PageLimit: pageLimit}
	if v.Mails, err = h.Appliance.Outbox(v.To, limit); err != nil {
		return err
	}
	return h.Site.Render(c, http.StatusOK, "Outbox", web.SectionAppliance, web.PageOf(outboxPage, v))
}

// mailView is one e-mail's page.
type mailView struct {
	Tab  string
	Mail outbox.Mail
}

// mail shows one e-mail whole; an unknown id is the site's 404.
func (h *handlers) mail(c *fiber.Ctx) error {
	id, err := strconv.ParseUint(c.Params("id"), 10, 64)
	if err != nil {
		return fiber.NewError(http.StatusNotFound, "No such e-mail: ids are numbers.")
	}
	m, err := h.Appliance.Mail(id)
	if err != nil {
		return err
	}
	return h.Site.Render(c, http.StatusOK, m.Subject, web.SectionAppliance, web.PageOf(mailPage, mailView{Tab: "outbox", Mail: m}))
}

// queryInt reads an optional integer query parameter within [lo, hi]; anything else is a 400
// page saying what is wanted.
func queryInt(c *fiber.Ctx, name string, def, lo, hi int) (int, error) {
	raw := c.Query(name)
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		return 0, fiber.NewError(http.StatusBadRequest, name+" must be a whole number from "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi)+".")
	}
	return n, nil
}
