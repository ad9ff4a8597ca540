package buildweb

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Requests, read-only: a list by state (and project), and one request with its actions, state,
// reviews and history — buildsvc's request reads, as an outsider may see them.

// requestStates are the states the list offers, in the build service's words; the list shows
// the open ones unless ?state= names others.
var requestStates = []string{"new", "review", "accepted", "declined", "revoked", "superseded"}

// requestsView is the data of requests.html.
type requestsView struct {
	States        []string
	State         string // the ?state= asked for ("" for the open requests)
	Project       string
	Requests      []buildstore.Request
	Total         int
	KnownStates   []string
	DefaultStates string
}

// requests answers GET /change-requests[?state=a,b&project=p]: newest first, at most maxListed.
func (h *handlers) requests(c *fiber.Ctx) error {
	v := requestsView{State: c.Query("state"), Project: c.Query("project"), KnownStates: requestStates, DefaultStates: "new, review"}
	f := buildsvc.RequestFilter{Project: v.Project, States: []string{"new", "review"}}
	if v.State != "" {
		f.States = strings.Split(v.State, ",")
	}
	v.States = f.States
	list, err := h.Build.RequestCollection(anonymous, f)
	if err != nil {
		return err
	}
	v.Total = len(list)
	for i := len(list) - 1; i >= 0 && len(v.Requests) < maxListed; i-- {
		v.Requests = append(v.Requests, list[i])
	}
	return h.render(c, "requests.html", "Requests", v)
}

// requestView is the data of request.html.
type requestView struct {
	buildstore.Request
}

// PackageURL is the page of a package an action names ("" when it names none).
func (requestView) PackageURL(project, pkg string) string {
	if project == "" || pkg == "" {
		return ""
	}
	return packageURL(project, pkg)
}

// ProjectURL is the page of a project an action names.
func (requestView) ProjectURL(project string) string { return projectURL(project) }

// request answers GET /change-requests/<id>.
func (h *handlers) request(c *fiber.Ctx) error {
	raw := c.Params("id")
	id, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		return fault.NotFound("not_found", "no request '%s'", raw)
	}
	r, err := h.Build.Request(anonymous, id)
	if err != nil {
		return err
	}
	return h.render(c, "request.html", "Request "+raw, requestView{r})
}
