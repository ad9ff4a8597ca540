package buildweb

import (
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/badges"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/web"
)

// A package's page: its files at the newest revision, the revision itself, its current build
// results (from the explorer's cache, as the monitor shows them) and a chart of its recent
// builds (the job history GET …/_jobhistory reads).

// pkgLink is a package with the addresses its pages link to.
type pkgLink struct {
	projectLink
	Package string
}

// PackageURL is the package's page.
func (k pkgLink) PackageURL() string { return packageURL(k.Name, k.Package) }

// FileURL is one file's page (at rev, "" for the newest).
func (k pkgLink) FileURL(name, rev string) string {
	u := k.PackageURL() + "/files/" + pathSegment(name)
	if rev != "" {
		u += "?rev=" + urlQuery(rev)
	}
	return u
}

// RevisionURL is one revision's page.
func (k pkgLink) RevisionURL(rev uint64) string {
	return k.PackageURL() + "/revisions/" + strconv.FormatUint(rev, 10)
}

// DiffURL is the diff a revision made.
func (k pkgLink) DiffURL(rev uint64) string {
	return k.PackageURL() + "/diff?rev=" + strconv.FormatUint(rev, 10)
}

// pkgView is the data of pkgPage.
type pkgView struct {
	pkgLink
	Meta    buildstore.Package
	Tree    buildstore.Revision
	Link    *buildstore.LinkInfo
	Results []pkgResult
	Chart   chart
}

// pkgResult is the package's status in one repository and arch.
type pkgResult struct {
	Repository, Arch, Code, State, Details, Log string
}

// LinkURL is the page of the package a link points to.
func (v pkgView) LinkURL() string { return packageURL(v.Link.Project, v.Link.Package) }

// pkg answers GET /projects/<p>/packages/<k>.
func (h *handlers) pkg(c *fiber.Ctx) error {
	k := pkgLink{projectLink{param(c, "project")}, param(c, "package")}
	tree, err := h.Build.Listing(anonymous, k.Name, k.Package, buildsvc.TreeOptions{})
	if err != nil {
		return err
	}
	v := pkgView{pkgLink: k, Tree: tree.Tree, Link: tree.Link}
	// The listing above read the package as an outsider may; the meta adds its title.
	if meta, err := h.Build.PackageMeta(k.Name, k.Package); err == nil {
		v.Meta = meta
	}
	if res, err := h.Explorer.BuildResults(k.Name, explorersvc.ResultFilter{}); err == nil {
		for _, r := range res.Results {
			for _, st := range r.Statuses {
				if st.Package != k.Package {
					continue
				}
				pr := pkgResult{Repository: r.Repository, Arch: r.Arch, Code: st.Code, State: badges.Group(st.Code).String(), Details: st.Details}
				if st.Code == "succeeded" || badges.Group(st.Code) == badges.Failed {
					pr.Log = web.LogURL(h.Site.Base(), k.Name, k.Package, r.Repository, r.Arch)
				}
				v.Results = append(v.Results, pr)
			}
		}
	}
	v.Chart = h.buildChart(k.Name, k.Package)
	return h.render(c, k.Name+"/"+k.Package, web.PageOf(pkgPage, v))
}

// historyView is the data of historyPage: revisions newest first.
type historyView struct {
	pkgLink
	Revisions []buildstore.Revision
	Total     int
}

// history answers GET /projects/<p>/packages/<k>/history.
func (h *handlers) history(c *fiber.Ctx) error {
	k := pkgLink{projectLink{param(c, "project")}, param(c, "package")}
	all, err := h.Build.History(anonymous, k.Name, k.Package)
	if err != nil {
		return err
	}
	v := historyView{pkgLink: k, Total: len(all)}
	for i := len(all) - 1; i >= 0 && len(v.Revisions) < maxListed; i-- {
		v.Revisions = append(v.Revisions, all[i])
	}
	return h.render(c, k.Name+"/"+k.Package+" · history", web.PageOf(historyPage, v))
}

// revisionView is the data of revisionPage.
type revisionView struct {
	pkgLink
	Rev  buildstore.Revision
	Link *buildstore.LinkInfo
}

// RevString is the revision's number as the file links carry it.
func (v revisionView) RevString() string { return strconv.FormatUint(v.Rev.Rev, 10) }

// revision answers GET /projects/<p>/packages/<k>/revisions/<rev>: the tree at rev (any rev
// the API's ?rev= takes: a number or a srcmd5).
func (h *handlers) revision(c *fiber.Ctx) error {
	k := pkgLink{projectLink{param(c, "project")}, param(c, "package")}
	tree, err := h.Build.Listing(anonymous, k.Name, k.Package, buildsvc.TreeOptions{Rev: param(c, "rev")})
	if err != nil {
		return err
	}
	return h.render(c, k.Name+"/"+k.Package+" · revision", web.PageOf(revisionPage, revisionView{pkgLink: k, Rev: tree.Tree, Link: tree.Link}))
}

// textShown caps a file or diff shown on a page (the page stays < 100 KB).
const textShown = 48 << 10

// textView is the data of textPage: a file's or a diff's text, cut to textShown.
type textView struct {
	pkgLink
	Heading string
	Rev     string
	Text    string
	Binary  bool
	Size    int
	Cut     bool
	// Raw is the API address of the whole text (for a cut one).
	Raw string
}

// diff answers GET /projects/<p>/packages/<k>/diff?rev=: what the revision changed against
// the one before (the newest revision without rev), as cmd=diff prints it.
func (h *handlers) diff(c *fiber.Ctx) error {
	k := pkgLink{projectLink{param(c, "project")}, param(c, "package")}
	rev := c.Query("rev")
	text, err := h.Build.Diff(anonymous, k.Name, k.Package, buildsvc.DiffOptions{OldProject: k.Name, OldPackage: k.Package, Rev: rev})
	if err != nil {
		return err
	}
	v := textView{pkgLink: k, Heading: "Diff", Rev: rev}
	v.set([]byte(text))
	return h.render(c, k.Name+"/"+k.Package+" · diff", web.PageOf(textPage, v))
}

// file answers GET /projects/<p>/packages/<k>/files/<name>[?rev=].
func (h *handlers) file(c *fiber.Ctx) error {
	k := pkgLink{projectLink{param(c, "project")}, param(c, "package")}
	name, rev := param(c, "name"), c.Query("rev")
	data, err := h.Build.ReadFile(anonymous, k.Name, k.Package, name, buildsvc.TreeOptions{Rev: rev})
	if err != nil {
		return err
	}
	v := textView{pkgLink: k, Heading: name, Rev: rev, Raw: "/source/" + pathSegment(k.Name) + "/" + pathSegment(k.Package) + "/" + pathSegment(name)}
	v.set(data)
	return h.render(c, k.Name+"/"+k.Package+"/"+name, web.PageOf(textPage, v))
}

// set fills the text from data: cut at textShown (on a character boundary), or none for a
// binary (buildsvc.IsBinary).
func (v *textView) set(data []byte) {
	v.Size = len(data)
	if buildsvc.IsBinary(data) {
		v.Binary = true
		return
	}
	if len(data) > textShown {
		data, v.Cut = cutText(data, textShown), true
	}
	v.Text = string(data)
}

// Time formats a revision's unix time for a page.
func (k pkgLink) Time(sec int64) string {
	return time.Unix(sec, 0).UTC().Format("2006-01-02 15:04 UTC")
}
