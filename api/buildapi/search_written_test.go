package buildapi

import (
	"encoding/xml"
	"testing"

	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/buildsvc/search"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestWrittenMetasAreMarshalled: every package and project of the demo world (tombstones
// too) renders with the byte-exact writers exactly as encoding/xml rendered its document —
// GET …/_meta, the meta history and the searches' collections (metas and /id elements), two
// records to a collection and an empty one.
func TestWrittenMetasAreMarshalled(t *testing.T) {
	e := newEnv(t)
	var packages []buildstore.Package
	var projects []buildstore.Project
	must(t, e.db.View(func(tx kv.Tx) error {
		if err := buildstore.EachRawPackage(tx, nil, func(_, _ string, raw []byte) (bool, error) {
			k, err := buildstore.DecodePackage(raw)
			packages = append(packages, k)
			return err == nil, err
		}); err != nil {
			return err
		}
		return buildstore.EachRawProject(tx, func(_ string, raw []byte) (bool, error) {
			p, err := buildstore.DecodeProject(raw)
			projects = append(projects, p)
			return err == nil, err
		})
	}))
	if len(packages) < 10 || len(projects) < 5 {
		t.Fatalf("the demo world has %d packages and %d projects", len(packages), len(projects))
	}
	type packageID struct {
		XMLName xml.Name `xml:"package"`
		Project string   `xml:"project,attr"`
		Name    string   `xml:"name,attr"`
	}
	type projectID struct {
		XMLName xml.Name `xml:"project"`
		Name    string   `xml:"name,attr"`
	}
	for _, k := range packages {
		compare(t, k.Project+"/"+k.Name, []buildstore.Package{k, k}, metadoc.AppendPackage, metadoc.FromPackage)
		compare(t, k.Project+"/"+k.Name+" id", []buildstore.Package{k, k}, appendPackageID,
			func(k buildstore.Package) packageID { return packageID{Project: k.Project, Name: k.Name} })
		if want := marshalled(t, metadoc.FromPackage(k)); string(metadoc.RenderPackage(k)) != want {
			t.Fatalf("%s/%s: RenderPackage\n%s\nwant\n%s", k.Project, k.Name, metadoc.RenderPackage(k), want)
		}
	}
	for _, p := range projects {
		compare(t, p.Name, []buildstore.Project{p, p}, metadoc.AppendProject, metadoc.FromProject)
		compare(t, p.Name+" id", []buildstore.Project{p, p}, appendProjectID, func(p buildstore.Project) projectID { return projectID{Name: p.Name} })
		if got, want := string(metadoc.AppendProject(nil, p, 0))+"\n", marshalled(t, metadoc.FromProject(p)); got != want {
			t.Fatalf("%s: project meta\n%s\nwant\n%s", p.Name, got, want)
		}
	}
	compare(t, "empty", nil, metadoc.AppendPackage, metadoc.FromPackage)
}

// compare checks the collection of records written by write against encoding/xml's rendering
// of their documents (what sendCollection answers).
func compare[T, D any](t *testing.T, name string, records []T, write func([]byte, T, int) []byte, doc func(T) D) {
	t.Helper()
	found := search.Found[T]{Matches: len(records) + 3, Records: records}
	want := marshalled(t, collectionXML[D]{Matches: found.Matches, Items: docsOf(records, doc)})
	if got := string(writtenCollection(found, 0, write)); got != want {
		t.Fatalf("%s:\n%s\nwant\n%s", name, got, want)
	}
}

// marshalled is v as sendXML answers it.
func marshalled(t *testing.T, v any) string {
	t.Helper()
	b, err := xml.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}
