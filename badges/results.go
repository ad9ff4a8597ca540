package badges

import (
	"strconv"
)

// Results are what the project badge and the table read: a result list's results, one per
// repository and arch in its order, each with its packages' statuses (each package at most
// once per result). An interface, so a caller's own result lists are read in place: a badge
// over 500 packages copies none of its 2,000 statuses.
type Results interface {
	// Len is the number of results (repository/arch pairs).
	Len() int
	// Result is the i-th result's repository, arch and number of statuses.
	Result(i int) (repository, arch string, statuses int)
	// Status is the j-th status of the i-th result: a package and its status code.
	Status(i, j int) (pkg, code string)
}

// Status is one package's build status in one repository and arch, as a result list shows it.
type Status struct {
	Package, Repository, Arch, Code string
}

// noResults are what nil stands for.
type noResults struct{}

func (noResults) Len() int                         { return 0 }
func (noResults) Result(int) (string, string, int) { return "", "", 0 }
func (noResults) Status(int, int) (string, string) { return "", "" }

func orNone(r Results) Results {
	if r == nil {
		return noResults{}
	}
	return r
}

// Links makes the absolute URLs a drawing links to (the web interface's pages); a nil
// function draws no link.
type Links struct {
	// Monitor is the project's build monitor, showing only pkg ("" for every package) and only
	// the packages in state ("" for every state: a State's String otherwise).
	Monitor func(project, pkg, state string) string
	// Log is the build log of pkg in repo and arch, for a popup window.
	Log func(project, pkg, repo, arch string) string
}

func (l Links) monitor(project, pkg, state string) string {
	if l.Monitor == nil {
		return ""
	}
	return l.Monitor(project, pkg, state)
}

func (l Links) log(project string, st Status) string {
	if l.Log == nil {
		return ""
	}
	return l.Log(project, st.Package, st.Repository, st.Arch)
}

// NoBuilds is what a badge says over no statuses at all (nothing matched repos and archs, or
// the project has no repositories): the inactive state, in words that say why.
const NoBuilds = "no builds"

// DefaultLabel is a project badge's label when the request names none.
const DefaultLabel = "build"

// Project draws a project's badge over statuses (already narrowed to the requested
// repositories and arches). Each package gets the state of its own statuses, and the badge the
// state of its packages; the message counts the packages in a failed, blocked or building state
// ("3 failed") and says "passing", "inactive" or "no builds" otherwise. Viewed directly, the
// label opens the project's monitor and the message the monitor narrowed to that state.
func Project(project, label string, results Results, links Links) []byte {
	if label == "" {
		label = DefaultLabel
	}
	var packages Tally
	tallies := tallyPackages(orNone(results))
	for _, t := range tallies {
		packages[t.State()]++
	}
	state := packages.State()
	msg, filter := state.String(), ""
	switch {
	case len(tallies) == 0:
		msg = NoBuilds
	case state == Failed || state == Blocked || state == Building:
		msg, filter = strconv.Itoa(packages[state])+" "+msg, state.String()
	}
	return Badge{Label: label, Message: msg, Colour: state.Colour(),
		LabelLink: links.monitor(project, "", ""), MessageLink: links.monitor(project, "", filter)}.SVG()
}

// tallyPackages notes each package's states, keeping the packages in the order they first
// appear. A result list names the packages in the same order under every repository and arch,
// so the package at a status's place usually is the one at that index: a string compare, and
// a map only for what breaks the pattern.
func tallyPackages(res Results) []Seen {
	var (
		out   []Seen
		names []string
		index map[string]int
	)
	for i := range res.Len() {
		_, _, n := res.Result(i)
		if i == 0 {
			out, names = make([]Seen, 0, n), make([]string, 0, n)
		}
		for j := range n {
			pkg, code := res.Status(i, j)
			k := j
			switch {
			case i == 0: // the first result's packages are all new
				names, out = append(names, pkg), append(out, 0)
			case j >= len(names) || names[j] != pkg:
				if index == nil {
					index = make(map[string]int, len(names)+16)
					for x, name := range names {
						index[name] = x
					}
				}
				var ok bool
				if k, ok = index[pkg]; !ok {
					k = len(out)
					index[pkg] = k
					names, out = append(names, pkg), append(out, 0)
				}
			}
			out[k].Add(code)
		}
	}
	return out
}

// Package draws one package's badge over its statuses (already narrowed to the requested
// repositories and arches); label "" is the package's name. The message is the state's word.
// Viewed directly, the label opens the monitor narrowed to the package, and the message the
// build log of the first result in that state when it has one (succeeded or failed), the
// same monitor otherwise.
func Package(project, pkg, label string, statuses []Status, links Links) []byte {
	if label == "" {
		label = pkg
	}
	var t Tally
	for _, st := range statuses {
		t.Add(st.Code)
	}
	state := t.State()
	msg := state.String()
	if t == (Tally{}) {
		msg = NoBuilds
	}
	msgLink := links.monitor(project, pkg, "")
	if state == Passing || state == Failed {
		for _, st := range statuses {
			if Group(st.Code) == state {
				msgLink = links.log(project, st)
				break
			}
		}
	}
	return Badge{Label: label, Message: msg, Colour: state.Colour(),
		LabelLink: links.monitor(project, pkg, ""), MessageLink: msgLink}.SVG()
}

// ErrorBadge is the grey "error" badge a request gets when there are no results to draw (an
// unknown project or package, results unavailable); why goes into its title only.
func ErrorBadge(label, why string) []byte {
	title := Clip(label, MaxTitle) + ": error"
	if why != "" {
		title += " (" + why + ")"
	}
	return Badge{Label: label, Message: Error.String(), Colour: Error.Colour(), Title: title}.SVG()
}
