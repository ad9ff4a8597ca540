package buildapi

import (
	"bytes"
	"encoding/xml"
	"fmt"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// The other views of a package's sources: ?view=info (the backend's <sourceinfo>: which
// tree, which spec file, what it links to, and with parse=1 the name, version, release and
// subpackages read from the spec) and ?view=cpio (every file of the tree as one newc cpio
// archive, osc's way to fetch a package in one request). GET /source/P?view=info lists the
// sourceinfo of each package. buildsvc gathers them; this file renders them.

// sourceinfoXML is BSXML's sourceinfo, in its element order.
type sourceinfoXML struct {
	XMLName   xml.Name    `xml:"sourceinfo"`
	Package   string      `xml:"package,attr"`
	Rev       string      `xml:"rev,attr,omitempty"`
	VRev      string      `xml:"vrev,attr,omitempty"`
	Srcmd5    string      `xml:"srcmd5,attr"`
	LSrcmd5   string      `xml:"lsrcmd5,attr,omitempty"`
	Verifymd5 string      `xml:"verifymd5,attr,omitempty"`
	Filename  string      `xml:"filename,omitempty"`
	Error     string      `xml:"error,omitempty"`
	Linked    []linkedXML `xml:"linked"`
	Name      string      `xml:"name,omitempty"`
	Version   string      `xml:"version,omitempty"`
	Release   string      `xml:"release,omitempty"`
	Subpacks  []string    `xml:"subpacks"`
}

type linkedXML struct {
	Project string `xml:"project,attr"`
	Package string `xml:"package,attr"`
}

type sourceinfoListXML struct {
	XMLName xml.Name        `xml:"sourceinfolist"`
	Infos   []sourceinfoXML `xml:"sourceinfo"`
}

// infoDoc renders a package's source info.
func infoDoc(i buildsvc.SourceInfo) sourceinfoXML {
	d := sourceinfoXML{Package: i.Package, Srcmd5: i.SrcMD5, LSrcmd5: i.LSrcMD5, Verifymd5: i.VerifyMD5, Filename: i.Filename,
		Error: i.Error, Name: i.Name, Version: i.Version, Release: i.Release, Subpacks: i.Subpacks}
	if i.Rev > 0 {
		d.Rev, d.VRev = fmt.Sprint(i.Rev), fmt.Sprint(i.VRev)
	}
	if i.Linked != nil {
		d.Linked = []linkedXML{{Project: i.Linked.Project, Package: i.Linked.Name}}
	}
	return d
}

// packageInfo answers GET /source/P/K?view=info.
func (a *api) packageInfo(c *fiber.Ctx) error {
	info, err := a.Svc.PackageInfo(personOf(c), pathParam(c, "project"), pathParam(c, "package"), c.Query("rev"), boolParam(c, "parse"))
	if err != nil {
		return err
	}
	return sendXML(c, infoDoc(info))
}

// projectInfo answers GET /source/P?view=info: every package's sourceinfo, or those named by
// repeated ?package=.
func (a *api) projectInfo(c *fiber.Ctx) error {
	var wanted []string
	for _, v := range c.Context().QueryArgs().PeekMulti("package") {
		wanted = append(wanted, string(v))
	}
	infos, err := a.Svc.ProjectInfo(personOf(c), pathParam(c, "project"), wanted, boolParam(c, "parse"))
	if err != nil {
		return err
	}
	doc := sourceinfoListXML{}
	for _, i := range infos {
		doc.Infos = append(doc.Infos, infoDoc(i))
	}
	return sendXML(c, doc)
}

// packageCpio answers ?view=cpio: the tree at ?rev= (expanded with expand=1) as a newc cpio
// archive, files in name order.
func (a *api) packageCpio(c *fiber.Ctx) error {
	files, err := a.Svc.TreeContents(personOf(c), pathParam(c, "project"), pathParam(c, "package"), treeOptions(c))
	if err != nil {
		return err
	}
	var archive bytes.Buffer
	w := newCpioWriter(&archive)
	for _, f := range files {
		w.file(f.Name, f.MTime, f.Data)
	}
	w.close()
	c.Set(fiber.HeaderContentType, "application/x-cpio")
	return c.Send(archive.Bytes())
}

// cpioWriter writes the "newc" (SVR4, 070701) cpio format the backend streams: a 110-byte
// ASCII header per file, name and data each padded to 4 bytes, and a TRAILER!!! entry.
type cpioWriter struct {
	w   *bytes.Buffer
	ino int
}

func newCpioWriter(w *bytes.Buffer) *cpioWriter { return &cpioWriter{w: w} }

func (cw *cpioWriter) entry(name string, mode, mtime int64, data []byte) {
	cw.ino++
	fmt.Fprintf(cw.w, "070701%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x",
		cw.ino, mode, 0, 0, 1, mtime, len(data), 0, 0, 0, 0, len(name)+1, 0)
	cw.w.WriteString(name)
	cw.w.WriteByte(0)
	cw.pad()
	cw.w.Write(data)
	cw.pad()
}

func (cw *cpioWriter) pad() {
	for cw.w.Len()%4 != 0 {
		cw.w.WriteByte(0)
	}
}

// file adds a regular file (mode 0644).
func (cw *cpioWriter) file(name string, mtime int64, data []byte) {
	cw.entry(name, 0o100644, mtime, data)
}

func (cw *cpioWriter) close() { cw.entry("TRAILER!!!", 0, 0, nil) }
