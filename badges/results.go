package badges

import (
	"strconv"
)

// Status is one package's build status in one repository and arch, as a result list shows it.
type Status struct {
	Package, Repository, Arch, Code string
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
func Project(project, label string, statuses []Status, links Links) []byte {
	if label == "" {
		label = DefaultLabel
	}
	var packages Tally
	for _, t := range tallyPackages(statuses) {
		packages[t.State()]++
	}
	state := packages.State()
	msg, filter := state.String(), ""
	switch {
	case len(statuses) == 0:
		msg = NoBuilds
	case state == Failed || state == Blocked || state == Building:
		msg, filter = strconv.Itoa(packages[state])+" "+msg, state.String()
	}
	return Badge{Label: label, Message: msg, Colour: state.Colour(),
		LabelLink: links.monitor(project, "", ""), MessageLink: links.monitor(project, "", filter)}.SVG()
}

// tallyPackages counts each package's statuses, keeping the packages in the order they first
// appear.
func tallyPackages(statuses []Status) []Tally {
	index := make(map[string]int, 64)
	var out []Tally
	for _, st := range statuses {
		i, ok := index[st.Package]
		if !ok {
			i = len(out)
			index[st.Package] = i
			out = append(out, Tally{})
		}
		out[i].Add(st.Code)
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
	if len(statuses) == 0 {
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
