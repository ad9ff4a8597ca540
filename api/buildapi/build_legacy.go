package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// The legacy /result routes of the old API, answered from the same farm state as _result
// (the "platform" is a repository). Their documents follow obs-api/historical/projectresult.xml
// and obs-api/packageresult.xml, kept simple: the codes are today's package codes (succeeded,
// failed, building, …, not the old built/stopped), an arch's or repository's code is the worst
// of its packages' (failed, then building, then succeeded), and the summary says so in words.

func (a *api) bindLegacyResults(r fiber.Router) {
	a.get(r, "/result/:project/:platform/result", a.legacyProjectResult)
	a.get(r, "/result/:project/:platform/:package/result", a.legacyPackageResult)
	a.get(r, "/result/:project/:platform/:package/:arch/log", a.legacyLog)
}

type legacyStatus struct {
	Code    string         `xml:"code,attr"`
	Summary string         `xml:"summary"`
	Counts  []packageCount `xml:"packagecount"`
}

type packageCount struct {
	State string `xml:"state,attr"`
	Count int    `xml:",chardata"`
}

type legacyArchResult struct {
	Arch   string       `xml:"arch,attr"`
	Status legacyStatus `xml:"status"`
	RPMs   []legacyRPM  `xml:"rpm"`
}

type legacyRPM struct {
	Filename string `xml:"filename,attr"`
}

type projectResultDoc struct {
	XMLName      xml.Name              `xml:"projectresult"`
	Project      string                `xml:"project,attr"`
	Date         string                `xml:"date"`
	Status       legacyStatus          `xml:"status"`
	Repositories []legacyRepositoryDoc `xml:"repositoryresult"`
}

type legacyRepositoryDoc struct {
	Name   string             `xml:"name,attr"`
	Status legacyStatus       `xml:"status"`
	Archs  []legacyArchResult `xml:"archresult"`
}

type packageResultDoc struct {
	XMLName    xml.Name           `xml:"packageresult"`
	Package    string             `xml:"package,attr"`
	Project    string             `xml:"project,attr"`
	Repository string             `xml:"repository,attr"`
	Date       string             `xml:"date"`
	Status     legacyStatus       `xml:"status"`
	Archs      []legacyArchResult `xml:"archresult"`
}

// legacyDate is the old API's date format.
const legacyDate = "20060102T150405Z"

func (a *api) legacyProjectResult(c *fiber.Ctx) error {
	project, platform := pathParam(c, "project"), pathParam(c, "platform")
	res, err := a.Farm.PlatformResults(personOf(c), project, platform, "")
	if err != nil {
		return err
	}
	repo := legacyRepositoryDoc{Name: platform}
	var all []buildstore.BuildStatus
	for _, r := range res {
		repo.Archs = append(repo.Archs, legacyArchResult{Arch: r.Where.Arch, Status: legacyCount(r.Statuses)})
		all = append(all, r.Statuses...)
	}
	repo.Status = legacyCount(all)
	doc := projectResultDoc{Project: project, Date: a.Svc.Now().UTC().Format(legacyDate), Status: repo.Status,
		Repositories: []legacyRepositoryDoc{repo}}
	doc.Repositories[0].Status.Counts = nil
	return sendXML(c, doc)
}

func (a *api) legacyPackageResult(c *fiber.Ctx) error {
	project, platform, pkg := pathParam(c, "project"), pathParam(c, "platform"), pathParam(c, "package")
	res, err := a.Farm.PlatformResults(personOf(c), project, platform, pkg)
	if err != nil {
		return err
	}
	doc := packageResultDoc{Package: pkg, Project: project, Repository: platform, Date: a.Svc.Now().UTC().Format(legacyDate)}
	var all []buildstore.BuildStatus
	for _, r := range res {
		ar := legacyArchResult{Arch: r.Where.Arch, Status: legacyCount(r.Statuses)}
		ar.Status.Counts = nil
		for _, b := range r.Binaries[pkg] {
			ar.RPMs = append(ar.RPMs, legacyRPM{Filename: b.Filename})
		}
		doc.Archs = append(doc.Archs, ar)
		all = append(all, r.Statuses...)
	}
	doc.Status = legacyCount(all)
	return sendXML(c, doc)
}

func (a *api) legacyLog(c *fiber.Ctx) error {
	w := buildstore.Where{Project: pathParam(c, "project"), Repository: pathParam(c, "platform"), Arch: pathParam(c, "arch")}
	l, err := a.Farm.ReadLog(personOf(c), w, pathParam(c, "package"), farm.LogQuery{End: -1})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.Send(l.Data)
}

// legacyCount sums statuses into the old API's status: the worst code, a summary sentence
// and a count per code present (succeeded and failed always, as the old documents had them).
func legacyCount(list []buildstore.BuildStatus) legacyStatus {
	counts := map[string]int{}
	for _, st := range list {
		counts[st.Code]++
	}
	out := legacyStatus{Code: "succeeded", Summary: "All packages ok."}
	switch {
	case len(list) == 0:
		out = legacyStatus{Code: "unknown", Summary: "No packages."}
	case counts[buildstore.CodeFailed]+counts[buildstore.CodeBroken]+counts[buildstore.CodeUnresolvable] > 0:
		out = legacyStatus{Code: "failed", Summary: "Some packages failed."}
	case counts[buildstore.CodeScheduled]+counts[buildstore.CodeBuilding]+counts[buildstore.CodeBlocked]+counts["unknown"] > 0:
		out = legacyStatus{Code: "building", Summary: "Build in progress."}
	}
	codes := []string{buildstore.CodeSucceeded, buildstore.CodeFailed, buildstore.CodeBroken, buildstore.CodeUnresolvable,
		buildstore.CodeScheduled, buildstore.CodeBlocked, buildstore.CodeBuilding, buildstore.CodeDisabled, buildstore.CodeExcluded}
	for _, code := range codes {
		if n := counts[code]; n > 0 || code == buildstore.CodeSucceeded || code == buildstore.CodeFailed {
			out.Counts = append(out.Counts, packageCount{State: code, Count: n})
		}
	}
	return out
}
