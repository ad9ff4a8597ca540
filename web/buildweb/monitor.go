package buildweb

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/badges"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/web"
)

// The build monitor: a project's packages × repository/arch from the explorer's results cache
// (the badges' data), each cell in its badge colour, narrowed by the filters the badges link
// with (web.MonitorURL: ?package=, ?state=) and by ?repo= and ?arch=. monitor.js refreshes the
// matrix from /monitor/table, which answers 204 while the cache's version is the one shown.

// monitorRows is how many packages one page of the monitor shows (a page stays < 100 KB).
const monitorRows = 100

// monitorStates are the ?state= values: the badge states a package can be in.
var monitorStates = []string{badges.Failed.String(), badges.Blocked.String(), badges.Building.String(),
	badges.Passing.String(), badges.Inactive.String()}

// monitorFilter is what a monitor request narrows to.
type monitorFilter struct {
	Package, State, Repo, Arch string
	Page                       int
}

// Query is the filter as a query string ("" for none), without the page.
func (f monitorFilter) Query() string {
	q := ""
	add := func(k, v string) {
		if v == "" {
			return
		}
		if q == "" {
			q = "?"
		} else {
			q += "&"
		}
		q += k + "=" + url.QueryEscape(v)
	}
	add("package", f.Package)
	add("state", f.State)
	add("repo", f.Repo)
	add("arch", f.Arch)
	return q
}

// filtered reports whether the filter narrows the packages (the page then says "these filters").
func (f monitorFilter) filtered() bool {
	return f.Package != "" || f.State != "" || f.Repo != "" || f.Arch != ""
}

// parseMonitor reads the filters; an unknown state is a 400 that lists the known ones.
func parseMonitor(c *fiber.Ctx) (monitorFilter, error) {
	f := monitorFilter{Package: c.Query("package"), State: c.Query("state"), Repo: c.Query("repo"), Arch: c.Query("arch"), Page: 1}
	if f.State != "" && !slices.Contains(monitorStates, f.State) {
		return f, fault.Invalid("invalid_state", "unknown state '%s': one of %s", f.State, strings.Join(monitorStates, ", "))
	}
	if p := c.Query("page"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return f, fault.Invalid("invalid_page", "page '%s' is not a page number", p)
		}
		f.Page = n
	}
	return f, nil
}

// matrix is the monitor's table.
type matrix struct {
	Project string
	Columns []column
	Rows    []row
	// Total is the number of packages the filters let through; Rows are one page of them.
	Total, Page, Pages int
	Filter             monitorFilter
	// Version is the cache's version of the project's results (0 when unknown): monitor.js
	// asks for a new table only when it changed.
	Version uint64
}

// column is a repository and arch.
type column struct{ Repository, Arch string }

// row is a package, its badge state and its status in each column.
type row struct {
	Package string
	State   string
	Cells   []cell
}

// cell is one status; Code "" when the package has none there.
type cell struct {
	Code, State string
	// Log is the log popup's address for a succeeded or failed build (the ones the table badge
	// links), else "".
	Log string
}

// buildMatrix lays the results out: columns in the results' order, packages by name.
func buildMatrix(base string, res explorersvc.ProjectResults, f monitorFilter) matrix {
	m := matrix{Project: res.Project, Filter: f, Version: res.Version, Page: f.Page}
	res = res.Narrow(explorersvc.ResultFilter{Repositories: nonEmpty(f.Repo), Archs: nonEmpty(f.Arch)})
	index := map[string]int{}
	var names []string
	for _, r := range res.Results {
		m.Columns = append(m.Columns, column{r.Repository, r.Arch})
		for _, st := range r.Statuses {
			if _, ok := index[st.Package]; !ok {
				index[st.Package] = 0
				names = append(names, st.Package)
			}
		}
	}
	slices.Sort(names)
	for i, n := range names {
		index[n] = i
	}
	codes := make([][]string, len(names))
	for i := range codes {
		codes[i] = make([]string, len(res.Results))
	}
	for j, r := range res.Results {
		for _, st := range r.Statuses {
			codes[index[st.Package]][j] = st.Code
		}
	}
	var all []row
	for i := range names {
		if f.Package != "" && names[i] != f.Package {
			continue
		}
		var seen badges.Seen
		for _, code := range codes[i] {
			if code != "" {
				seen.Add(code)
			}
		}
		state := seen.State().String()
		if f.State != "" && state != f.State {
			continue
		}
		rw := row{Package: names[i], State: state}
		for j, code := range codes[i] {
			c := cell{Code: code}
			if code != "" {
				c.State = badges.Group(code).String()
				if hasLog(code) {
					c.Log = web.LogURL(base, res.Project, names[i], m.Columns[j].Repository, m.Columns[j].Arch)
				}
			}
			rw.Cells = append(rw.Cells, c)
		}
		all = append(all, rw)
	}
	m.Total = len(all)
	m.Pages = max(1, (m.Total+monitorRows-1)/monitorRows)
	from := min((f.Page-1)*monitorRows, m.Total)
	m.Rows = all[from:min(from+monitorRows, m.Total)]
	return m
}

// nonEmpty is a one-entry list of v, or none for "".
func nonEmpty(v string) []string {
	if v == "" {
		return nil
	}
	return []string{v}
}

// PageURL is the monitor's page n with the same filters.
func (m matrix) PageURL(n int) string {
	q := m.Filter.Query()
	if q == "" {
		q = "?"
	} else {
		q += "&"
	}
	return projectURL(m.Project) + "/monitor" + q + "page=" + strconv.Itoa(n)
}

// PackageURL is a package's page.
func (m matrix) PackageURL(pkg string) string { return packageURL(m.Project, pkg) }

// Prev and Next are the neighbouring page numbers (0: none).
func (m matrix) Prev() int {
	if m.Page > 1 {
		return m.Page - 1
	}
	return 0
}

// Next is the page after this one (0: none).
func (m matrix) Next() int {
	if m.Page < m.Pages {
		return m.Page + 1
	}
	return 0
}

// monitorView is the data of monitorPage and monitorTable.
type monitorView struct {
	projectLink
	Matrix matrix
	States []string
}

// results reads the project's results and lays out the matrix the request asks for.
func (h *handlers) results(c *fiber.Ctx) (monitorView, error) {
	name := param(c, "project")
	f, err := parseMonitor(c)
	if err != nil {
		return monitorView{}, err
	}
	res, err := h.Explorer.BuildResults(name, explorersvc.ResultFilter{})
	if err != nil {
		return monitorView{}, err
	}
	return monitorView{projectLink: projectLink{name}, Matrix: buildMatrix(h.Site.Base(), res, f), States: monitorStates}, nil
}

// monitor answers GET /projects/<p>/monitor.
func (h *handlers) monitor(c *fiber.Ctx) error {
	v, err := h.results(c)
	if err != nil {
		return err
	}
	return h.render(c, v.Name+" · monitor", web.PageOf(monitorPage, v))
}

// monitorTable answers GET /projects/<p>/monitor/table: the matrix alone, or 204 when ?v=
// is the version the cache still holds (monitor.js polls it every few seconds).
func (h *handlers) monitorTable(c *fiber.Ctx) error {
	v, err := h.results(c)
	if err != nil {
		return err
	}
	if got := c.Query("v"); got != "" && v.Matrix.Version != 0 && got == strconv.FormatUint(v.Matrix.Version, 10) {
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.SendStatus(fiber.StatusNoContent)
	}
	return h.render(c, "", web.PageOf(monitorTable, v))
}

// hasLog reports whether a job in state code has a build log to open: a running one (building,
// and finished or signing on its way to its result: the log page follows it live) and a
// finished one. Scheduled, blocked, unresolvable, broken, disabled and excluded jobs have none
// (the results page says why instead).
func hasLog(code string) bool {
	switch code {
	case "building", "finished", "signing", "succeeded", "failed":
		return true
	}
	return false
}
