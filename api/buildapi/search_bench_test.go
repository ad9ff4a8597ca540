package buildapi

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/antchfx/xmlquery"
	axpath "github.com/antchfx/xpath"
	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// BenchmarkSearchPackageProject: GET /search/package?match=@project='P' where P holds 20,000
// packages, through HTTP on loopback with Basic auth: every package's meta, rendered. Raw is
// antchfx evaluating the predicate on the parsed documents of P's packages (the candidates the
// project's key range gives), no HTTP and no rendering. Budget (issue 31): p50 ≤ 300 ms.
func BenchmarkSearchPackageProject(b *testing.B) {
	e := newBenchEnv(b)
	const project = "bench:big"
	e.benchProject(b, project, 20_000, func(i int) string { return fmt.Sprintf("pkg-%05d", i) })
	var docs []*xmlquery.Node
	must(b, e.db.View(func(tx kv.Tx) error {
		return buildstore.EachRawPackage(tx, buildstore.PackagePrefix(project), func(_, _ string, raw []byte) (bool, error) {
			k, err := buildstore.DecodePackage(raw)
			if err != nil {
				return false, err
			}
			body, err := xml.Marshal(metadoc.FromPackage(k))
			if err != nil {
				return false, err
			}
			d, err := xmlquery.Parse(bytes.NewReader(body))
			docs = append(docs, d)
			return err == nil, err
		})
	}))
	match := fmt.Sprintf("@project='%s'", project)
	path := "/search/package?match=" + url.QueryEscape(match)
	e.do(b, "GET", path, nil) // warm-up: bcrypt once, then the credential cache
	raw := axpath.MustCompile("/package[" + match + "]")
	bench.Compare(b, 1, func(int) {
		t0 := time.Now()
		body := e.do(b, "GET", path, nil)
		e.took = append(e.took, time.Since(t0))
		if !bytes.Contains(body, []byte(`matches="20000"`)) {
			b.Fatalf("search: %.200s", body)
		}
	}, func(int) {
		for _, d := range docs {
			raw.Select(xmlquery.CreateXPathNavigator(d)).MoveNext()
		}
	})
	e.report(b)
}
