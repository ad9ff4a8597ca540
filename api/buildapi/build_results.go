package buildapi

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildfarm/resolve"
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
	q := farm.ResultQuery{Packages: queryAll(c, "package"), Repositories: queryAll(c, "repository"),
		Archs: queryAll(c, "arch"), LastBuild: boolParam(c, "lastbuild"), Binaries: views.binaries}
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

// renderResults renders the _result document (build-notes §3, buildresult.rng) and its state:
// the hash of the document rendered without it, so the state changes exactly when something a
// client sees does. It writes the XML by hand: encoding/xml's reflection was most of the time
// of a large project's answer (BenchmarkBuildResult).
func renderResults(res []farm.WhereResult, v resultViews) ([]byte, string) {
	var b bytes.Buffer
	const head = `<resultlist state="`
	b.WriteString(head + `">` + "\n")
	for _, r := range res {
		b.WriteString(`  <result project="`)
		attr(&b, r.Where.Project)
		b.WriteString(`" repository="`)
		attr(&b, r.Where.Repository)
		b.WriteString(`" arch="`)
		attr(&b, r.Where.Arch)
		b.WriteString(`" code="`)
		attr(&b, r.Code)
		b.WriteString(`" state="`)
		attr(&b, r.Code)
		if r.Dirty {
			b.WriteString(`" dirty="true`)
		}
		if r.Details != "" {
			b.WriteString(`" details="`)
			attr(&b, r.Details)
		}
		b.WriteString(`">` + "\n")
		counts := map[string]int{}
		var order []string
		for _, st := range r.Statuses {
			if counts[st.Code] == 0 {
				order = append(order, st.Code)
			}
			counts[st.Code]++
			if !v.status {
				continue
			}
			b.WriteString(`    <status package="`)
			attr(&b, st.Package)
			b.WriteString(`" code="`)
			attr(&b, st.Code)
			if st.Details == "" {
				b.WriteString(`"/>` + "\n")
				continue
			}
			b.WriteString(`">` + "\n      <details>")
			_ = xml.EscapeText(&b, []byte(st.Details))
			b.WriteString("</details>\n    </status>\n")
		}
		if v.binaries {
			for _, st := range r.Statuses {
				b.WriteString(`    <binarylist package="`)
				attr(&b, st.Package)
				b.WriteString(`">` + "\n")
				for _, bin := range r.Binaries[st.Package] {
					b.WriteString(`      <binary filename="`)
					attr(&b, bin.Filename)
					fmt.Fprintf(&b, `" size="%d" mtime="%d"/>`+"\n", bin.Size, bin.MTime.Unix())
				}
				b.WriteString("    </binarylist>\n")
			}
		}
		if v.summary {
			b.WriteString("    <summary>\n")
			for _, code := range order {
				b.WriteString(`      <statuscount code="`)
				attr(&b, code)
				fmt.Fprintf(&b, `" count="%d"/>`+"\n", counts[code])
			}
			b.WriteString("    </summary>\n")
		}
		b.WriteString("  </result>\n")
	}
	b.WriteString("</resultlist>\n")
	state := resolve.StateHash(b.String())
	out := make([]byte, 0, b.Len()+len(state))
	out = append(append(append(out, head...), state...), b.Bytes()[len(head):]...)
	return out, state
}

// attr writes s escaped for an attribute value in double quotes.
func attr(b *bytes.Buffer, s string) { _ = xml.EscapeText(b, []byte(s)) }

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
