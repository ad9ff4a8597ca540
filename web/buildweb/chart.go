package buildweb

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/badges"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// The package page's picture: the package's last builds in every repository and arch (the job
// history GET /build/<p>/<r>/<a>/_jobhistory reads), one bar each, oldest left, its height the
// build's duration and its colour the badge colour of its outcome. Drawn on the server as
// inline SVG from numbers and fixed colours only: no name of the package reaches the drawing
// except through templ's escaping of the bars' titles.

// chartBuilds is how many builds the chart shows at most.
const chartBuilds = 30

// Chart geometry in px.
const (
	chartHeight = 80
	chartBar    = 14
	chartGap    = 4
)

// chart is the data buildChart draws.
type chart struct {
	Bars          []bar
	Width, Height int
	// Longest is the longest duration shown, in words ("12m 30s"): the top of the scale.
	Longest string
}

// bar is one build.
type bar struct {
	X, Y, W, H int
	Colour     string
	Title      string
}

// buildChart reads the package's recent jobs in each of the project's repositories and arches.
// A project or repository the reader may not see draws nothing (the page shows "no builds").
func (h *handlers) buildChart(project, pkg string) chart {
	meta, err := h.Build.ProjectMeta(anonymous, project, false)
	if err != nil {
		return chart{}
	}
	type job struct {
		buildstore.JobHistoryEntry
		where string
	}
	var jobs []job
	for _, r := range meta.Repositories {
		for _, a := range r.Archs {
			w := buildstore.Where{Project: project, Repository: r.Name, Arch: a}
			list, err := h.Build.Farm.JobHistory(anonymous, w, farm.JobHistoryQuery{Packages: []string{pkg}, Limit: chartBuilds})
			if err != nil {
				continue
			}
			for _, e := range list {
				jobs = append(jobs, job{e, r.Name + "/" + a})
			}
		}
	}
	slices.SortStableFunc(jobs, func(a, b job) int { return a.EndTime.Compare(b.EndTime) })
	if len(jobs) > chartBuilds {
		jobs = jobs[len(jobs)-chartBuilds:]
	}
	if len(jobs) == 0 {
		return chart{}
	}
	var longest time.Duration
	for _, j := range jobs {
		longest = max(longest, j.EndTime.Sub(j.StartTime))
	}
	c := chart{Width: len(jobs)*(chartBar+chartGap) + chartGap, Height: chartHeight, Longest: longest.Round(time.Second).String()}
	for i, j := range jobs {
		d := j.EndTime.Sub(j.StartTime)
		hgt := 2
		if longest > 0 {
			hgt = max(2, int(float64(chartHeight-4)*float64(d)/float64(longest)))
		}
		title := []string{j.where, j.Code, d.Round(time.Second).String(), j.EndTime.UTC().Format("2006-01-02 15:04 UTC")}
		if j.Reason != "" {
			title = append(title, j.Reason)
		}
		c.Bars = append(c.Bars, bar{X: chartGap + i*(chartBar+chartGap), Y: chartHeight - hgt, W: chartBar, H: hgt,
			Colour: badges.Group(j.Code).Colour(), Title: "#" + strconv.Itoa(i+1) + " " + strings.Join(title, " · ")})
	}
	return c
}
