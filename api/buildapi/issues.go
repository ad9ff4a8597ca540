package buildapi

import (
	"encoding/xml"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// Issues as OBS renders them (Issue#render_body): in /search/issue's collection, and in GET
// /source/P/K?view=issues and GET /source/P?view=issues with the filters states=, changes= and
// login= (comma lists, as OBS splits them). The rules are buildsvc's issues.go.

// issueTimeLayout is how OBS's XML builder writes a record's time.
const issueTimeLayout = "2006-01-02 15:04:05 UTC"

// issueRecordXML is one <issue>; Change is set in a package's view only.
type issueRecordXML struct {
	XMLName   xml.Name       `xml:"issue"`
	Change    string         `xml:"change,attr,omitempty"`
	CreatedAt string         `xml:"created_at"`
	UpdatedAt string         `xml:"updated_at,omitempty"`
	Name      string         `xml:"name"`
	Tracker   string         `xml:"tracker"`
	Label     string         `xml:"label"`
	URL       string         `xml:"url"`
	State     string         `xml:"state,omitempty"`
	Summary   string         `xml:"summary,omitempty"`
	Owner     *issueOwnerXML `xml:"owner"`
}

type issueOwnerXML struct {
	Login    string `xml:"login"`
	Email    string `xml:"email"`
	Realname string `xml:"realname"`
}

// issueDoc renders an issue; withChange adds how a package names it.
func issueDoc(v buildsvc.IssueView, withChange bool) issueRecordXML {
	d := issueRecordXML{Name: v.Name, Tracker: v.Tracker, Label: v.Label, URL: v.URL, State: v.State, Summary: v.Summary}
	if !v.Created.IsZero() {
		d.CreatedAt = v.Created.UTC().Format(issueTimeLayout)
	}
	if !v.Updated.IsZero() {
		d.UpdatedAt = v.Updated.UTC().Format(issueTimeLayout)
	}
	if withChange {
		d.Change = v.Change
	}
	if o := v.OwnerPerson; o != nil {
		d.Owner = &issueOwnerXML{Login: o.Login, Email: o.Email, Realname: o.Realname}
	}
	return d
}

// packageIssuesXML is a package's view=issues answer, and one package of the project's.
type packageIssuesXML struct {
	XMLName xml.Name         `xml:"package"`
	Project string           `xml:"project,attr"`
	Name    string           `xml:"name,attr"`
	Kinds   []string         `xml:"kind"`
	Issues  []issueRecordXML `xml:"issue"`
}

type projectIssuesXML struct {
	XMLName  xml.Name           `xml:"project"`
	Name     string             `xml:"name,attr"`
	Packages []packageIssuesXML `xml:"package"`
}

func packageIssuesDoc(k buildsvc.PackageIssues) packageIssuesXML {
	d := packageIssuesXML{Project: k.Project, Name: k.Package, Kinds: k.Kinds}
	for _, v := range k.Issues {
		d.Issues = append(d.Issues, issueDoc(v, v.Change != ""))
	}
	return d
}

// issueFilter reads states=, changes= and login=; a parameter given empty lists nothing (and
// so keeps nothing), as OBS's split of an empty string does.
func issueFilter(c *fiber.Ctx) buildsvc.IssueFilter {
	args := c.Context().QueryArgs()
	list := func(name string) []string {
		if !args.Has(name) {
			return nil
		}
		out := []string{}
		for _, v := range strings.Split(c.Query(name), ",") {
			if v != "" {
				out = append(out, v)
			}
		}
		return out
	}
	return buildsvc.IssueFilter{States: list("states"), Changes: list("changes"), Login: c.Query("login")}
}

// packageIssues answers GET /source/P/K?view=issues.
func (a *api) packageIssues(c *fiber.Ctx) error {
	k, err := a.Svc.PackageIssueList(personOf(c), pathParam(c, "project"), pathParam(c, "package"), issueFilter(c))
	if err != nil {
		return err
	}
	return sendXML(c, packageIssuesDoc(k))
}

// projectIssues answers GET /source/P?view=issues.
func (a *api) projectIssues(c *fiber.Ctx) error {
	project := pathParam(c, "project")
	list, err := a.Svc.ProjectIssueList(personOf(c), project, issueFilter(c))
	if err != nil {
		return err
	}
	d := projectIssuesXML{Name: project}
	for _, k := range list {
		d.Packages = append(d.Packages, packageIssuesDoc(k))
	}
	return sendXML(c, d)
}
