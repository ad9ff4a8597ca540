package explorerapi

import (
	"bytes"
	"encoding/xml"
	"net/url"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildfarm/resolve"
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
// service's GET /build/<p>/_result writes it (each result's repository state as code and
// state, dirty="true" when the scheduler has yet to recalculate it, each package's status with
// its details), and its state attribute the same way: the hash of the document written
// without it (resolve.StateHash), so an unfiltered answer's state equals the build API's for
// the same results and changes exactly when something a client sees does.
func renderResultList(p explorersvc.ProjectResults) []byte {
	var b bytes.Buffer
	n := 64
	for _, r := range p.Results {
		n += 128 + len(r.Statuses)*64
	}
	b.Grow(n)
	const head = `<resultlist state="`
	b.WriteString(head + `">` + "\n")
	for _, r := range p.Results {
		b.WriteString(`  <result project="`)
		resultsAttr(&b, p.Project)
		b.WriteString(`" repository="`)
		resultsAttr(&b, r.Repository)
		b.WriteString(`" arch="`)
		resultsAttr(&b, r.Arch)
		b.WriteString(`" code="`)
		resultsAttr(&b, r.Code)
		b.WriteString(`" state="`)
		resultsAttr(&b, r.Code)
		if r.Dirty {
			b.WriteString(`" dirty="true`)
		}
		if r.Details != "" {
			b.WriteString(`" details="`)
			resultsAttr(&b, r.Details)
		}
		b.WriteString(`">` + "\n")
		for _, st := range r.Statuses {
			b.WriteString(`    <status package="`)
			resultsAttr(&b, st.Package)
			b.WriteString(`" code="`)
			resultsAttr(&b, st.Code)
			if st.Details == "" {
				b.WriteString(`"/>` + "\n")
				continue
			}
			b.WriteString(`">` + "\n      <details>")
			resultsAttr(&b, st.Details)
			b.WriteString("</details>\n    </status>\n")
		}
		b.WriteString("  </result>\n")
	}
	b.WriteString("</resultlist>\n")
	state := resolve.StateHash(b.String())
	out := make([]byte, 0, b.Len()+len(state))
	return append(append(append(out, head...), state...), b.Bytes()[len(head):]...)
}

// resultsAttr writes s escaped for an attribute value in double quotes, or for text: exactly
// what xml.EscapeText writes, but a string of printable ASCII with nothing to escape — nearly
// every package name, code and repository — is copied as it is, without EscapeText's
// conversion and byte-by-byte writes (they were most of a 500-package render).
func resultsAttr(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\'', c == '&', c == '<', c == '>':
			_ = xml.EscapeText(b, []byte(s))
			return
		}
	}
	b.WriteString(s)
}
