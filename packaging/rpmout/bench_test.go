package rpmout

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"testing"

	"github.com/google/rpmpack"

	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// benchEntries is a repository of n packages with files files each (one a directory, two in
// /usr/bin so primary.xml lists them), a few dependencies each.
func benchEntries(n, files int) []Entry {
	entries := make([]Entry, n)
	for i := range entries {
		name := fmt.Sprintf("package-%04d", i)
		r := RPM{
			Name: name, Version: "1.0", Release: "1.1", Arch: "x86_64", Summary: "Package " + name,
			Description: "The " + name + " package, built by the simulated farm.", License: "MIT",
			Group: "Development/Libraries", BuildHost: "worker-1", BuildTime: buildTime,
			Provides: []specfile.Dep{{Name: "lib" + name + ".so.1()(64bit)"}},
			Requires: []specfile.Dep{{Name: "glibc", Op: ">=", Version: "2.38"}, {Name: "package-0000"}},
		}
		r.Files = append(r.Files, File{Path: "/usr/share/doc/packages/" + name, Dir: true})
		r.Files = append(r.Files, File{Path: "/usr/bin/" + name}, File{Path: "/usr/bin/" + name + "-config"})
		for j := 3; j < files; j++ {
			r.Files = append(r.Files, File{Path: fmt.Sprintf("/usr/lib64/%s/module-%02d.so", name, j)})
		}
		entries[i] = Entry{RPM: r, Href: "x86_64/" + Filename(r), Size: 20000 + int64(i),
			Checksum: fmt.Sprintf("%064x", i), Time: publishTime, HeaderStart: 272, HeaderEnd: 4000,
			InstalledSize: 100000, ArchiveSize: 100000}
	}
	return entries
}

// BenchmarkRepodata writes the metadata of 1,000 packages with 20 files each. The raw layer is
// the work no rpm-md writer can avoid: gzip (same level) and SHA-256 of the compressed and the
// open bytes of the very same three documents, rendered once beforehand. x-raw is thus the cost
// of generating the XML on top of compressing and hashing it.
func BenchmarkRepodata(b *testing.B) {
	entries := benchEntries(1000, 20)
	files, err := Repodata(entries, publishTime)
	if err != nil {
		b.Fatal(err)
	}
	var docs [][]byte
	for _, typ := range []string{"primary", "filelists", "other"} {
		docs = append(docs, dataFile(b, files, typ))
	}
	b.ReportAllocs()
	bench.Compare(b, 1, func(int) {
		if _, err := Repodata(entries, publishTime); err != nil {
			b.Fatal(err)
		}
	}, func(int) {
		for _, doc := range docs {
			var out bytes.Buffer
			gzHash := sha256.New()
			zw := gzip.NewWriter(io.MultiWriter(&out, gzHash))
			zw.Write(doc)
			zw.Close()
			sha256.Sum256(doc)
			gzHash.Sum(nil)
		}
	})
}

// BenchmarkWrite writes one RPM with 50 small files. The raw layer is rpmpack itself with the
// same metadata and files: x-raw is the cost of the conversion and checks around it.
func BenchmarkWrite(b *testing.B) {
	r := demoBinary()
	r.Files = nil
	for i := range 50 {
		r.Files = append(r.Files, File{Path: fmt.Sprintf("/usr/share/demo/file-%02d.txt", i), Body: bytes.Repeat([]byte("x"), 100+i)})
	}
	b.ReportAllocs()
	bench.Compare(b, 1, func(int) {
		if err := Write(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}, func(int) {
		pkg, err := rpmpack.NewRPM(rpmpack.RPMMetaData{
			Name: r.Name, Version: r.Version, Release: r.Release, Epoch: 2, Arch: r.Arch,
			Summary: r.Summary, Description: r.Description, Licence: r.License, Group: r.Group,
			URL: r.URL, Vendor: r.Vendor, Packager: r.Packager, BuildHost: r.BuildHost, BuildTime: r.BuildTime,
		})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range r.Files {
			pkg.AddFile(rpmpack.RPMFile{Name: f.Path, Body: f.Body, Mode: 0o644, Owner: "root", Group: "root"})
		}
		if err := pkg.Write(io.Discard); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkWriteSource is BenchmarkWrite for a source package, which Write rewrites after
// rpmpack (header re-encoded, signature recomputed).
func BenchmarkWriteSource(b *testing.B) {
	r := demoSource()
	for i := range 48 {
		r.Files = append(r.Files, File{Path: fmt.Sprintf("patch-%02d.diff", i), Body: bytes.Repeat([]byte("x"), 100+i)})
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
}
