package spdx

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"testing"
)

// BenchmarkParseRepodata parses a generated repository of 5,000 packages with 40 files each,
// gzip-compressed and checksummed, end to end.
func BenchmarkParseRepodata(b *testing.B) {
	const n, files = 5000, 40
	rpms := generatedRPMs(n, files)
	fsys := buildRepo([]dataSpec{
		{typ: "primary", href: "repodata/primary.xml.gz", content: gz(b, primaryXML(rpms))},
		{typ: "filelists", href: "repodata/filelists.xml.gz", content: gz(b, filelistsXML(rpms))},
	})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		got, err := ParseRepodata(fsys, "repo/repodata")
		if err != nil || len(got) != n {
			b.Fatalf("%d packages, %v", len(got), err)
		}
	}
	b.ReportMetric(float64(b.N)*n*files/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkXMLTokensRaw is the layer under BenchmarkParseRepodata: encoding/xml tokenizing the
// same filelists.xml, uncompressed, with nothing kept.
func BenchmarkXMLTokensRaw(b *testing.B) {
	const n, files = 5000, 40
	doc := []byte(filelistsXML(generatedRPMs(n, files)))
	b.SetBytes(int64(len(doc)))
	b.ResetTimer()
	for b.Loop() {
		dec := xml.NewDecoder(bytes.NewReader(doc))
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)*n*files/b.Elapsed().Seconds(), "files/s")
}

// generatedRPMs returns n packages with files files each, one of them a directory.
func generatedRPMs(n, files int) []testRPM {
	rpms := make([]testRPM, n)
	for i := range rpms {
		name := fmt.Sprintf("package-%05d", i)
		r := testRPM{name: name, arch: "x86_64", epoch: "0", ver: "1.0", rel: "1.1",
			pkgid: fmt.Sprintf("%064x", i), href: "x86_64/" + name + "-1.0-1.1.x86_64.rpm"}
		r.files = append(r.files, testFile{"/usr/share/doc/packages/" + name, "dir"})
		for j := 1; j < files; j++ {
			r.files = append(r.files, testFile{fmt.Sprintf("/usr/lib64/%s/module-%02d.so", name, j), ""})
		}
		rpms[i] = r
	}
	return rpms
}
