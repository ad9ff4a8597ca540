package buildapi

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// farmEnv is the build API with a farm the test drives tick by tick, and a small world of its
// own: home:alice:farm with one repository for two archs, whose packages need nothing to
// build (hello), fail in %build (bad), or build only on aarch64 (armonly).
type farmEnv struct {
	*env
	svc *farm.Farm
}

const farmBuildTime = 10 * time.Second

const farmProject = "/source/home:alice:farm"

func farmSpec(name, extra, build string) string {
	return fmt.Sprintf("Name: %s\nVersion: 1.0\nRelease: 0\nSummary: %s\nLicense: MIT\n%s\n%%description\n%s.\n\n%%build\n%s\n\n%%install\nmkdir -p %%{buildroot}/usr/bin\ntouch %%{buildroot}/usr/bin/%s\n\n%%files\n/usr/bin/%s\n",
		name, name, extra, name, build, name, name)
}

func newFarmEnv(t *testing.T) *farmEnv {
	t.Helper()
	var svc *farm.Farm
	e := newEnvWith(t, func(d *Deps) {
		d.Build = domains.NewBuild(d.Store, d.Clock, d.Log, domains.BuildOptions{Farm: farm.Options{Workers: 4, BuildTime: farmBuildTime}})
		svc = d.Build.Farm
	})
	f := &farmEnv{env: e, svc: svc}
	meta := `<project name="home:alice:farm"><title>Farm</title><description/>` +
		`<repository name="standard"><arch>x86_64</arch><arch>aarch64</arch></repository></project>`
	steps := []scenario{{"project", req("PUT", farmProject+"/_meta", asAlice, meta), ok}}
	for name, spec := range map[string]string{
		"hello":   farmSpec("hello", "", "echo building"),
		"bad":     farmSpec("bad", "", "exit 1"),
		"armonly": farmSpec("armonly", "ExclusiveArch: aarch64", "echo arm"),
	} {
		pkg := farmProject + "/" + name
		steps = append(steps,
			scenario{"package " + name, req("PUT", pkg+"/_meta", asAlice, `<package name="`+name+`" project="home:alice:farm"><title/><description/></package>`), ok},
			scenario{"spec " + name, req("PUT", pkg+"/"+name+".spec", asAlice, spec), ok200})
	}
	for _, s := range steps {
		s.Expect.Check(t, apitest.Do(t, e.app, s.Request))
	}
	return f
}

// tick runs the farm's clock job once.
func (f *farmEnv) tick(t *testing.T) {
	t.Helper()
	if err := f.svc.FarmTick(); err != nil {
		t.Fatal(err)
	}
}

// buildAll runs the farm until every job of the world has ended.
func (f *farmEnv) buildAll(t *testing.T) {
	t.Helper()
	f.tick(t)
	for range 12 { // the demo world's builds share the workers
		f.clk.Advance(farmBuildTime)
		f.tick(t)
	}
}

// stateOf is the state attribute of a resultlist.
func stateOf(t *testing.T, body string) string {
	t.Helper()
	m := regexp.MustCompile(`<resultlist state="([0-9a-f]+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no state in %s", body)
	}
	return m[1]
}

// TestBuildResults: _result with its filters and views, and the directory routes.
func TestBuildResults(t *testing.T) {
	f := newFarmEnv(t)
	f.buildAll(t)
	r := "/build/home:alice:farm/_result"
	f.run(t, []scenario{
		{"all", req("GET", r, asBob, ""), want(200, `<resultlist state="`,
			`<result project="home:alice:farm" repository="standard" arch="x86_64" code="published" state="published">`,
			`<status package="hello" code="succeeded"`, `<status package="bad" code="failed"`,
			`<status package="armonly" code="excluded"`, `arch="aarch64"`)},
		{"one package", req("GET", r+"?package=hello&multibuild=1&locallink=1", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<status package="hello" code="succeeded"`}, Excludes: []string{`package="bad"`}}},
		{"one arch", req("GET", r+"?arch=aarch64&package=armonly", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<status package="armonly" code="succeeded"`}, Excludes: []string{`x86_64`}}},
		{"two packages", req("GET", r+"?package=hello&package=bad&arch=x86_64", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`package="hello"`, `package="bad"`}, Excludes: []string{`package="armonly"`}}},
		{"summary", req("GET", r+"?view=summary&arch=x86_64", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<summary>`, `<statuscount code="succeeded" count="1"/>`, `<statuscount code="failed" count="1"/>`, `<statuscount code="excluded" count="1"/>`},
			Excludes: []string{`<status package=`}}},
		{"status and binarylist", req("GET", r+"?view=status&view=binarylist&package=hello&arch=x86_64", asBob, ""), want(200,
			`<status package="hello" code="succeeded"`, `<binarylist package="hello">`, `<binary filename="hello-1.0-1.1.x86_64.rpm" size="`, `hello-1.0-1.1.src.rpm`)},
		{"lastbuild", req("GET", r+"?lastbuild=1&package=bad", asBob, ""), want(200, `<status package="bad" code="failed"`)},
		{"nothing matches", req("GET", r+"?package=nope&repository=nope", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<resultlist state="`}, Excludes: []string{`<result `}}},
		{"a repository that matches nothing", req("GET", r+"?repository=nope", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{`<result `}}},
		{"an unknown view", req("GET", r+"?view=nope", asBob, ""), code(400, "invalid_parameter", "unknown view 'nope'")},
		{"unknown project", req("GET", "/build/nope/_result", asBob, ""), code(404, "unknown_project")},
		{"without credentials", req("GET", r, nil, ""), apitest.Expect{Status: 401}},
		{"projects", req("GET", "/build/", asBob, ""), want(200, `<entry name="home:alice:farm">`)},
		{"repositories", req("GET", "/build/home:alice:farm", asBob, ""), want(200, `<directory count="1">`, `<entry name="standard">`)},
		{"archs", req("GET", "/build/home:alice:farm/standard", asBob, ""), want(200, `<entry name="x86_64">`, `<entry name="aarch64">`)},
		{"packages", req("GET", "/build/home:alice:farm/standard/x86_64", asBob, ""), want(200, `<entry name="bad">`, `<entry name="hello">`)},
		{"unknown repository", req("GET", "/build/home:alice:farm/nope", asBob, ""), code(404, "unknown_repository")},
		{"unknown arch", req("GET", "/build/home:alice:farm/standard/s390x", asBob, ""), code(404, "unknown_architecture")},
		{"unknown project's repositories", req("GET", "/build/nope", asBob, ""), code(404, "unknown_project")},
	})
	// The state is a hash of what a client sees: the same answer, the same state; a different
	// filter, another.
	all1 := apitest.Do(t, f.app, req("GET", r, asBob, ""))
	all2 := apitest.Do(t, f.app, req("GET", r, asBob, ""))
	one := apitest.Do(t, f.app, req("GET", r+"?package=hello", asBob, ""))
	if stateOf(t, all1.Body) != stateOf(t, all2.Body) || stateOf(t, all1.Body) == stateOf(t, one.Body) {
		t.Fatalf("states: %s %s %s", stateOf(t, all1.Body), stateOf(t, all2.Body), stateOf(t, one.Body))
	}
	// oldstate differing from the current state answers at once.
	start := time.Now()
	got := apitest.Do(t, f.app, req("GET", r+"?oldstate=0123", asBob, ""))
	if got.Status != 200 || time.Since(start) > time.Second {
		t.Fatalf("oldstate that differs: %d after %v", got.Status, time.Since(start))
	}
}

// TestBuildResultsLongPoll: oldstate= waits until the answer changes — here, until a rebuild
// starts and the farm ticks.
func TestBuildResultsLongPoll(t *testing.T) {
	f := newFarmEnv(t)
	f.buildAll(t)
	r := "/build/home:alice:farm/_result?package=hello&arch=x86_64"
	state := stateOf(t, apitest.Do(t, f.app, req("GET", r, asBob, "")).Body)
	done := make(chan apitest.Response, 1)
	go func() { done <- apitest.Do(t, f.app, req("GET", r+"&oldstate="+state, asBob, "")) }()
	select {
	case got := <-done:
		t.Fatalf("answered before anything changed: %s", got.Body)
	case <-time.After(500 * time.Millisecond):
	}
	apitest.Do(t, f.app, req("POST", "/build/home:alice:farm?cmd=rebuild&package=hello", asAlice, ""))
	f.tick(t)
	select {
	case got := <-done:
		if got.Status != 200 || stateOf(t, got.Body) == state {
			t.Fatalf("after the change: %d %s", got.Status, got.Body)
		}
		apitest.Expect{Status: 200, Contains: []string{`code="building"`}}.Check(t, got)
	case <-time.After(5 * time.Second):
		t.Fatal("the long poll did not end when the state changed")
	}
}
