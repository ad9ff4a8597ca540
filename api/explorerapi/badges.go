package explorerapi

import (
	"errors"
	"hash/crc32"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/badges"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/web"
)

// The badges: GET /badge/<project>.svg, /badge/<project>/<package>.svg and
// /badge/<project>/_table.svg, drawn by package badges from the explorer's results cache.
// Every request is answered 200 with an SVG (seed: "Status 200 always"): anything that keeps a
// badge from being drawn — a malformed address, an unknown or hidden project, an unknown
// package, results that cannot be read — draws the grey error badge instead, with the reason
// in its title.

// badgeCacheControl carries the seed's badge cache time.
const badgeCacheControl = "public, max-age=30"

// badgeRequest is one badge request, parsed and with its defaults applied: what the drawing
// depends on besides the results.
type badgeRequest struct {
	kind         byte // 'p' project badge, 'k' package badge, 't' table
	project, pkg string
	repos, archs []string
	label        string
	table        badges.TableOptions
	malformed    string // why the address names no badge ("" when it does)
}

// key identifies the drawing of r (results aside); it is "" when r is not worth keeping (a
// label too long to be a real one).
func (r *badgeRequest) key() string {
	if len(r.label) > 256 {
		return ""
	}
	var b strings.Builder
	b.WriteByte(r.kind)
	for _, s := range []string{r.project, r.pkg, strings.Join(r.repos, ","), strings.Join(r.archs, ","), r.label} {
		b.WriteByte(0)
		b.WriteString(s)
	}
	b.WriteByte(0)
	b.WriteString(strconv.FormatBool(r.table.Compact) + " " + strconv.Itoa(r.table.MaxPackages) + " " + strconv.Itoa(r.table.MaxRepos))
	return b.String()
}

// parseBadge reads a badge request from the path after /badge/ (raw: each segment is
// percent-decoded after the split, so an encoded slash stays inside its name) and the query.
func parseBadge(c *fiber.Ctx) *badgeRequest {
	r := &badgeRequest{repos: resultsList(c, "repos"), archs: resultsList(c, "archs")}
	segs := strings.Split(c.Params("*"), "/")
	for i, s := range segs {
		if u, err := url.PathUnescape(s); err == nil {
			segs[i] = u
		}
	}
	last := segs[len(segs)-1]
	switch {
	case len(segs) == 2 && last == "_table.svg" && segs[0] != "":
		r.kind, r.project = 't', segs[0]
	case len(segs) == 1 && strings.HasSuffix(last, ".svg") && last != ".svg":
		r.kind, r.project = 'p', strings.TrimSuffix(last, ".svg")
	case len(segs) == 2 && strings.HasSuffix(last, ".svg") && last != ".svg" && segs[0] != "":
		r.kind, r.project, r.pkg = 'k', segs[0], strings.TrimSuffix(last, ".svg")
	default:
		r.malformed = "not a badge address: /badge/<project>.svg, /badge/<project>/<package>.svg or /badge/<project>/_table.svg"
	}
	args := c.Context().QueryArgs()
	r.label = string(args.Peek("label"))
	if r.label == "" {
		r.label = r.pkg
		if r.kind != 'k' {
			r.label = badges.DefaultLabel
		}
	}
	if r.kind == 't' {
		r.label = r.project
		r.table = badges.TableOptions{Compact: queryBool(args.Peek("compact")),
			MaxPackages: queryLimit(args.Peek("max_packages"), badges.DefaultMaxPackages, badges.MaxPackages),
			MaxRepos:    queryLimit(args.Peek("max_repos"), badges.DefaultMaxRepos, badges.MaxRepos)}
	}
	return r
}

// queryBool is a boolean parameter: true for 1, t, true, yes and on (in any case), false for
// anything else, absence included.
func queryBool(v []byte) bool {
	switch strings.ToLower(string(v)) {
	case "1", "t", "true", "yes", "on":
		return true
	}
	return false
}

// queryLimit is a table limit: a whole number outside 1..max is taken as the nearest bound
// (0 and negative as 1), and a value that is not a whole number as the default — a badge in
// a README must still draw, so nothing is refused.
func queryLimit(v []byte, def, hi int) int {
	s := strings.TrimSpace(string(v))
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	switch {
	case errors.Is(err, strconv.ErrRange) && strings.HasPrefix(s, "-"):
		return 1
	case errors.Is(err, strconv.ErrRange):
		return hi
	case err != nil:
		return def
	}
	return min(max(n, 1), hi)
}

// badgeCache keeps the drawings of the whole-results answers by request and results Version,
// so the common question — the same README badge asked for again and again between two farm
// changes — costs a map lookup. It forgets everything at badgeCacheMax entries.
type badgeCache struct {
	mu sync.Mutex
	m  map[string]drawn
	// off keeps nothing: the benchmarks that time drawing itself set it.
	off bool
}

const badgeCacheMax = 4096

type drawn struct {
	version uint64
	svg     []byte // never modified once stored
	etag    string
}

func (bc *badgeCache) get(key string, version uint64) (drawn, bool) {
	if key == "" || version == 0 || bc.off {
		return drawn{}, false
	}
	bc.mu.Lock()
	d, ok := bc.m[key]
	bc.mu.Unlock()
	return d, ok && d.version == version
}

func (bc *badgeCache) put(key string, d drawn) {
	if key == "" || d.version == 0 || bc.off {
		return
	}
	bc.mu.Lock()
	if bc.m == nil || len(bc.m) >= badgeCacheMax {
		bc.m = map[string]drawn{}
	}
	if cur, ok := bc.m[key]; !ok || cur.version < d.version {
		bc.m[strings.Clone(key)] = d // key may view the request's buffer, which is reused
	}
	bc.mu.Unlock()
}

// etagOf is a drawing's ETag: its CRC-32C (hardware-assisted, a tenth of FNV's time on a
// table) and its length.
func etagOf(svg []byte) string {
	return `"` + strconv.FormatUint(uint64(crc32.Checksum(svg, castagnoli)), 36) + "-" + strconv.Itoa(len(svg)) + `"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// badge answers every GET under /badge.
func (a *api) badge(c *fiber.Ctx) error {
	d := a.drawBadge(parseBadge(c))
	c.Set(fiber.HeaderContentType, "image/svg+xml")
	c.Set(fiber.HeaderCacheControl, badgeCacheControl)
	c.Set(fiber.HeaderETag, d.etag)
	if inm := c.Get(fiber.HeaderIfNoneMatch); inm != "" && etagMatches(inm, d.etag) {
		c.Status(fiber.StatusNotModified) // and no body: SendStatus would write one
		return nil
	}
	return c.Send(d.svg)
}

// etagMatches reports whether an If-None-Match list names etag (weakly: W/ prefixes are
// ignored, as RFC 9110 has If-None-Match compare).
func etagMatches(inm, etag string) bool {
	for _, t := range strings.Split(inm, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// drawBadge draws r: from the cache when the project's results have not changed since.
func (a *api) drawBadge(r *badgeRequest) drawn {
	if r.malformed != "" {
		return errorBadge(r.label, r.malformed)
	}
	whole, err := a.Explorer.BuildResults(r.project, explorersvc.ResultFilter{})
	if err != nil {
		why := "build results unavailable"
		if errors.Is(err, store.ErrNotFound) {
			why = err.Error()
		}
		return errorBadge(r.label, why)
	}
	key := r.key()
	if d, ok := a.badgeCache.get(key, whole.Version); ok {
		return d
	}
	narrow := whole.Narrow(explorersvc.ResultFilter{Repositories: r.repos, Archs: r.archs})
	if r.kind == 'k' && !badgePackageKnown(whole, r.pkg) {
		return errorBadge(r.label, "package '"+r.pkg+"' not found in project '"+r.project+"'")
	}
	links := a.badgeLinks()
	var svg []byte
	switch r.kind {
	case 'p':
		svg = badges.Project(r.project, r.label, badgeResults{&narrow}, links)
	case 'k':
		svg = badges.Package(r.project, r.pkg, r.label, packageStatuses(narrow, r.pkg), links)
	default:
		svg = badges.Table(r.project, badgeResults{&narrow}, r.table, links)
	}
	d := drawn{version: whole.Version, svg: svg, etag: etagOf(svg)}
	a.badgeCache.put(key, d)
	return d
}

func errorBadge(label, why string) drawn {
	svg := badges.ErrorBadge(label, why)
	return drawn{svg: svg, etag: etagOf(svg)}
}

// badgeResults reads a project's results in place as the badges' Results.
type badgeResults struct{ p *explorersvc.ProjectResults }

func (b badgeResults) Len() int { return len(b.p.Results) }

func (b badgeResults) Result(i int) (string, string, int) {
	r := &b.p.Results[i]
	return r.Repository, r.Arch, len(r.Statuses)
}

func (b badgeResults) Status(i, j int) (string, string) {
	st := &b.p.Results[i].Statuses[j]
	return st.Package, st.Code
}

// packageStatuses are pkg's statuses in p, for its badge. Each result names pkg at most once
// and, as the build service writes them, at the same place as the result before: that place is
// tried first, and the whole result searched only when pkg is elsewhere.
func packageStatuses(p explorersvc.ProjectResults, pkg string) []badges.Status {
	var out []badges.Status
	at := -1
	for _, r := range p.Results {
		if at < 0 || at >= len(r.Statuses) || r.Statuses[at].Package != pkg {
			at = slices.IndexFunc(r.Statuses, func(st explorersvc.PackageStatus) bool { return st.Package == pkg })
		}
		if at >= 0 {
			out = append(out, badges.Status{Package: pkg, Repository: r.Repository, Arch: r.Arch, Code: r.Statuses[at].Code})
		}
	}
	return out
}

// badgePackageKnown reports whether the whole results name pkg, or name no package at all (a
// project without repositories: its packages have no builds, and an unknown one cannot be
// told from them).
func badgePackageKnown(whole explorersvc.ProjectResults, pkg string) bool {
	if len(packageStatuses(whole, pkg)) > 0 {
		return true
	}
	for _, r := range whole.Results {
		if len(r.Statuses) > 0 {
			return false
		}
	}
	return true
}

// badgeLinks are the web interface's pages the badges link to, at the external URL.
func (a *api) badgeLinks() badges.Links {
	base := ""
	if a.ExternalURL != nil {
		base = a.ExternalURL()
	}
	return badges.Links{
		Monitor: func(project, pkg, state string) string { return web.MonitorURL(base, project, pkg, state) },
		Log:     func(project, pkg, repo, arch string) string { return web.LogURL(base, project, pkg, repo, arch) },
	}
}
