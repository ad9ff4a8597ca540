package buildweb

import (
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/web"
)

// The project list (the projects the explorer follows, each with its badge) and a project's
// page (its meta, packages, badge and result table).

// maxListed caps the rows of a list page, so a page stays well under 100 KB; the page says
// when it cut.
const maxListed = 300

// projectsView is the data of projectsPage.
type projectsView struct {
	Projects []projectLink
	Total    int
}

// projectLink is a project with the addresses a list shows for it.
type projectLink struct{ Name string }

// URL is the project's page.
func (p projectLink) URL() string { return projectURL(p.Name) }

// Badge is the project's badge image.
func (p projectLink) Badge() string { return "/badge/" + url.PathEscape(p.Name) + ".svg" }

// Monitor is the project's monitor tab.
func (p projectLink) Monitor() string { return projectURL(p.Name) + "/monitor" }

// projects answers GET /projects.
func (h *handlers) projects(c *fiber.Ctx) error {
	names, err := h.Explorer.FollowedProjects()
	if err != nil {
		return err
	}
	v := projectsView{Total: len(names)}
	for i, n := range names {
		if i == maxListed {
			break
		}
		v.Projects = append(v.Projects, projectLink{n})
	}
	return h.render(c, "Build results", web.PageOf(projectsPage, v))
}

// projectView is the data of projectPage.
type projectView struct {
	projectLink
	Meta     buildstore.Project
	Packages []string
	Total    int
	// Followed says the explorer's results cache holds the project: its badge and monitor
	// have something to show.
	Followed bool
}

// Table is the project's result table (an SVG with links, embedded as an <object>).
func (v projectView) Table() string { return "/badge/" + url.PathEscape(v.Name) + "/_table.svg" }

// buildsAgainst lists a repository's paths as project/repository, comma-separated.
func buildsAgainst(paths []buildstore.Path) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p.Project + "/" + p.Repository
	}
	return strings.Join(out, ", ")
}

// PackageURL is the page of one of the project's packages.
func (v projectView) PackageURL(pkg string) string { return packageURL(v.Name, pkg) }

// project answers GET /projects/<p>: read as the API reads it for an outsider, so a hidden
// project is its 404.
func (h *handlers) project(c *fiber.Ctx) error {
	name := param(c, "project")
	meta, err := h.Build.ProjectMeta(anonymous, name, false)
	if err != nil {
		return err
	}
	pkgs, err := h.Build.Packages(anonymous, name, false)
	if err != nil {
		return err
	}
	v := projectView{projectLink: projectLink{name}, Meta: meta, Total: len(pkgs), Followed: h.Explorer.Follows(name)}
	if len(pkgs) > maxListed {
		pkgs = pkgs[:maxListed]
	}
	v.Packages = pkgs
	return h.render(c, name, web.PageOf(projectPage, v))
}

// tabsView is the data of the project's tabs: its page and the tab shown.
type tabsView struct{ URL, Tab string }

// Tabs are the project's tabs with tab ("overview", "monitor") current.
func (p projectLink) Tabs(tab string) tabsView { return tabsView{URL: p.URL(), Tab: tab} }
