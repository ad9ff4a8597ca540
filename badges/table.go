package badges

import (
	"slices"
	"strconv"
	"strings"
)

// TableOptions shape a result table (/badge/<project>/_table.svg).
type TableOptions struct {
	// Compact draws one row per package with its counts of succeeded, failed and building
	// results instead of a column per repository and arch.
	Compact bool
	// MaxPackages and MaxRepos bound the rows and the columns; values outside the seed's
	// ranges (1–100, 1–20) are taken as the nearest bound, 0 as the default.
	MaxPackages, MaxRepos int
}

// The seed's table limits.
const (
	DefaultMaxPackages, MaxPackages = 50, 100
	DefaultMaxRepos, MaxRepos       = 10, 20
)

// Widest texts in a table before they are cut with an ellipsis (the whole text is in a
// <title>, the tooltip and accessible name).
const (
	MaxNameWidth   = 180
	MaxColumnWidth = 200
)

func clamp(v, def, max int) int {
	switch {
	case v == 0:
		return def
	case v < 1:
		return 1
	case v > max:
		return max
	}
	return v
}

// compactColumns are the compact table's columns: the states it counts, in the seed's order.
var compactColumns = [...]State{Passing, Failed, Building}

// compactHeader is the header of a compact table's column of s, in the seed's words.
func compactHeader(s State) string {
	if s == Passing {
		return "succeeded"
	}
	return s.String()
}

// matrix is a table's content: packages (sorted) by columns (repository/arch pairs in the
// order the results list them), each cell a status code ("" where a package has no result).
type matrix struct {
	packages []string
	columns  []Status // Repository and Arch only
	cells    [][]string
	tallies  []Tally // per package, over every column
}

func newMatrix(res Results) *matrix {
	m := &matrix{}
	cols := make([]int, res.Len()) // each result's column
	colIndex := map[[2]string]int{}
	pkgs := map[string]int{}
	for i := range res.Len() {
		repo, arch, n := res.Result(i)
		k := [2]string{repo, arch}
		c, ok := colIndex[k]
		if !ok {
			c = len(m.columns)
			colIndex[k] = c
			m.columns = append(m.columns, Status{Repository: repo, Arch: arch})
		}
		cols[i] = c
		for j := range n {
			if pkg, _ := res.Status(i, j); pkgs[pkg] == 0 {
				pkgs[pkg] = -1
				m.packages = append(m.packages, pkg)
			}
		}
	}
	slices.Sort(m.packages)
	for i, p := range m.packages {
		pkgs[p] = i
	}
	m.cells = make([][]string, len(m.packages))
	flat := make([]string, len(m.packages)*len(m.columns))
	for i := range m.cells {
		m.cells[i] = flat[i*len(m.columns) : (i+1)*len(m.columns)]
	}
	m.tallies = make([]Tally, len(m.packages))
	for i := range res.Len() {
		_, _, n := res.Result(i)
		for j := range n {
			pkg, code := res.Status(i, j)
			row := pkgs[pkg]
			m.cells[row][cols[i]] = code
			m.tallies[row].Add(code)
		}
	}
	return m
}

// column is one drawn column: its header, its width and each shown row's text and state.
type column struct {
	header, full string // drawn (maybe cut) and whole
	width        int
	status       Status // the repository and arch of a result column
}

// Table draws a project's results as a table: a row per package (sorted by name) and a column
// per repository/arch, each cell the status in its state's colour, or in compact mode the
// package's counts of succeeded, failed and building results. Viewed directly, the package
// header opens the project's monitor, and succeeded and failed cells (the red ones: failed,
// broken, unresolvable) open the build log in a new window; building and blocked cells do not
// link. When rows or columns are cut to the limits, the package header shows a yellow
// "<shown>/<total> pkgs" (and "repos") warning that links to the monitor, which shows all.
func Table(project string, results Results, opt TableOptions, links Links) []byte {
	m := newMatrix(orNone(results))
	if len(m.packages) == 0 {
		return Badge{Label: project, Message: NoBuilds, Colour: Inactive.Colour(), LabelLink: links.monitor(project, "", "")}.SVG()
	}
	maxPkgs := clamp(opt.MaxPackages, DefaultMaxPackages, MaxPackages)
	maxRepos := clamp(opt.MaxRepos, DefaultMaxRepos, MaxRepos)
	rows := m.packages[:min(len(m.packages), maxPkgs)]
	var warn []string
	if len(rows) < len(m.packages) {
		warn = append(warn, strconv.Itoa(len(rows))+"/"+strconv.Itoa(len(m.packages))+" pkgs")
	}

	var cols []column
	if opt.Compact {
		for _, s := range compactColumns {
			h := compactHeader(s)
			w := PreferredWidth(h)
			for i := range rows {
				w = max(w, PreferredWidth(strconv.Itoa(m.tallies[i][s])))
			}
			cols = append(cols, column{header: h, full: h, width: w + 2*pad})
		}
	} else {
		shown := m.columns[:min(len(m.columns), maxRepos)]
		if len(shown) < len(m.columns) {
			warn = append(warn, strconv.Itoa(len(shown))+"/"+strconv.Itoa(len(m.columns))+" repos")
		}
		for j, col := range shown {
			full := col.Repository + "/" + col.Arch
			h := Fit(full, MaxColumnWidth)
			w := PreferredWidth(h)
			for i := range rows {
				if code := m.cells[i][j]; code != "" {
					w = max(w, PreferredWidth(code))
				}
			}
			cols = append(cols, column{header: h, full: full, width: w + 2*pad, status: col})
		}
	}

	// The name column fits the widest (cut) name, and the header's project name with the
	// warning beside it.
	names := make([]string, len(rows))
	nameW := 0
	for i, p := range rows {
		names[i] = Fit(p, MaxNameWidth)
		nameW = max(nameW, PreferredWidth(names[i]))
	}
	nameW += 2 * pad
	head := Fit(project, MaxNameWidth)
	headW := PreferredWidth(head) + 2*pad
	warning := strings.Join(warn, ", ")
	warnW := 0
	if warning != "" {
		warnW = PreferredWidth(warning) + 2*pad
	}
	nameW = max(nameW, headW+warnW)

	width, height := nameW, Height*(len(rows)+1)
	for _, c := range cols {
		width += c.width
	}
	c := newCanvas()
	c.start(width, height, tableTitle(project, m, len(rows), len(cols), opt.Compact))
	c.flatLook(width, height)

	// Grounds: the header row and name column grey, each cell its state's colour, the
	// gradient over each row, then thin light lines between columns and rows.
	c.Group(`clip-path="url(#r)"`)
	c.rect(0, 0, width, height, fill(LabelColour))
	if warning != "" {
		c.rect(nameW-warnW, 0, warnW, Height, fill(ColourBlocked))
	}
	for i := range rows {
		x := nameW
		for j, col := range cols {
			c.rect(x, Height*(i+1), col.width, Height, fill(cellState(m, i, j, opt.Compact).Colour()))
			x += col.width
		}
	}
	for r := 0; r <= len(rows); r++ {
		c.rect(0, Height*r, width, Height, `fill="url(#s)"`)
	}
	x := nameW
	for _, col := range cols {
		c.rect(x, 0, 1, height, `fill="#fff" fill-opacity=".2"`)
		x += col.width
	}
	for r := 1; r <= len(rows); r++ {
		c.rect(0, Height*r, width, 1, `fill="#fff" fill-opacity=".2"`)
	}
	c.Gend()

	// Texts: names left-aligned, everything else centred.
	c.textGroup("start")
	c.titled(links.monitor(project, "", ""), head, project, 10*pad, 0, 0, headW)
	for i, name := range names {
		c.titled("", name, rows[i], 10*pad, Height*(i+1), 0, nameW)
	}
	c.Gend()
	c.textGroup("middle")
	if warning != "" {
		w := PreferredWidth(warning)
		c.cell(links.monitor(project, "", ""), warning, "", nameW-warnW, 0, warnW, w)
	}
	x = nameW
	for j, col := range cols {
		c.titled("", col.header, col.full, 10*x+5*col.width, 0, x, col.width)
		for i := range rows {
			text, href := cellText(m, i, j, opt.Compact), ""
			if !opt.Compact {
				if s := Group(text); s == Passing || s == Failed {
					href = links.log(project, Status{Package: rows[i], Repository: col.status.Repository, Arch: col.status.Arch})
				}
			}
			if text != "" {
				c.cell(href, text, rows[i]+" "+col.full+": "+text, x, Height*(i+1), col.width, PreferredWidth(text))
			}
		}
		x += col.width
	}
	c.Gend()
	c.End()
	return c.done()
}

// cellState and cellText are what cell (i, j) shows.
func cellState(m *matrix, i, j int, compact bool) State {
	if compact {
		if s := compactColumns[j]; m.tallies[i][s] > 0 {
			return s
		}
		return Inactive
	}
	return Group(m.cells[i][j])
}

func cellText(m *matrix, i, j int, compact bool) string {
	if compact {
		return strconv.Itoa(m.tallies[i][compactColumns[j]])
	}
	return m.cells[i][j]
}

// cell writes a centred text in the box at x,y of width boxW, linked to href when set (title
// names the link).
func (c *canvas) cell(href, text, title string, x, y, boxW, textW int) {
	if href != "" {
		c.linkStart(href, title, x, y, boxW, Height)
	}
	c.text(10*x+5*boxW, y, text, textW)
	if href != "" {
		c.linkEnd()
	}
}

// titled writes text at x10 on the row at y, with full as its tooltip when text was cut from
// it, and inside a link over the box at x of width boxW when href is set.
func (c *canvas) titled(href, text, full string, x10, y, x, boxW int) {
	if href != "" {
		c.linkStart(href, full, x, y, boxW, Height)
	}
	if text != full {
		c.Group()
		c.Title(full)
	}
	c.text(x10, y, text, PreferredWidth(text))
	if text != full {
		c.Gend()
	}
	if href != "" {
		c.linkEnd()
	}
}

// tableTitle is the table's accessible text: the project, the packages by state, and what
// was left out.
func tableTitle(project string, m *matrix, shownRows, shownCols int, compact bool) string {
	var byState Tally
	for _, t := range m.tallies {
		byState[t.State()]++
	}
	var b strings.Builder
	b.WriteString(Clip(project, MaxTitle))
	b.WriteString(": ")
	b.WriteString(strconv.Itoa(len(m.packages)))
	b.WriteString(" packages")
	for _, s := range [...]State{Passing, Failed, Blocked, Building, Inactive} {
		if byState[s] > 0 {
			b.WriteString(", " + strconv.Itoa(byState[s]) + " " + s.String())
		}
	}
	if shownRows < len(m.packages) {
		b.WriteString("; " + strconv.Itoa(shownRows) + " shown")
	}
	if !compact && shownCols < len(m.columns) {
		b.WriteString("; " + strconv.Itoa(shownCols) + " of " + strconv.Itoa(len(m.columns)) + " repositories shown")
	}
	return b.String()
}
