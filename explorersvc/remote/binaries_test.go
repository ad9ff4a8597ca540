package remote

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/explorersvc"
)

// TestRemoteBinaries: the remote backend asks OBS's published binary search for the exact
// name, with the explorer's credentials, and reads its collection into binaries whose path is
// OBS's filepath under download_url, segments escaped; a name no XPath literal holds is
// refused before any request; a search the remote does not have is a 500.
func TestRemoteBinaries(t *testing.T) {
	var asked, user string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/obs-api/search/published/binary/id" {
			http.NotFound(w, r)
			return
		}
		asked = r.URL.Query().Get("match")
		user, _, _ = r.BasicAuth()
		w.Write([]byte(`<collection matches="2">
  <binary name="bash" project="openSUSE:Factory" package="bash" repository="standard" version="5.2.37" release="1.1" arch="x86_64" filename="bash-5.2.37-1.1.x86_64.rpm" filepath="openSUSE:/Factory/standard/x86_64/bash-5.2.37-1.1.x86_64.rpm" baseproject="openSUSE:Factory" type="rpm"/>
  <binary name="bash" project="home:x" package="" repository="my repo" version="5.1" release="0" arch="src" filename="bash-5.1-0.src.rpm" filepath="home:/x/my repo/src/bash-5.1-0.src.rpm" type="rpm"/>
</collection>`))
	}))
	defer srv.Close()
	remote, err := New(srv.URL+"/obs-api", "explorer", "pw", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	b := &Backend{Client: remote}
	got, err := b.Binaries(context.Background(), "bash")
	if err != nil {
		t.Fatal(err)
	}
	want := []explorersvc.Binary{
		{Name: "bash", Filename: "bash-5.2.37-1.1.x86_64.rpm", Package: "bash", Project: "openSUSE:Factory", Repository: "standard",
			Arch: "x86_64", Version: "5.2.37", Release: "1.1", Path: "openSUSE:/Factory/standard/x86_64/bash-5.2.37-1.1.x86_64.rpm"},
		{Name: "bash", Filename: "bash-5.1-0.src.rpm", Project: "home:x", Repository: "my repo",
			Arch: "src", Version: "5.1", Release: "0", Path: "home:/x/my%20repo/src/bash-5.1-0.src.rpm"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("binaries:\n%+v\nwant\n%+v", got, want)
	}
	if asked != "@name='bash'" || user != "explorer" {
		t.Errorf("asked %q as %q", asked, user)
	}
	asked = ""
	if _, err := b.Binaries(context.Background(), `a'b"c`); err == nil || asked != "" {
		t.Errorf("a name with both quotes: %v (asked %q)", err, asked)
	}
	missing := &Backend{Client: mustRemote(t, srv.URL+"/elsewhere")}
	if _, err := missing.Binaries(context.Background(), "bash"); err == nil {
		t.Error("a remote without the search answered")
	}
}

func mustRemote(t *testing.T, u string) *Client {
	t.Helper()
	r, err := New(u, "explorer", "pw", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
