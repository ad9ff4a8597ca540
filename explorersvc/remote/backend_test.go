package remote

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/valyala/fasthttp"
)

// fakeOBS answers fixed documents by request URI, as a real OBS would write them.
type fakeOBS map[string]struct {
	status int
	body   string
}

func (f fakeOBS) Do(req *fasthttp.Request, resp *fasthttp.Response) error {
	a, ok := f[string(req.RequestURI())]
	if !ok {
		a.status, a.body = 404, `<status code="unknown_project"><summary>nope</summary></status>`
	}
	resp.SetStatusCode(a.status)
	resp.SetBodyString(a.body)
	return nil
}

// TestRemoteBackendReadsOBSDocuments: the remote backend reads what a real OBS writes — a
// result with only the old state attribute, dirty="true", details as an element, the
// configuration's further elements in order — and maps 404 and failures.
func TestRemoteBackendReadsOBSDocuments(t *testing.T) {
	obs := fakeOBS{
		"/source": {200, `<directory count="2"><entry name="openSUSE:Factory"/><entry name="home:a"/></directory>`},
		"/build/openSUSE:Factory/_result": {200, `<resultlist state="c0ffee">
  <result project="openSUSE:Factory" repository="snapshot" arch="x86_64" state="building" dirty="true">
    <status package="zsh" code="failed"><details>  it broke  </details></status>
    <status package="vim" code="succeeded"/>
  </result>
  <result project="openSUSE:Factory" repository="snapshot" arch="i586" code="blocked" state="blocked" details="waiting"/>
</resultlist>`},
		"/build/openSUSE:Factory/_result?package=zsh": {200, `<resultlist state="x"><result repository="snapshot" arch="x86_64" code="published"><status package="zsh" code="failed"/></result></resultlist>`},
		"/configuration": {200, `<configuration><title>Open Build Service</title><description>d</description><name>private</name>` +
			`<anonymous>true</anonymous><download_url>https://download.example.org</download_url><schedulers><arch>x86_64</arch><arch>aarch64</arch></schedulers></configuration>`},
		"/build/broken/_result": {500, `<status code="internal_error"><summary>backend down</summary></status>`},
		"/build/secret/_result": {401, ``},
	}
	b := &Backend{Client: obs}
	ctx := context.Background()
	names, err := b.Projects(ctx)
	if err != nil || !reflect.DeepEqual(names, []string{"openSUSE:Factory", "home:a"}) {
		t.Fatal(names, err)
	}
	res, err := b.Results(ctx, "openSUSE:Factory")
	want := explorersvc.ProjectResults{Project: "openSUSE:Factory", Results: []explorersvc.RepoResult{
		{Repository: "snapshot", Arch: "x86_64", Code: "building", Dirty: true, Statuses: []explorersvc.PackageStatus{
			{Package: "zsh", Code: "failed", Details: "it broke"}, {Package: "vim", Code: "succeeded"}}},
		{Repository: "snapshot", Arch: "i586", Code: "blocked", Details: "waiting", Statuses: []explorersvc.PackageStatus{}},
	}}
	if err != nil || !reflect.DeepEqual(res, want) {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := b.Results(ctx, "nope"); !errors.Is(err, explorersvc.ErrNoProject) {
		t.Errorf("404: %v", err)
	}
	if _, err := b.Results(ctx, "broken"); err == nil || errors.Is(err, explorersvc.ErrNoProject) || !remoteHasAll(err.Error(), "answered 500", "backend down") {
		t.Errorf("500: %v", err)
	}
	if _, err := b.Results(ctx, "secret"); err == nil || !remoteHasAll(err.Error(), "refused the explorer's credentials") {
		t.Errorf("401: %v", err)
	}
	builds, err := b.PackageResults("openSUSE:Factory", "zsh")
	if err != nil || !reflect.DeepEqual(builds, []explorersvc.BuildResult{{Project: "openSUSE:Factory", Package: "zsh", Repository: "snapshot", Arch: "x86_64", Status: "failed"}}) {
		t.Errorf("%+v %v", builds, err)
	}
	if _, err := b.PackageResults("nope", "zsh"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("fork of a missing project: %v", err)
	}
	conf, err := b.Configuration(ctx)
	wantConf := explorersvc.BackendConfig{Schedulers: []string{"x86_64", "aarch64"}, Settings: []explorersvc.Setting{
		{Name: "title", Value: "Open Build Service"}, {Name: "description", Value: "d"}, {Name: "name", Value: "private"},
		{Name: "anonymous", Value: "true"}, {Name: "download_url", Value: "https://download.example.org"}}}
	if err != nil || !reflect.DeepEqual(conf, wantConf) {
		t.Errorf("%+v %v", conf, err)
	}
}

func remoteHasAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// TestRemoteBackendChangesPerPoll: the change mark moves once per poll interval, not between.
func TestRemoteBackendChangesPerPoll(t *testing.T) {
	now := time.Unix(1000, 0)
	b := &Backend{Poll: 30 * time.Second, Now: func() time.Time { return now }}
	m1, _ := b.Changes(context.Background())
	now = now.Add(10 * time.Second)
	m2, _ := b.Changes(context.Background())
	now = now.Add(30 * time.Second)
	m3, _ := b.Changes(context.Background())
	if m1 != m2 || m3 == m2 {
		t.Errorf("marks %d %d %d", m1, m2, m3)
	}
}

// TestRemoteFailuresAreTheDomains: every way the remote fails is an *explorersvc.BackendError
// with the code the APIs show (and Timeout for one that did not answer in time), never a
// refusal of the explorer's rules (*fault.Error).
func TestRemoteFailuresAreTheDomains(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/refused/source":
			w.WriteHeader(http.StatusForbidden)
		case "/failed/source":
			w.WriteHeader(http.StatusBadGateway)
		case "/nonsense/source":
			w.Write([]byte("<directory"))
		case "/slow/source":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	ln.Close()
	for _, c := range []struct {
		url, code string
		timeout   bool
	}{
		{srv.URL + "/refused", "backend_refused", false},
		{srv.URL + "/failed", "backend_failed", false},
		{srv.URL + "/nonsense", "backend_failed", false},
		{srv.URL + "/missing", "backend_failed", false},
		{srv.URL + "/slow", "backend_timeout", true},
		{down, "backend_unreachable", false},
	} {
		client, err := New(c.url, "explorer", "pw", 300*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		_, err = (&Backend{Client: client}).Projects(context.Background())
		var be *explorersvc.BackendError
		if !errors.As(err, &be) || be.Code != c.code || be.Timeout != c.timeout || be.Msg != err.Error() || errors.As(err, new(*fault.Error)) {
			t.Errorf("%s: %#v", c.url, err)
		}
	}
}
