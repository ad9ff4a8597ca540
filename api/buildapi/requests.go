package buildapi

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/requestdoc"
	"github.com/pocketforge/pocketforge/buildsvc/requests"
	"github.com/pocketforge/pocketforge/buildsvc/xmlindent"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// The request routes (seed: "Requests"): create, read, Admin's replace, and the commands on one
// request. The listing (GET /request) is requests_collection.go's. Every rule is buildsvc's;
// this file reads parameters and documents and renders the request document.

// bindRequests registers POST /request and the routes of one request.
func (a *api) bindRequests(r fiber.Router) {
	r.Post("/request", a.authenticated, a.createRequest)
	a.get(r, "/request/:id", a.getRequest)
	r.Put("/request/:id", a.authenticated, a.putRequest)
	r.Post("/request/:id", a.authenticated, a.postRequest)
}

// sendRequests answers <collection matches="N"> with the documents of list: the bytes sendXML
// would write, from requestdoc's writer (listings of hundreds of requests spent more in
// encoding/xml than in the store).
func sendRequests(c *fiber.Ctx, matches int, list []buildstore.Request, h requestdoc.History) error {
	return sendWritten(c, xmlindent.Collection(make([]byte, 0, 64+len(list)*1024), matches, len(list),
		func(b []byte, i int) []byte { return requestdoc.Render(list[i], h).AppendIndented(b, 1) }))
}

// sendRequest answers one request's document.
func sendRequest(c *fiber.Ctx, r buildstore.Request, h requestdoc.History) error {
	return sendWritten(c, append(requestdoc.Render(r, h).AppendIndented(nil, 0), '\n'))
}

// requestID reads the :id path parameter; anything but a request number is OBS's 404.
func requestID(c *fiber.Ctx) (uint64, error) {
	raw := pathParam(c, "id")
	id, err := strconv.ParseUint(raw, 10, 64)
	if err != nil || id == 0 {
		return 0, fault.NotFound("not_found", "Couldn't find request with id '%s'", raw)
	}
	return id, nil
}

// historyMode reads withhistory and withfullhistory.
func historyMode(c *fiber.Ctx) requestdoc.History {
	switch {
	case boolParam(c, "withfullhistory"):
		return requestdoc.WithFullHistory
	case boolParam(c, "withhistory"):
		return requestdoc.WithHistory
	}
	return requestdoc.NoHistory
}

// parseRequest reads a posted request document; what the schema refuses is 400
// validation_failed with the schema's message.
func parseRequest(body []byte) (buildstore.Request, requestdoc.Request, error) {
	r, d, err := requestdoc.Parse(body)
	var se *requestdoc.SchemaError
	if errors.As(err, &se) {
		return r, d, buildsvc.Invalid("request", "%s", se.Msg)
	}
	return r, d, err
}

// createRequest is POST /request?cmd=create[&addrevision=1]: the new request's document.
func (a *api) createRequest(c *fiber.Ctx) error {
	if cmd := c.Query("cmd"); cmd != "create" {
		if cmd == "" {
			return buildsvc.BadRequest("missing_parameter", "POST /request needs cmd=create")
		}
		return buildsvc.BadRequest("illegal_request", "unsupported POST command %s to /request", cmd)
	}
	r, _, err := parseRequest(c.Body())
	if err != nil {
		return err
	}
	created, err := a.Requests.CreateRequest(personOf(c), r, boolParam(c, "addrevision"))
	if err != nil {
		return err
	}
	return sendRequest(c, created, requestdoc.NoHistory)
}

// getRequest is GET /request/<id>[?withhistory=1|withfullhistory=1].
func (a *api) getRequest(c *fiber.Ctx) error {
	id, err := requestID(c)
	if err != nil {
		return err
	}
	r, err := a.Requests.Request(personOf(c), id)
	if err != nil {
		return err
	}
	return sendRequest(c, r, historyMode(c))
}

// putRequest is Admin's PUT /request/<id>: the whole request from the body.
func (a *api) putRequest(c *fiber.Ctx) error {
	id, err := requestID(c)
	if err != nil {
		return err
	}
	who := personOf(c)
	r, d, err := parseRequest(c.Body())
	if err != nil {
		return err
	}
	if err := a.Requests.ReplaceRequest(who, id, r, d.State); err != nil {
		return err
	}
	out, err := a.Requests.Request(who, id)
	if err != nil {
		return err
	}
	return sendRequest(c, out, requestdoc.NoHistory)
}

// postRequest dispatches the commands on one request. The comment is comment= or, as osc sends
// it, the raw body.
func (a *api) postRequest(c *fiber.Ctx) error {
	id, err := requestID(c)
	if err != nil {
		return err
	}
	who := personOf(c)
	comment := strings.Clone(c.Query("comment"))
	if comment == "" {
		comment = string(c.Body())
	}
	by := buildsvc.Reviewer{User: strings.Clone(c.Query("by_user")), Group: strings.Clone(c.Query("by_group")),
		Project: strings.Clone(c.Query("by_project")), Package: strings.Clone(c.Query("by_package"))}
	switch cmd := c.Query("cmd"); cmd {
	case "diff":
		text, err := a.Requests.RequestDiff(who, id)
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
		return c.SendString(text)
	case "changestate":
		sc := requests.StateChange{NewState: strings.Clone(c.Query("newstate")), Comment: comment, Force: boolParam(c, "force")}
		if sc.NewState == "" {
			return buildsvc.BadRequest("missing_parameter", "changestate needs the parameter newstate")
		}
		if raw := c.Query("superseded_by"); raw != "" {
			if sc.SupersededBy, err = strconv.ParseUint(raw, 10, 64); err != nil {
				return buildsvc.BadRequest("invalid_parameter", "superseded_by '%s' is not a request number", raw)
			}
		}
		err = a.Requests.ChangeState(who, id, sc)
	case "addreview":
		err = a.Requests.AddReview(who, id, by, comment)
	case "changereviewstate":
		newstate := strings.Clone(c.Query("newstate"))
		if newstate == "" {
			return buildsvc.BadRequest("missing_parameter", "changereviewstate needs the parameter newstate")
		}
		err = a.Requests.ChangeReviewState(who, id, by, newstate, comment)
	case "assignreview":
		to := strings.Clone(c.Query("reviewer"))
		if to == "" {
			to, by.User = by.User, ""
		}
		err = a.Requests.AssignReview(who, id, by, to, comment)
	case "setpriority":
		err = a.Requests.SetPriority(who, id, strings.Clone(c.Query("priority")), comment)
	case "setincident":
		err = a.Requests.SetIncident(who, id, strings.Clone(c.Query("incident")), comment)
	case "setacceptat":
		var at *time.Time
		if at, err = acceptTime(c.Query("time")); err == nil {
			err = a.Requests.SetAcceptAt(who, id, at, comment)
		}
	case "":
		return buildsvc.BadRequest("missing_parameter", "POST /request/%d needs a cmd parameter", id)
	default:
		return buildsvc.BadRequest("illegal_request", "unsupported POST command %s to /request/%d", cmd, id)
	}
	return sendOKUnless(c, err)
}

// acceptTimeLayouts are the forms setacceptat's time takes (a zone-less time is UTC, the
// appliance's zone).
var acceptTimeLayouts = []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04:05 MST", "2006-01-02 15:04", "2006-01-02"}

// acceptTime reads setacceptat's time: nil when absent (now).
func acceptTime(raw string) (*time.Time, error) {
	if raw == "" {
		return nil, nil
	}
	for _, layout := range acceptTimeLayouts {
		if t, err := time.Parse(layout, strings.TrimSpace(raw)); err == nil {
			return &t, nil
		}
	}
	return nil, buildsvc.BadRequest("invalid_time", "time '%s' is not a date and time (for example 2026-12-01T12:00:00)", raw)
}
