package rpmout

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// The three rpm-md package documents, laid out as createrepo_c 0.17 writes them (two-space
// indentation, one <package> per entry, no newline after the root's end tag).

const (
	nsCommon    = "http://linux.duke.edu/metadata/common"
	nsFilelists = "http://linux.duke.edu/metadata/filelists"
	nsOther     = "http://linux.duke.edu/metadata/other"
	nsRepo      = "http://linux.duke.edu/metadata/repo"
	nsRPM       = "http://linux.duke.edu/metadata/rpm"
	xmlDecl     = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
)

// writePrimary writes primary.xml: per package its NEVRA, checksum, texts, sizes, location, the
// rpm format block with dependencies, and the "primary" files (isPrimaryFile).
func writePrimary(x xmlWriter, entries []Entry) {
	x.raw(xmlDecl + `<metadata xmlns="` + nsCommon + `" xmlns:rpm="` + nsRPM + `"`)
	x.intAttr("packages", int64(len(entries)))
	x.raw(">\n")
	for i := range entries {
		e := &entries[i]
		r := &e.RPM
		x.raw(`<package type="rpm">` + "\n")
		x.element("  ", "name", r.Name)
		x.element("  ", "arch", e.arch())
		writeVersion(x, r)
		x.raw(`  <checksum type="sha256" pkgid="YES">`)
		x.text(e.Checksum)
		x.raw("</checksum>\n")
		x.element("  ", "summary", r.Summary)
		x.element("  ", "description", r.Description)
		x.element("  ", "packager", r.Packager)
		x.element("  ", "url", r.URL)
		x.raw("  <time")
		x.intAttr("file", unix(e.Time))
		x.intAttr("build", unix(r.BuildTime))
		x.raw("/>\n  <size")
		x.intAttr("package", e.Size)
		x.intAttr("installed", e.InstalledSize)
		x.intAttr("archive", e.ArchiveSize)
		x.raw("/>\n  <location")
		x.attr("href", e.Href)
		x.raw("/>\n  <format>\n")
		x.element("    ", "rpm:license", r.License)
		x.element("    ", "rpm:vendor", r.Vendor)
		x.element("    ", "rpm:group", r.Group)
		x.element("    ", "rpm:buildhost", r.BuildHost)
		x.element("    ", "rpm:sourcerpm", e.sourceRPM())
		x.raw("    <rpm:header-range")
		x.intAttr("start", e.HeaderStart)
		x.intAttr("end", e.HeaderEnd)
		x.raw("/>\n")
		provides := r.provides()
		writeDeps(x, "rpm:provides", provides)
		writeDeps(x, "rpm:requires", primaryRequires(r, provides))
		writeDeps(x, "rpm:conflicts", r.Conflicts)
		writeDeps(x, "rpm:obsoletes", r.Obsoletes)
		for _, f := range r.Files { // sorted by Repodata
			if isPrimaryFile(f.Path) {
				writeFile(x, "    ", f)
			}
		}
		x.raw("  </format>\n</package>\n")
	}
	x.raw("</metadata>")
}

// writeFilelists writes filelists.xml: every file of every package.
func writeFilelists(x xmlWriter, entries []Entry) {
	x.raw(xmlDecl + `<filelists xmlns="` + nsFilelists + `"`)
	x.intAttr("packages", int64(len(entries)))
	x.raw(">\n")
	for i := range entries {
		writePackageStart(x, &entries[i])
		for _, f := range entries[i].RPM.Files { // sorted by Repodata
			writeFile(x, "  ", f)
		}
		x.raw("</package>\n")
	}
	x.raw("</filelists>")
}

// writeOther writes other.xml. It would hold changelogs; simulated builds have none, so each
// package is its version only (what createrepo_c writes for a package without changelog).
func writeOther(x xmlWriter, entries []Entry) {
	x.raw(xmlDecl + `<otherdata xmlns="` + nsOther + `"`)
	x.intAttr("packages", int64(len(entries)))
	x.raw(">\n")
	for i := range entries {
		writePackageStart(x, &entries[i])
		x.raw("</package>\n")
	}
	x.raw("</otherdata>")
}

func writePackageStart(x xmlWriter, e *Entry) {
	x.raw("<package")
	x.attr("pkgid", e.Checksum)
	x.attr("name", e.RPM.Name)
	x.attr("arch", e.arch())
	x.raw(">\n")
	writeVersion(x, &e.RPM)
}

func writeVersion(x xmlWriter, r *RPM) {
	x.raw("  <version")
	x.attr("epoch", cmp.Or(r.Epoch, "0"))
	x.attr("ver", r.Version)
	x.attr("rel", r.Release)
	x.raw("/>\n")
}

func writeFile(x xmlWriter, indent string, f File) {
	x.raw(indent)
	if f.Dir {
		x.raw(`<file type="dir">`)
	} else {
		x.raw("<file>")
	}
	x.text(f.Path)
	x.raw("</file>\n")
}

// flagNames are rpm-md's names of the dependency operators.
var flagNames = map[string]string{"<": "LT", ">": "GT", "=": "EQ", "<=": "LE", ">=": "GE"}

// writeDeps writes one dependency list; none writes nothing, as createrepo_c does.
func writeDeps(x xmlWriter, elem string, deps []specfile.Dep) {
	open := false
	for _, d := range deps {
		flags := flagNames[d.Op]
		var epoch, ver, rel string
		if flags != "" {
			var ok bool
			if epoch, ver, rel, ok = splitEVR(d.Version); !ok {
				continue // createrepo_c skips a dependency with a non-numeric epoch
			}
		}
		if d.Name == "" {
			continue
		}
		if !open {
			x.raw("    <" + elem + ">\n")
			open = true
		}
		x.raw("      <rpm:entry")
		x.attr("name", d.Name)
		if flags != "" {
			x.attr("flags", flags)
			x.attr("epoch", epoch)
			if ver != "" {
				x.attr("ver", ver)
			}
			if rel != "" {
				x.attr("rel", rel)
			}
		}
		x.raw("/>\n")
	}
	if open {
		x.raw("    </" + elem + ">\n")
	}
}

// splitEVR splits [epoch:]version[-release] as createrepo_c does: the epoch defaults to "0"
// and must be numeric; the release starts at the first "-".
func splitEVR(s string) (epoch, ver, rel string, ok bool) {
	epoch = "0"
	if e, rest, found := strings.Cut(s, ":"); found {
		if _, err := strconv.ParseUint(e, 10, 64); err != nil && e != "" {
			return "", "", "", false
		}
		if e != "" {
			epoch = e
		}
		s = rest
	}
	ver, rel, _ = strings.Cut(s, "-")
	return epoch, ver, rel, true
}

// compareFiles orders files as the RPM header holds them (rpmpack sorts by path).
func compareFiles(a, b File) int { return strings.Compare(a.Path, b.Path) }
