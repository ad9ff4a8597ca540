package buildapi

import (
	"encoding/xml"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/packaging/resolve"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Build results as files: a package's binary list in a where, a binary's bytes and its
// fileinfo (buildsvc farm_read_binaries.go). The where's _repository is in
// build_repository.go, buildinfo/builddepinfo/_buildconfig in build_buildinfo.go.

// bindBuildBinaries registers the binary, repository and buildinfo routes under /build. The
// :package and :binary routes hand names starting with "_" they do not serve (_log, _status,
// _history, _jobhistory, …) on to the routes registered after them.
func (a *api) bindBuildBinaries(r fiber.Router) {
	a.get(r, "/build/:project/:repository/_buildconfig", a.getBuildConfig)
	a.get(r, "/build/:project/:repository/:arch/_builddepinfo", a.buildDepInfo)
	r.Post("/build/:project/:repository/:arch/_builddepinfo", a.authenticated, a.buildDepInfo)
	a.get(r, "/build/:project/:repository/:arch/_repository", a.repositoryList)
	r.Post("/build/:project/:repository/:arch/_repository", a.authenticated, a.repositoryMatch)
	a.get(r, "/build/:project/:repository/:arch/_repository/:binary", a.repositoryFile)
	r.Put("/build/:project/:repository/:arch/_repository/:binary", a.authenticated, a.repositoryPut)
	a.get(r, "/build/:project/:repository/:arch/:package/_buildinfo", a.buildInfo)
	r.Post("/build/:project/:repository/:arch/:package/_buildinfo", a.authenticated, a.buildInfo)
	a.get(r, "/build/:project/:repository/:arch/:package", a.binaryList)
	a.get(r, "/build/:project/:repository/:arch/:package/:binary", a.binaryFile)
}

// whereParam is the where a /build/<project>/<repository>/<arch> path names.
func whereParam(c *fiber.Ctx) buildstore.Where {
	return buildstore.Where{Project: pathParam(c, "project"), Repository: pathParam(c, "repository"), Arch: pathParam(c, "arch")}
}

// binaryListXML is the backend's binarylist.
type binaryListXML struct {
	XMLName  xml.Name    `xml:"binarylist"`
	Binaries []binaryXML `xml:"binary"`
}

type binaryXML struct {
	Filename string `xml:"filename,attr"`
	Size     int64  `xml:"size,attr"`
	MTime    int64  `xml:"mtime,attr"`
}

func binaryEntry(name string, b buildstore.Binary) binaryXML {
	return binaryXML{Filename: name, Size: b.Size, MTime: b.MTime.Unix()}
}

// binaryList answers GET /build/<p>/<r>/<a>/<package>.
func (a *api) binaryList(c *fiber.Ctx) error {
	pkg := pathParam(c, "package")
	if strings.HasPrefix(pkg, "_") {
		return c.Next()
	}
	if err := listView(c, ""); err != nil {
		return err
	}
	list, err := a.Farm.BinaryList(personOf(c), whereParam(c), pkg)
	if err != nil {
		return err
	}
	doc := binaryListXML{Binaries: []binaryXML{}}
	for _, b := range list {
		doc.Binaries = append(doc.Binaries, binaryEntry(b.Filename, b))
	}
	return sendXML(c, doc)
}

// listView refuses a binarylist view this appliance does not serve (cpio, binaryversions,
// cache, solv, …) with the backend's 400; also is the one other view the list takes as plain.
func listView(c *fiber.Ctx, also string) error {
	if v := c.Query("view"); v != "" && v != also {
		return buildsvc.BadRequest("400", "unsupported view '%s'", v)
	}
	return nil
}

// binaryFile answers GET /build/<p>/<r>/<a>/<package>/<binary>: the file, or with
// ?view=fileinfo|fileinfo_ext its description.
func (a *api) binaryFile(c *fiber.Ctx) error {
	pkg, name := pathParam(c, "package"), pathParam(c, "binary")
	if strings.HasPrefix(pkg, "_") || strings.HasPrefix(name, "_") {
		return c.Next()
	}
	if done, err := a.fileInfoView(c, pkg, name); done {
		return err
	}
	b, data, err := a.Farm.BinaryFile(personOf(c), whereParam(c), pkg, name)
	if err != nil {
		return err
	}
	return sendBinary(c, b.Filename, data)
}

// sendBinary answers a binary's bytes: application/x-rpm for an RPM, else octet-stream.
func sendBinary(c *fiber.Ctx, name string, data []byte) error {
	ct := "application/octet-stream"
	if strings.HasSuffix(name, ".rpm") {
		ct = "application/x-rpm"
	}
	c.Set(fiber.HeaderContentType, ct)
	return c.Send(data)
}

// fileInfoView answers ?view=fileinfo|fileinfo_ext of a binary; done is false when no view
// (the file itself) is asked for. An unknown view is 400.
func (a *api) fileInfoView(c *fiber.Ctx, pkg, name string) (bool, error) {
	view := c.Query("view")
	switch view {
	case "":
		return false, nil
	case "fileinfo", "fileinfo_ext":
	default:
		return true, buildsvc.BadRequest("400", "unknown view '%s' (fileinfo or fileinfo_ext)", view)
	}
	fi, err := a.Farm.FileInfo(personOf(c), whereParam(c), pkg, name, view == "fileinfo_ext")
	if err != nil {
		return true, err
	}
	return true, sendXML(c, fileInfoDoc(name, fi))
}

// fileInfoXML is the backend's fileinfo (BSXML fileinfo).
type fileInfoXML struct {
	XMLName     xml.Name         `xml:"fileinfo"`
	Filename    string           `xml:"filename,attr"`
	Name        string           `xml:"name,omitempty"`
	Epoch       string           `xml:"epoch,omitempty"`
	Version     string           `xml:"version,omitempty"`
	Release     string           `xml:"release,omitempty"`
	Arch        string           `xml:"arch,omitempty"`
	Summary     string           `xml:"summary,omitempty"`
	Description string           `xml:"description,omitempty"`
	Size        int64            `xml:"size"`
	MTime       int64            `xml:"mtime"`
	Provides    []string         `xml:"provides"`
	Requires    []string         `xml:"requires"`
	ProvidesExt []providesExtXML `xml:"provides_ext"`
	RequiresExt []requiresExtXML `xml:"requires_ext"`
}

type providesExtXML struct {
	Dep        string          `xml:"dep,attr"`
	RequiredBy []providedByXML `xml:"requiredby"`
}

type requiresExtXML struct {
	Dep        string          `xml:"dep,attr"`
	ProvidedBy []providedByXML `xml:"providedby"`
}

type providedByXML struct {
	Name       string `xml:"name,attr"`
	Epoch      string `xml:"epoch,attr,omitempty"`
	Version    string `xml:"version,attr"`
	Release    string `xml:"release,attr"`
	Arch       string `xml:"arch,attr"`
	Project    string `xml:"project,attr"`
	Repository string `xml:"repository,attr"`
}

func fileInfoDoc(name string, fi farm.FileInfo) fileInfoXML {
	b := fi.Binary
	doc := fileInfoXML{Filename: name, Name: b.Name, Epoch: b.Epoch, Version: b.Version, Release: b.Release, Arch: b.Arch,
		Summary: b.Summary, Description: b.Description, Size: b.Size, MTime: b.MTime.Unix()}
	if doc.Epoch == "0" {
		doc.Epoch = ""
	}
	for _, d := range b.Provides {
		doc.Provides = append(doc.Provides, d.String())
	}
	for _, d := range b.Requires {
		doc.Requires = append(doc.Requires, d.String())
	}
	for _, r := range fi.ProvidesExt {
		x := providesExtXML{Dep: r.Dep.String()}
		for _, p := range r.RequiredBy {
			x.RequiredBy = append(x.RequiredBy, binaryRef(p))
		}
		doc.ProvidesExt = append(doc.ProvidesExt, x)
	}
	for _, r := range fi.RequiresExt {
		x := requiresExtXML{Dep: r.Dep.String()}
		for _, p := range r.ProvidedBy {
			x.ProvidedBy = append(x.ProvidedBy, binaryRef(p))
		}
		doc.RequiresExt = append(doc.RequiresExt, x)
	}
	return doc
}

// binaryRef is a binary of the path chain as <providedby> and <requiredby> name it.
func binaryRef(p resolve.Binary) providedByXML {
	return providedByXML{Name: p.Name, Epoch: p.Epoch, Version: p.Version, Release: p.Release,
		Arch: p.Arch, Project: p.Project, Repository: p.Repository}
}
