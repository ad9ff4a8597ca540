package explorerapi

import (
	"net/url"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/builddoc/resultlist"
	"github.com/pocketforge/pocketforge/explorersvc"
)

// The build results of a followed project, from the explorer's cache, as the build service's
// resultlist XML (seed: "XML: resultlist with state attribute"), and the build backend's
// configuration as JSON.

// projectResults answers GET /api/projects/<project>/_result?repos=&archs=&status=: the
// cache's results of the project, filtered. repos, archs and status each take a comma list,
// repeated or not; lastbuild and oldstate are refused (explorersvc.ResultFilter says why).
func (a *api) projectResults(c *fiber.Ctx) error {
	args := c.Context().QueryArgs()
	f := explorersvc.ResultFilter{Repositories: resultsList(c, "repos"), Archs: resultsList(c, "archs"),
		Codes: resultsList(c, "status"), LastBuild: string(args.Peek("lastbuild")), OldState: string(args.Peek("oldstate"))}
	res, err := a.Explorer.BuildResults(resultsProject(c), f)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	return c.Send(wholeDocs.render(res))
}

// wholeDocs keeps the rendered document of each project's whole answer by its results'
// Version, so the common question — a project's results, unfiltered, asked again and again by
// badges, monitors and osc-like pollers between two farm changes — costs a map lookup instead
// of a render and an MD5 of the whole document (most of a 500-package answer's time).
// Versions are unique in the process, so one memo serves every Service; it forgets everything
// when it holds resultDocsMax documents.
var wholeDocs = resultDocs{m: map[string]resultDoc{}}

const resultDocsMax = 1024

type resultDocs struct {
	mu sync.Mutex
	m  map[string]resultDoc
}

type resultDoc struct {
	version uint64
	body    []byte // never modified once stored: fiber's Send copies it
}

// render is renderResultList(p), from the memo when p is a whole answer rendered before.
func (d *resultDocs) render(p explorersvc.ProjectResults) []byte {
	if p.Version == 0 {
		return renderResultList(p)
	}
	d.mu.Lock()
	doc, ok := d.m[p.Project]
	d.mu.Unlock()
	if ok && doc.version == p.Version {
		return doc.body
	}
	body := renderResultList(p)
	d.mu.Lock()
	if len(d.m) >= resultDocsMax {
		clear(d.m)
	}
	if cur, ok := d.m[p.Project]; !ok || cur.version < p.Version {
		d.m[p.Project] = resultDoc{version: p.Version, body: body}
	}
	d.mu.Unlock()
	return body
}

// resultsProject is the project named in the path, percent-decoded (home%3Aalice and
// home:alice name the same project).
func resultsProject(c *fiber.Ctx) string {
	raw := c.Params("project")
	if s, err := url.PathUnescape(raw); err == nil {
		return s
	}
	return raw
}

// resultsList is every value of a comma-list parameter, which may also be repeated
// (repos=a,b&repos=c); empty entries are dropped.
func resultsList(c *fiber.Ctx, name string) []string {
	var out []string
	for _, v := range c.Context().QueryArgs().PeekMulti(name) {
		for _, part := range strings.Split(string(v), ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// renderResultList writes the resultlist document of OBS's buildresult.rng as the build
// service's GET /build/<p>/_result writes it, with the same Writer (builddoc/resultlist): each
// result's repository state as code and state, dirty="true" when the scheduler has yet to
// recalculate it, each package's status with its details, and the state attribute, so an
// unfiltered answer's state equals the build API's for the same results and changes exactly
// when something a client sees does.
func renderResultList(p explorersvc.ProjectResults) []byte {
	n := 0
	for i := range p.Results {
		n += len(p.Results[i].Statuses)
	}
	w := resultlist.NewWriter(resultlist.Views{Status: true}, resultlist.Estimate(len(p.Results), n))
	for i := range p.Results {
		r := &p.Results[i]
		w.Result(resultlist.Header{Project: p.Project, Repository: r.Repository, Arch: r.Arch,
			Code: r.Code, Details: r.Details, Dirty: r.Dirty})
		for j := range r.Statuses {
			st := &r.Statuses[j]
			w.Status(st.Package, st.Code, st.Details)
		}
	}
	body, _ := w.Done()
	return body
}
