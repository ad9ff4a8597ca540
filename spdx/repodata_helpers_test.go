package spdx

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// Builders of small rpm-md repositories for table tests: the XML is shaped like createrepo's
// (namespaces, provides and requires that the parser must read past), written into an
// in-memory file system with a repomd.xml whose checksums match.

type testRPM struct {
	name, arch, epoch, ver, rel, pkgid, href string
	files                                    []testFile
}

type testFile struct{ path, typ string }

// testRPMs are the packages of the default repository: files out of order, a duplicate, a
// directory and a ghost.
var testRPMs = []testRPM{
	{name: "bash", arch: "x86_64", epoch: "0", ver: "5.2.37", rel: "1.1", pkgid: strings.Repeat("a1", 32),
		href: "x86_64/bash-5.2.37-1.1.x86_64.rpm", files: []testFile{
			{"/usr/bin/bash", ""}, {"/etc/bash.bashrc", ""}, {"/usr/share/doc/packages/bash", "dir"},
			{"/bin/sh", "ghost"}, {"/usr/bin/bash", ""}}},
	{name: "bash-doc", arch: "noarch", epoch: "1", ver: "5.2.37", rel: "1.1", pkgid: strings.Repeat("b2", 32),
		href: "noarch/bash-doc-5.2.37-1.1.noarch.rpm", files: []testFile{{"/usr/share/doc/bash/README & NOTES", ""}}},
}

// wantRPMs is what ParseRepodata makes of testRPMs.
var wantRPMs = []RPM{
	{Filename: "bash-5.2.37-1.1.x86_64.rpm", Name: "bash", Arch: "x86_64", Version: "5.2.37-1.1",
		Files: []string{"/bin/sh", "/etc/bash.bashrc", "/usr/bin/bash"}},
	{Filename: "bash-doc-5.2.37-1.1.noarch.rpm", Name: "bash-doc", Arch: "noarch", Version: "5.2.37-1.1",
		Files: []string{"/usr/share/doc/bash/README & NOTES"}},
}

func primaryXML(rpms []testRPM) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<metadata xmlns="http://linux.duke.edu/metadata/common" xmlns:rpm="http://linux.duke.edu/metadata/rpm" packages="%d">
`, len(rpms))
	for _, r := range rpms {
		fmt.Fprintf(&b, `<package type="rpm">
  <name>%s</name>
  <arch>%s</arch>
  <version epoch="%s" ver="%s" rel="%s"/>
  <checksum type="sha256" pkgid="YES">%s</checksum>
  <summary>The &lt;%s&gt; package</summary>
  <description>Text with a <![CDATA[section]]> and an &amp; entity.</description>
  <location href="%s"/>
  <format>
    <rpm:license>GPL-3.0-or-later</rpm:license>
    <rpm:provides><rpm:entry name="%s" flags="EQ" epoch="%s" ver="%s" rel="%s"/></rpm:provides>
    <rpm:requires><rpm:entry name="/bin/sh" pre="1"/></rpm:requires>
  </format>
</package>
`, r.name, r.arch, r.epoch, r.ver, r.rel, r.pkgid, r.name, r.href, r.name, r.epoch, r.ver, r.rel)
	}
	b.WriteString("</metadata>\n")
	return b.String()
}

func filelistsXML(rpms []testRPM) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<filelists xmlns="http://linux.duke.edu/metadata/filelists" packages="%d">
`, len(rpms))
	for _, r := range rpms {
		fmt.Fprintf(&b, `<package pkgid="%s" name="%s" arch="%s">
  <version epoch="%s" ver="%s" rel="%s"/>
`, r.pkgid, r.name, r.arch, r.epoch, r.ver, r.rel)
		for _, f := range r.files {
			typ := ""
			if f.typ != "" {
				typ = fmt.Sprintf(` type="%s"`, f.typ)
			}
			fmt.Fprintf(&b, "  <file%s>%s</file>\n", typ, strings.ReplaceAll(f.path, "&", "&amp;"))
		}
		b.WriteString("</package>\n")
	}
	b.WriteString("</filelists>\n")
	return b.String()
}

// gz compresses s.
func gz(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// dataSpec is one <data> entry of repomd.xml and the file it names.
type dataSpec struct {
	typ      string
	href     string // relative to the repository root "repo"
	content  []byte // stored at href; nil for no file
	sumType  string // "" for sha256
	checksum string // "" for the right one, "-" for none
	base     string // xml:base
}

// testRepo returns the default repository's data entries: gzip-compressed primary and
// filelists of testRPMs.
func testRepo(t testing.TB) []dataSpec {
	return []dataSpec{
		{typ: "primary", href: "repodata/0001-primary.xml.gz", content: gz(t, primaryXML(testRPMs))},
		{typ: "filelists", href: "repodata/0002-filelists.xml.gz", content: gz(t, filelistsXML(testRPMs))},
	}
}

// buildRepo writes the entries and their repomd.xml under repo/ of a new file system.
func buildRepo(data []dataSpec) fstest.MapFS {
	fsys := fstest.MapFS{}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<repomd xmlns="http://linux.duke.edu/metadata/repo" xmlns:rpm="http://linux.duke.edu/metadata/rpm">
  <revision>1700000000</revision>
`)
	for _, d := range data {
		sum := sha256.Sum256(d.content)
		sumType, checksum := d.sumType, d.checksum
		if sumType == "" {
			sumType = "sha256"
		}
		if checksum == "" {
			checksum = hex.EncodeToString(sum[:])
		}
		fmt.Fprintf(&b, "  <data type=%q>\n", d.typ)
		if checksum != "-" {
			fmt.Fprintf(&b, "    <checksum type=%q>%s</checksum>\n", sumType, checksum)
		}
		base := ""
		if d.base != "" {
			base = fmt.Sprintf(` xml:base=%q`, d.base)
		}
		fmt.Fprintf(&b, "    <location%s href=%q/>\n    <size>%d</size>\n  </data>\n", base, d.href, len(d.content))
		if d.content != nil {
			fsys["repo/"+d.href] = &fstest.MapFile{Data: d.content}
		}
	}
	b.WriteString("</repomd>\n")
	fsys["repo/repodata/repomd.xml"] = &fstest.MapFile{Data: []byte(b.String())}
	return fsys
}
