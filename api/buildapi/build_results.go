package buildapi

import (
	"context"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/builddoc/resultlist"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// The /build routes of results, statuses, logs, histories and build control, and the legacy
// /result routes. The literal routes (_workerstatus, _result, _log, …) come before the
// directory routes whose parameters would take them.
func (a *api) bindBuild(r fiber.Router) {
	a.get(r, "/build/_workerstatus", a.workerStatus)
	a.get(r, "/build", a.buildProjects) // also /build/ (StrictRouting is off)
	a.get(r, "/build/:project/_result", a.buildResults)
	r.Post("/build/:project", a.authenticated, a.controlBuilds)
	a.get(r, "/build/:project", a.buildRepositories)
	a.get(r, "/build/:project/:repository/:arch/_jobhistory", a.jobHistory)
	a.get(r, "/build/:project/:repository/:arch/:package/_status", a.packageStatus)
	a.get(r, "/build/:project/:repository/:arch/:package/_reason", a.packageReason)
	a.get(r, "/build/:project/:repository/:arch/:package/_jobstatus", a.packageJobStatus)
	a.get(r, "/build/:project/:repository/:arch/:package/_history", a.packageHistory)
	a.get(r, "/build/:project/:repository/:arch/:package/_log", a.packageLog)
	a.get(r, "/build/:project/:repository/:arch", a.buildPackages)
	a.get(r, "/build/:project/:repository", a.buildArchs)
	a.bindLegacyResults(r)
}

// whereOf is the where a /build path names.
func whereOf(c *fiber.Ctx) buildstore.Where {
	return buildstore.Where{Project: pathParam(c, "project"), Repository: pathParam(c, "repository"), Arch: pathParam(c, "arch")}
}

// queryAll is every value of a repeatable query parameter.
func queryAll(c *fiber.Ctx, name string) []string {
	var out []string
	for _, v := range c.Context().QueryArgs().PeekMulti(name) {
		out = append(out, string(v))
	}
	return out
}

// buildProjects lists the projects with build results (GET /build/).
func (a *api) buildProjects(c *fiber.Ctx) error {
	names, err := a.Farm.FarmProjects(personOf(c))
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// buildRepositories lists a project's repositories (GET /build/<project>).
func (a *api) buildRepositories(c *fiber.Ctx) error {
	names, err := a.Farm.FarmRepositories(personOf(c), pathParam(c, "project"))
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// buildArchs lists a repository's architectures (GET /build/<project>/<repository>).
func (a *api) buildArchs(c *fiber.Ctx) error {
	names, err := a.Farm.FarmArchs(personOf(c), pathParam(c, "project"), pathParam(c, "repository"))
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// buildPackages lists the packages built in a repository and arch (GET /build/<p>/<r>/<a>).
func (a *api) buildPackages(c *fiber.Ctx) error {
	names, err := a.Farm.FarmPackages(personOf(c), whereOf(c))
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// parseResultViews reads the parts of a result a request asks for (view=, repeatable; status
// when none is named).
func parseResultViews(c *fiber.Ctx) (resultlist.Views, error) {
	views := queryAll(c, "view")
	if len(views) == 0 {
		return resultlist.Views{Status: true}, nil
	}
	var v resultlist.Views
	for _, name := range views {
		switch name {
		case "status":
			v.Status = true
		case "summary":
			v.Summary = true
		case "binarylist":
			v.Binaries = true
		default:
			return v, buildsvc.BadRequest("invalid_parameter", "unknown view '%s': status, summary or binarylist", name)
		}
	}
	return v, nil
}

// buildResults answers GET /build/<project>/_result; with oldstate= it waits until the answer
// changes (osc results -w), at most a minute, and answers the current state then.
func (a *api) buildResults(c *fiber.Ctx) error {
	views, err := parseResultViews(c)
	if err != nil {
		return err
	}
	q := farm.ResultQuery{Packages: queryAll(c, "package"), Repositories: queryAll(c, "repository"),
		Archs: queryAll(c, "arch"), LastBuild: boolParam(c, "lastbuild"), Binaries: views.Binaries}
	ctx := context.Background()
	if c.Query("oldstate") != "" {
		var stop func()
		ctx, stop = requestContext(c)
		defer stop()
	}
	var body []byte
	hash := func(res []farm.WhereResult) string {
		var state string
		body, state = renderResults(res, views)
		return state
	}
	if _, err := a.Farm.WaitResults(ctx, personOf(c), pathParam(c, "project"), q, c.Query("oldstate"), hash); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	return c.Send(body)
}

// renderResults renders the _result document (build-notes §3, buildresult.rng) and its state
// with resultlist's Writer, fed straight from the results (the document's rules, its state
// included, are resultlist's: the explorer writes it with the same Writer).
func renderResults(res []farm.WhereResult, v resultlist.Views) ([]byte, string) {
	n := 0
	for i := range res {
		n += len(res[i].Statuses)
	}
	w := resultlist.NewWriter(v, resultlist.Estimate(len(res), n))
	for i := range res {
		r := &res[i]
		w.Result(resultlist.Header{Project: r.Where.Project, Repository: r.Where.Repository, Arch: r.Where.Arch,
			Code: r.Code, Details: r.Details, Dirty: r.Dirty})
		for j := range r.Statuses {
			st := &r.Statuses[j]
			w.Status(st.Package, st.Code, st.Details)
		}
		if v.Binaries {
			for j := range r.Statuses {
				pkg := r.Statuses[j].Package
				w.BinaryList(pkg)
				for _, bin := range r.Binaries[pkg] {
					w.Binary(bin.Filename, bin.Size, bin.MTime.Unix())
				}
			}
		}
	}
	return w.Done()
}

// requestContext is a context that ends when the server shuts down or the client closes its
// connection, for the requests that wait (result long-polls); stop releases it.
func requestContext(c *fiber.Ctx) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := c.Context().Done()
	conn := c.Context().Conn()
	go func() {
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-done:
				cancel()
				return
			case <-t.C:
				if peerClosed(conn) {
					cancel()
					return
				}
			}
		}
	}()
	return ctx, cancel
}

// formatUnix is a time as the backend writes it: seconds since the epoch ("" for no time).
func formatUnix(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return strconv.FormatInt(t.Unix(), 10)
}
