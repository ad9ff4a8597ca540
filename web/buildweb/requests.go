package buildweb

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/requests"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/web"
)

// Requests, read-only: a list by state (and project), and one request with its actions, state,
// reviews and history — buildsvc's request reads, as an outsider may see them.

// requestStates are the states the list offers, in the build service's words; the list shows
// the open ones unless ?state= names others.
var requestStates = []string{"new", "review", "accepted", "declined", "revoked", "superseded"}

// requestsView is the data of requestsPage.
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
	f := requests.RequestFilter{Project: v.Project, States: []string{"new", "review"}}
	if v.State != "" {
		f.States = strings.Split(v.State, ",")
	}
	v.States = f.States
	list, err := h.Build.Requests.RequestCollection(anonymous, f)
	if err != nil {
		return err
	}
	v.Total = len(list)
	for i := len(list) - 1; i >= 0 && len(v.Requests) < maxListed; i-- {
		v.Requests = append(v.Requests, list[i])
	}
	return h.renderRequests(c, "Requests", web.PageOf(requestsPage, v))
}

// requestView is the data of requestPage.
type requestView struct {
	buildstore.Request
}

// packageRefURL is the page of a package an action names ("" when it names none).
func packageRefURL(project, pkg string) string {
	if project == "" || pkg == "" {
		return ""
	}
	return packageURL(project, pkg)
}

// actionsText is a request's actions in one line: "submit → devel:tools/forge-utils; …".
func actionsText(actions []buildstore.RequestAction) string {
	var b strings.Builder
	for i, a := range actions {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(a.Type)
		if t := a.Target; t != nil {
			b.WriteString(" → " + t.Project)
			if t.Package != "" {
				b.WriteString("/" + t.Package)
			}
		}
	}
	return b.String()
}

// roles names the person and group an action adds or removes (" person bob maintainer").
func roles(a buildstore.RequestAction) string {
	s := ""
	if p := a.Person; p != nil {
		s += " person " + p.Name + " " + p.Role
	}
	if g := a.Group; g != nil {
		s += " group " + g.Name + " " + g.Role
	}
	return s
}

// reviewer is whom a review is asked of: "user carol", "group pocket-reviewers",
// "project devel:tools/forge-utils".
func reviewer(r buildstore.Review) string {
	s := ""
	if r.ByUser != "" {
		s += "user " + r.ByUser
	}
	if r.ByGroup != "" {
		s += "group " + r.ByGroup
	}
	if r.ByProject != "" {
		s += "project " + r.ByProject
	}
	if r.ByPackage != "" {
		s += "/" + r.ByPackage
	}
	return s
}

// request answers GET /change-requests/<id>.
func (h *handlers) request(c *fiber.Ctx) error {
	raw := c.Params("id")
	id, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		return fault.NotFound("not_found", "no request '%s'", raw)
	}
	r, err := h.Build.Requests.Request(anonymous, id)
	if err != nil {
		return err
	}
	return h.renderRequests(c, "Request "+raw, web.PageOf(requestPage, requestView{r}))
}
