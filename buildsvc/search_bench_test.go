package buildsvc

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"testing"

	"github.com/antchfx/xmlquery"
	axpath "github.com/antchfx/xpath"
	"github.com/pocketforge/pocketforge/buildsvc/requestdoc"
	"github.com/pocketforge/pocketforge/internal/bench"
	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// BenchmarkSearchRequests: osc's lookup after co/ci/up (planned from the request index) and
// rq list -U (a scan) over 20,000 requests, against antchfx evaluating the same predicate on
// the same candidates already parsed; x-raw is what reading, rendering and parsing each
// candidate costs on top (DESIGN's budget for issue 16's indexed search: 3×).
func BenchmarkSearchRequests(b *testing.B) {
	s := searchWorld(b, 20000)
	for _, c := range []struct{ name, match string }{
		{"co", fmt.Sprintf(`(state/@name='new' or state/@name='review') and (action/target/@project='%[1]s' or action/source/@project='%[1]s') and (action/target/@package='%[2]s' or action/source/@package='%[2]s')`, "devel:tools", "hello")},
		{"list-U", `(state/@who='bob' or history/@who='bob')`},
	} {
		b.Run(c.name, func(b *testing.B) {
			q, err := xpath.Compile("request", c.match)
			if err != nil {
				b.Fatal(err)
			}
			var docs []*xmlquery.Node
			if err := s.db.View(func(tx *bbolt.Tx) error {
				ids, planned, err := requestCandidates(tx, q.Plan())
				if err != nil {
					return err
				}
				return buildstore.EachRequest(tx, func(r buildstore.Request) (bool, error) {
					if planned && !containsID(ids, r.ID) {
						return true, nil
					}
					body, _ := xml.Marshal(requestdoc.Render(r, requestdoc.WithFullHistory))
					d, err := xmlquery.Parse(bytes.NewReader(body))
					docs = append(docs, d)
					return err == nil, err
				})
			}); err != nil {
				b.Fatal(err)
			}
			raw := axpath.MustCompile("/request[" + c.match + "]")
			found, _ := s.SearchRequests(searchAdmin, c.match, false, Page{})
			b.Logf("%d candidates, %d matches", len(docs), found.Matches)
			bench.Compare(b, 1, func(int) {
				if _, err := s.SearchRequests(searchAdmin, c.match, false, Page{}); err != nil {
					b.Fatal(err)
				}
			}, func(int) {
				for _, d := range docs {
					raw.Select(xmlquery.CreateXPathNavigator(d)).MoveNext()
				}
			})
		})
	}
}

func containsID(ids []uint64, id uint64) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}
