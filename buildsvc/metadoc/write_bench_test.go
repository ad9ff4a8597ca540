package metadoc

import (
	"encoding/xml"
	"fmt"
	"testing"

	"github.com/pocketforge/pocketforge/buildsvc/xmlindent"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// BenchmarkWritePackageMetas: the collection of 20,000 package metas a package search over a
// project of that size answers, written by AppendPackage. Raw is what the API did before:
// encoding/xml's MarshalIndent of their documents (FromPackage). x-raw below 1 is the writer's
// gain; bytes/op is the answer's size.
func BenchmarkWritePackageMetas(b *testing.B) {
	records := make([]buildstore.Package, 20_000)
	for i := range records {
		records[i] = buildstore.Package{Project: "bench:big", Name: fmt.Sprintf("pkg-%05d", i), Title: fmt.Sprintf("Package pkg-%05d", i),
			Description: "A package made for the listing benchmark, with a description of typical length.",
			Persons:     []buildstore.Role{{ID: "alice", Role: "maintainer"}}, URL: "https://example.org/pkg",
			Flags: []buildstore.Flag{{Name: "build", Status: "disable", Repository: "openSUSE_Tumbleweed"}}}
		if i%10 == 0 { // one in ten has text to escape
			records[i].Description = "Tools & libraries for <xml>\nwith a second line"
		}
	}
	var size int
	bench.Compare(b, 1, func(int) {
		out := xmlindent.Collection(make([]byte, 0, 64+len(records)*512), len(records), len(records),
			func(buf []byte, i int) []byte { return AppendPackage(buf, records[i], 1) })
		size = len(out)
	}, func(int) {
		docs := make([]Package, len(records))
		for i, k := range records {
			docs[i] = FromPackage(k)
		}
		if _, err := xml.MarshalIndent(collection[Package]{Matches: len(docs), Items: docs}, "", "  "); err != nil {
			b.Fatal(err)
		}
	})
	b.ReportMetric(float64(size), "bytes/op")
}
