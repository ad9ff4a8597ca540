package spdx

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/bench"
)

// BenchmarkParseRepodata parses a generated repository of 5,000 packages with 40 files each,
// gzip-compressed and checksummed, end to end. The raw layer is what ParseRepodata cannot do
// without: both files read through SHA-256 and gunzipped, at once as ParseRepodata reads them,
// with the XML thrown away; x-raw is what parsing and joining cost on top.
func BenchmarkParseRepodata(b *testing.B) {
	const n, files = 5000, 40
	rpms := generatedRPMs(n, files)
	docs := [][]byte{gz(b, primaryXML(rpms)), gz(b, filelistsXML(rpms))}
	fsys := buildRepo([]dataSpec{
		{typ: "primary", href: "repodata/primary.xml.gz", content: docs[0]},
		{typ: "filelists", href: "repodata/filelists.xml.gz", content: docs[1]},
	})
	b.ReportAllocs()
	bench.Compare(b, 1, func(int) {
		got, err := ParseRepodata(fsys, "repo/repodata")
		if err != nil || len(got) != n {
			b.Fatalf("%d packages, %v", len(got), err)
		}
	}, func(int) {
		var wg sync.WaitGroup
		for _, doc := range docs {
			wg.Go(func() {
				h := sha256.New()
				zr, err := gzip.NewReader(io.TeeReader(bytes.NewReader(doc), h))
				if err != nil {
					panic(err)
				}
				if _, err := io.Copy(io.Discard, zr); err != nil {
					panic(err)
				}
				h.Sum(nil)
			})
		}
		wg.Wait()
	})
	b.ReportMetric(float64(b.N)*n*files/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkXMLScan is the tokenizer under BenchmarkParseRepodata: xmlScanner reading every
// token of the same primary.xml and filelists.xml, uncompressed, keeping nothing. The raw layer
// is the least any tokenizer does: finding every '<' of the documents with bytes.IndexByte.
func BenchmarkXMLScan(b *testing.B) {
	const n, files = 5000, 40
	rpms := generatedRPMs(n, files)
	docs := [][]byte{[]byte(primaryXML(rpms)), []byte(filelistsXML(rpms))}
	b.SetBytes(int64(len(docs[0]) + len(docs[1])))
	tags := 0
	bench.Compare(b, 1, func(int) {
		for _, doc := range docs {
			x := newXMLScanner(bytes.NewReader(doc), defaultLimits, nil)
			for {
				if err := x.next(); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
			}
		}
	}, func(int) {
		tags = 0
		for _, doc := range docs {
			for i := 0; ; i++ {
				j := bytes.IndexByte(doc[i:], '<')
				if j < 0 {
					break
				}
				i += j
				tags++
			}
		}
	})
	if tags == 0 {
		b.Fatal("no tags")
	}
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
