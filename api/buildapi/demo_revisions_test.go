package buildapi

import (
	"encoding/xml"
	"fmt"
	"net/url"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestDemoRevisionsReadable walks every package of the demo world (issue 37): every source
// revision of its _history lists with ?rev= and serves each of its files at that revision, and
// its meta history is there — ?meta=1, every _meta?rev= and ?meta=1&rev= answer, and the newest
// meta revision is the meta GET …/_meta shows — as for a package made through the API.
func TestDemoRevisionsReadable(t *testing.T) {
	e := newEnv(t)
	get := func(path string) string {
		t.Helper()
		got := apitest.Do(t, e.app, req("GET", path, asAdmin, ""))
		if got.Status != 200 {
			t.Fatalf("GET %s: %d %s", path, got.Status, got.Body)
		}
		return got.Body
	}
	type entries struct {
		Entries []struct {
			Name string `xml:"name,attr"`
		} `xml:"entry"`
	}
	type revisions struct {
		Revs []struct {
			Rev string `xml:"rev,attr"`
		} `xml:"revision"`
	}
	decode := func(body string, v any) {
		t.Helper()
		if err := xml.Unmarshal([]byte(body), v); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
	}
	var projects entries
	decode(get("/source"), &projects)
	walked := 0
	for _, p := range projects.Entries {
		var pkgs entries
		decode(get("/source/"+p.Name), &pkgs)
		for _, k := range pkgs.Entries {
			base := "/source/" + p.Name + "/" + k.Name
			var hist revisions
			decode(get(base+"/_history"), &hist)
			for _, r := range hist.Revs {
				var files entries
				decode(get(base+"?rev="+r.Rev), &files)
				for _, f := range files.Entries {
					get(base + "/" + url.PathEscape(f.Name) + "?rev=" + r.Rev)
				}
			}
			var metas revisions
			decode(get(base+"/_history?meta=1"), &metas)
			if len(metas.Revs) == 0 {
				t.Errorf("%s: no meta history", base)
				continue
			}
			get(base + "?meta=1")
			for _, r := range metas.Revs {
				get(base + "/_meta?rev=" + r.Rev)
				get(base + "?meta=1&rev=" + r.Rev)
			}
			if newest, now := get(base+"/_meta?rev="+metas.Revs[len(metas.Revs)-1].Rev), get(base+"/_meta"); newest != now {
				t.Errorf("%s: the newest meta revision is not the meta:\n%s\nvs\n%s", base, newest, now)
			}
			walked++
		}
	}
	if walked < 10 {
		t.Fatalf("walked %d demo packages", walked)
	}
	t.Log(fmt.Sprint(walked, " demo packages walked"))
}
