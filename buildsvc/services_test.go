package buildsvc

import (
	"testing"

	"github.com/pocketforge/pocketforge/store/buildstore"
)

// TestMergedServiceFiles: a generated file takes its plain name, replacing a plain file of that
// name; the _service file goes; other files stay, by name.
func TestMergedServiceFiles(t *testing.T) {
	in := []buildstore.FileEntry{
		{Name: "_service", MD5: "s"}, {Name: "_service:obs_scm:x-1.0.tar", MD5: "gen-tar"},
		{Name: "_service:set_version:x.spec", MD5: "gen-spec"}, {Name: "x.spec", MD5: "old-spec"},
		{Name: "README", MD5: "r"}, {Name: "_service:broken", MD5: "b"},
	}
	got := mergedServiceFiles(in)
	want := []buildstore.FileEntry{{Name: "README", MD5: "r"}, {Name: "x-1.0.tar", MD5: "gen-tar"}, {Name: "x.spec", MD5: "gen-spec"}}
	if len(got) != len(want) {
		t.Fatalf("merged %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Name != want[i].Name || got[i].MD5 != want[i].MD5 {
			t.Fatalf("merged %+v, want %+v", got, want)
		}
	}
}
