package buildapi

import (
	"net/http"

	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"regexp"
	"strings"

	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// The other views of a package's sources: ?view=info (the backend's <sourceinfo>: which
// tree, which spec file, what it links to, and with parse=1 the name, version, release and
// subpackages read from the spec) and ?view=cpio (every file of the tree as one newc cpio
// archive, osc's way to fetch a package in one request). GET /source/P?view=info lists the
// sourceinfo of each package.

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

// sourceInfo describes package pkg's tree: expanded when it is a link (a broken link gives
// the error instead), the spec file named after the package preferred.
func sourceInfo(tx *bbolt.Tx, who buildstore.Person, project, pkg, rev string, parse bool) (sourceinfoXML, error) {
	info := sourceinfoXML{Package: pkg}
	v, err := buildsvc.ReadView(tx, who, project, pkg, rev, false, "")
	if err != nil {
		return info, err
	}
	info.Srcmd5 = v.Tree.SrcMD5
	if v.Tree.Rev > 0 {
		info.Rev, info.VRev = fmt.Sprint(v.Tree.Rev), fmt.Sprint(v.Tree.VRev)
	}
	if v.Link != nil {
		info.Linked = []linkedXML{{Project: v.Link.Project, Package: v.Link.Package}}
		if v.Link.Error != "" {
			info.Error = v.Link.Error
			return info, nil
		}
		if v, err = buildsvc.ReadView(tx, who, project, pkg, rev, true, ""); err != nil {
			return info, err
		}
		info.LSrcmd5, info.Srcmd5 = info.Srcmd5, v.Tree.SrcMD5
	}
	info.Verifymd5 = v.Tree.SrcMD5
	spec, ok := v.Tree.File(pkg + ".spec")
	for _, f := range v.Tree.Files {
		if !ok && strings.HasSuffix(f.Name, ".spec") {
			spec, ok = f, true
		}
	}
	if !ok {
		info.Error = "no specfile"
		return info, nil
	}
	info.Filename = spec.Name
	if parse {
		data, err := v.Content(tx, spec.MD5)
		if err != nil {
			return info, err
		}
		info.Name, info.Version, info.Release, info.Subpacks = parseSpec(data)
	}
	return info, nil
}

var (
	subpackageLine = regexp.MustCompile(`^%package\s+(-n\s+)?(\S+)`)
	defineLine     = regexp.MustCompile(`^%(?:define|global)\s+(\w+)\s+(.*\S)`)
	macroRef       = regexp.MustCompile(`%\{\??(\w+)\}|%(\w+)`)
)

// parseSpec reads Name, Version and Release (default "0") and the subpackages a spec file
// declares (%package foo → <name>-foo; %package -n foo → foo). Macros the spec defines
// itself (%define, %global, and the name/version/release tags) are expanded; others stay as
// written — there is no rpm here to know them.
func parseSpec(spec []byte) (name, version, release string, subpacks []string) {
	macros := map[string]string{}
	expand := func(s string) string {
		for range 5 { // definitions may refer to each other; a few rounds settle them
			s = macroRef.ReplaceAllStringFunc(s, func(m string) string {
				key := macroRef.FindStringSubmatch(m)
				if v, ok := macros[key[1]+key[2]]; ok {
					return v
				}
				return m
			})
		}
		return s
	}
	sc := bufio.NewScanner(bytes.NewReader(spec))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var subs [][2]string
	for sc.Scan() {
		line := sc.Text()
		if m := defineLine.FindStringSubmatch(line); m != nil {
			macros[m[1]] = expand(m[2])
			continue
		}
		if m := subpackageLine.FindStringSubmatch(line); m != nil {
			subs = append(subs, [2]string{m[1], m[2]})
			continue
		}
		tag, value, ok := strings.Cut(line, ":")
		if !ok || len(subs) > 0 {
			continue
		}
		switch key := strings.ToLower(strings.TrimSpace(tag)); key {
		case "name", "version", "release":
			macros[key] = expand(strings.TrimSpace(value))
		}
	}
	name, version, release = macros["name"], macros["version"], macros["release"]
	if release == "" {
		release = "0"
	}
	if name != "" {
		subpacks = append(subpacks, name)
	}
	for _, s := range subs {
		if s[0] != "" {
			subpacks = append(subpacks, expand(s[1]))
		} else {
			subpacks = append(subpacks, name+"-"+expand(s[1]))
		}
	}
	return name, version, release, subpacks
}

// packageInfo answers GET /source/P/K?view=info.
func (a *api) packageInfo(c *fiber.Ctx) error {
	var info sourceinfoXML
	err := a.Store.View(func(tx *bbolt.Tx) error {
		project, pkg := pathParam(c, "project"), pathParam(c, "package")
		if _, _, err := buildsvc.LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		var err error
		info, err = sourceInfo(tx, personOf(c), project, pkg, c.Query("rev"), boolParam(c, "parse"))
		return err
	})
	if err != nil {
		return err
	}
	return sendXML(c, info)
}

// projectInfo answers GET /source/P?view=info: every package's sourceinfo, or those named by
// repeated ?package=.
func (a *api) projectInfo(c *fiber.Ctx) error {
	project := pathParam(c, "project")
	wanted := map[string]bool{}
	for _, v := range c.Context().QueryArgs().PeekMulti("package") {
		wanted[string(v)] = true
	}
	doc := sourceinfoListXML{}
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if _, err := buildstore.GetProject(tx, project); err != nil {
			return buildsvc.NotFoundAs(err, "unknown_project")
		}
		names, err := buildstore.PackageNames(tx, project, false)
		if err != nil {
			return err
		}
		for _, name := range names {
			if len(wanted) > 0 && !wanted[name] {
				continue
			}
			info, err := sourceInfo(tx, personOf(c), project, name, "", boolParam(c, "parse"))
			if kit.Status(err) == http.StatusForbidden {
				continue // sources this person may not read are left out
			}
			if err != nil {
				return err
			}
			doc.Infos = append(doc.Infos, info)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return sendXML(c, doc)
}

// packageCpio answers ?view=cpio: the tree at ?rev= (expanded with expand=1) as a newc cpio
// archive, files in name order.
func (a *api) packageCpio(c *fiber.Ctx) error {
	var archive bytes.Buffer
	err := a.Store.View(func(tx *bbolt.Tx) error {
		v, err := requestView(tx, c, pathParam(c, "project"), pathParam(c, "package"), false)
		if err != nil {
			return err
		}
		w := newCpioWriter(&archive)
		for _, f := range v.Tree.Files {
			data, err := v.Content(tx, f.MD5)
			if err != nil {
				return err
			}
			w.file(f.Name, f.MTime, data)
		}
		w.close()
		return nil
	})
	if err != nil {
		return err
	}
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
