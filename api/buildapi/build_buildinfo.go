package buildapi

import (
	"encoding/xml"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/packaging/resolve"
)

// What a build would be (buildsvc farm_buildinfo.go): buildinfo of a package, builddepinfo of a
// where, the _buildconfig of a repository.

// buildInfoXML is the backend's buildinfo (BSXML buildinfo), elements in its order.
type buildInfoXML struct {
	XMLName    xml.Name  `xml:"buildinfo"`
	Project    string    `xml:"project,attr"`
	Repository string    `xml:"repository,attr"`
	Package    string    `xml:"package,attr"`
	Arch       string    `xml:"arch"`
	Error      string    `xml:"error,omitempty"`
	SrcMD5     string    `xml:"srcmd5,omitempty"`
	VerifyMD5  string    `xml:"verifymd5,omitempty"`
	Rev        string    `xml:"rev,omitempty"`
	SpecFile   string    `xml:"specfile,omitempty"`
	File       string    `xml:"file,omitempty"`
	VersRel    string    `xml:"versrel,omitempty"`
	Bcnt       int       `xml:"bcnt,omitempty"`
	Release    string    `xml:"release,omitempty"`
	Debuginfo  string    `xml:"debuginfo,omitempty"`
	SubPacks   []string  `xml:"subpack"`
	Deps       []string  `xml:"dep"`
	BDeps      []bdepXML `xml:"bdep"`
	Paths      []pathXML `xml:"path"`
}

type bdepXML struct {
	Name       string `xml:"name,attr"`
	Preinstall string `xml:"preinstall,attr,omitempty"`
	Runscripts string `xml:"runscripts,attr,omitempty"`
	NotMeta    string `xml:"notmeta,attr,omitempty"`
	Epoch      string `xml:"epoch,attr,omitempty"`
	Version    string `xml:"version,attr"`
	Release    string `xml:"release,attr"`
	Arch       string `xml:"arch,attr"`
	Project    string `xml:"project,attr"`
	Repository string `xml:"repository,attr"`
}

type pathXML struct {
	Project    string `xml:"project,attr"`
	Repository string `xml:"repository,attr"`
}

func flag01(b bool) string {
	if b {
		return "1"
	}
	return ""
}

// buildInfo answers GET and POST /build/<p>/<r>/<a>/<package>/_buildinfo; a POST's body is the
// spec to use instead of the committed one; repeatable ?add= names extra build dependencies.
func (a *api) buildInfo(c *fiber.Ctx) error {
	var spec []byte
	if c.Method() == fiber.MethodPost {
		spec = append([]byte{}, c.Body()...)
	}
	var add []string
	for _, v := range c.Context().QueryArgs().PeekMulti("add") {
		add = append(add, string(v))
	}
	bi, err := a.Farm.BuildInfo(personOf(c), whereParam(c), pathParam(c, "package"), spec, add)
	if err != nil {
		return err
	}
	doc := buildInfoXML{Project: bi.Where.Project, Repository: bi.Where.Repository, Package: bi.Package, Arch: bi.Where.Arch,
		Error: bi.Error, SrcMD5: bi.SrcMD5, VerifyMD5: bi.SrcMD5, Rev: bi.Rev, SpecFile: bi.File, File: bi.File,
		VersRel: bi.VersRel, Bcnt: bi.Bcnt, Release: bi.Release, SubPacks: bi.SubPacks, Deps: bi.Deps}
	if bi.Release != "" {
		doc.Debuginfo = "0"
	}
	for _, b := range bi.BDeps {
		doc.BDeps = append(doc.BDeps, bdepXML{Name: b.Name, Preinstall: flag01(b.Preinstall), Runscripts: flag01(b.Runscripts),
			NotMeta: flag01(b.NotMeta), Epoch: b.Epoch, Version: b.Version, Release: b.Release, Arch: b.Arch,
			Project: b.Project, Repository: b.Repository})
	}
	for _, p := range bi.Paths {
		doc.Paths = append(doc.Paths, pathXML{Project: p.Project, Repository: p.Repository})
	}
	return sendXML(c, doc)
}

// buildDepInfoXML is the backend's builddepinfo (no namespace); see resolve.DepInfo.
type buildDepInfoXML struct {
	XMLName  xml.Name        `xml:"builddepinfo"`
	Packages []depPackageXML `xml:"package"`
	Cycles   []depCycleXML   `xml:"cycle"`
}

type depPackageXML struct {
	Name   string   `xml:"name,attr"`
	Source string   `xml:"source,omitempty"`
	PkgDep []string `xml:"pkgdep"`
	SubPkg []string `xml:"subpkg"`
}

type depCycleXML struct {
	Packages []string `xml:"package"`
}

// buildDepInfo answers GET/POST /build/<p>/<r>/<a>/_builddepinfo with repeatable ?package= and
// ?view=pkgnames|revpkgnames|order.
func (a *api) buildDepInfo(c *fiber.Ctx) error {
	var only []string
	for _, v := range c.Context().QueryArgs().PeekMulti("package") {
		only = append(only, string(v))
	}
	info, err := a.Farm.BuildDepInfo(personOf(c), whereParam(c), only, c.Query("view"))
	if err != nil {
		return err
	}
	return sendXML(c, depInfoDoc(info))
}

func depInfoDoc(info resolve.DepInfo) buildDepInfoXML {
	doc := buildDepInfoXML{}
	for _, p := range info.Packages {
		doc.Packages = append(doc.Packages, depPackageXML{Name: p.Name, Source: p.Source, PkgDep: p.PkgDep, SubPkg: p.SubPkg})
	}
	for _, cyc := range info.Cycles {
		doc.Cycles = append(doc.Cycles, depCycleXML{Packages: cyc})
	}
	return doc
}

// getBuildConfig answers GET /build/<p>/<r>/_buildconfig as text/plain.
func (a *api) getBuildConfig(c *fiber.Ctx) error {
	text, err := a.Farm.BuildConfig(personOf(c), pathParam(c, "project"), pathParam(c, "repository"))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return c.SendString(text)
}
