package buildapi

import (
	"context"
	"encoding/xml"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildfarm/resolve"
	"github.com/pocketforge/pocketforge/buildsvc"
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
	names, err := a.Svc.FarmProjects(personOf(c))
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// buildRepositories lists a project's repositories (GET /build/<project>).
func (a *api) buildRepositories(c *fiber.Ctx) error {
	names, err := a.Svc.FarmRepositories(personOf(c), pathParam(c, "project"))
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// buildArchs lists a repository's architectures (GET /build/<project>/<repository>).
func (a *api) buildArchs(c *fiber.Ctx) error {
	names, err := a.Svc.FarmArchs(personOf(c), pathParam(c, "project"), pathParam(c, "repository"))
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// buildPackages lists the packages built in a repository and arch (GET /build/<p>/<r>/<a>).
func (a *api) buildPackages(c *fiber.Ctx) error {
	names, err := a.Svc.FarmPackages(personOf(c), whereOf(c))
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// resultList is the _result document (build-notes §3, buildresult.rng).
type resultList struct {
	XMLName xml.Name      `xml:"resultlist"`
	State   string        `xml:"state,attr"`
	Results []whereResult `xml:"result"`
}

type whereResult struct {
	Project    string             `xml:"project,attr"`
	Repository string             `xml:"repository,attr"`
	Arch       string             `xml:"arch,attr"`
	Code       string             `xml:"code,attr"`
	State      string             `xml:"state,attr"`
	Dirty      string             `xml:"dirty,attr,omitempty"`
	Details    string             `xml:"details,attr,omitempty"`
	Statuses   []packageResult    `xml:"status"`
	Binaries   []resultBinaryList `xml:"binarylist"`
	Summary    *resultSummary     `xml:"summary"`
}

type packageResult struct {
	Package string `xml:"package,attr"`
	Code    string `xml:"code,attr"`
	Details string `xml:"details,omitempty"`
}

type resultBinaryList struct {
	Package  string         `xml:"package,attr"`
	Binaries []resultBinary `xml:"binary"`
}

type resultBinary struct {
	Filename string `xml:"filename,attr"`
	Size     int64  `xml:"size,attr"`
	MTime    int64  `xml:"mtime,attr"`
}

type resultSummary struct {
	Counts []statusCount `xml:"statuscount"`
}

type statusCount struct {
	Code  string `xml:"code,attr"`
	Count int    `xml:"count,attr"`
}

// resultViews are the parts of a result a request asks for (view=, repeatable; status when
// none is named).
type resultViews struct{ status, summary, binaries bool }

func parseResultViews(c *fiber.Ctx) (resultViews, error) {
	views := queryAll(c, "view")
	if len(views) == 0 {
		return resultViews{status: true}, nil
	}
	var v resultViews
	for _, name := range views {
		switch name {
		case "status":
			v.status = true
		case "summary":
			v.summary = true
		case "binarylist":
			v.binaries = true
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
	q := buildsvc.ResultQuery{Packages: queryAll(c, "package"), Repositories: queryAll(c, "repository"),
		Archs: queryAll(c, "arch"), LastBuild: boolParam(c, "lastbuild"), Binaries: views.binaries}
	ctx, stop := requestContext(c)
	defer stop()
	hash := func(res []buildsvc.WhereResult) string { _, state := renderResults(res, views); return state }
	res, err := a.Svc.WaitResults(ctx, personOf(c), pathParam(c, "project"), q, c.Query("oldstate"), hash)
	if err != nil {
		return err
	}
	doc, _ := renderResults(res, views)
	return sendXML(c, doc)
}

// renderResults renders the results and their state: the hash of the rendered document
// without the state, so it changes exactly when something a client sees does.
func renderResults(res []buildsvc.WhereResult, v resultViews) (resultList, string) {
	doc := resultList{Results: make([]whereResult, 0, len(res))}
	for _, r := range res {
		out := whereResult{Project: r.Where.Project, Repository: r.Where.Repository, Arch: r.Where.Arch,
			Code: r.Code, State: r.Code, Details: r.Details}
		if r.Dirty {
			out.Dirty = "true"
		}
		counts := map[string]int{}
		var order []string
		for _, st := range r.Statuses {
			if v.status {
				out.Statuses = append(out.Statuses, packageResult{Package: st.Package, Code: st.Code, Details: st.Details})
			}
			if counts[st.Code] == 0 {
				order = append(order, st.Code)
			}
			counts[st.Code]++
			if v.binaries {
				bl := resultBinaryList{Package: st.Package}
				for _, b := range r.Binaries[st.Package] {
					bl.Binaries = append(bl.Binaries, resultBinary{Filename: b.Filename, Size: b.Size, MTime: b.MTime.Unix()})
				}
				out.Binaries = append(out.Binaries, bl)
			}
		}
		if v.summary {
			out.Summary = &resultSummary{}
			for _, code := range order {
				out.Summary.Counts = append(out.Summary.Counts, statusCount{Code: code, Count: counts[code]})
			}
		}
		doc.Results = append(doc.Results, out)
	}
	body, _ := xml.Marshal(doc)
	doc.State = resolve.StateHash(string(body))
	return doc, doc.State
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
