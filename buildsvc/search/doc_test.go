package search_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/antchfx/xmlquery"
	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/buildsvc/requestdoc"
	"github.com/pocketforge/pocketforge/fixtures"
	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestSearchDocumentsAsRendered: the trees the search evaluates (xpath.Document) are the
// documents the API renders, for every project, package and request of the demo world.
func TestSearchDocumentsAsRendered(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := fixtures.Ensure(db, false, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	var docs []any
	if err := db.View(func(tx kv.Tx) error {
		projects, err := buildstore.Projects(tx)
		for _, p := range projects {
			docs = append(docs, metadoc.FromProject(p))
			pkgs, _ := buildstore.Packages(tx, p.Name)
			for _, k := range pkgs {
				docs = append(docs, metadoc.FromPackage(k))
			}
		}
		return errors.Join(err, buildstore.EachRequest(tx, func(r buildstore.Request) (bool, error) {
			docs = append(docs, requestdoc.Render(r, requestdoc.WithFullHistory))
			return true, nil
		}))
	}); err != nil {
		t.Fatal(err)
	}
	if len(docs) < 20 {
		t.Fatalf("only %d documents in the demo world", len(docs))
	}
	for _, d := range docs {
		got, err := xpath.Document(d)
		if err != nil {
			t.Fatal(err)
		}
		b, err := xml.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		want, err := xmlquery.Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if g, w := got.FirstChild.OutputXML(true), firstElement(want).OutputXML(true); g != w {
			t.Errorf("Document:\n%s\nrendered:\n%s", g, w)
		}
	}
}

func firstElement(doc *xmlquery.Node) *xmlquery.Node {
	for n := doc.FirstChild; n != nil; n = n.NextSibling {
		if n.Type == xmlquery.ElementNode {
			return n
		}
	}
	return doc
}
