package buildapi

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestBuildPackageDocuments: _status, _reason, _jobstatus, _history, _jobhistory and
// _workerstatus, before, while and after a build, and the 404s of paths naming what the
// project does not have.
func TestBuildPackageDocuments(t *testing.T) {
	f := newFarmEnv(t)
	f.tick(t) // scheduled, and the first jobs start
	x := "/build/home:alice:farm/standard/x86_64"
	f.run(t, []scenario{
		{"workers busy", req("GET", "/build/_workerstatus", asBob, ""), want(200, `<workerstatus clients="4">`,
			`<building repository="standard" arch="x86_64" project="home:alice:farm" package="bad"`, `hostarch="x86_64"`,
			`<partition>`, `<daemon type="scheduler" arch="x86_64" state="running">`)},
		{"a running job", req("GET", x+"/bad/_jobstatus", asBob, ""), want(200, `<jobstatus code="building">`, `<workerid>pocketforge:`, `<starttime>`, `<jobid>`)},
		{"its status", req("GET", x+"/bad/_status", asBob, ""), want(200, `<status package="bad" code="building"`, `<details>building on pocketforge:`)},
		{"its reason", req("GET", x+"/bad/_reason", asBob, ""), want(200, `<reason>`, `<explain>new build</explain>`, `<time>`)},
		{"an excluded package", req("GET", x+"/armonly/_status", asBob, ""), want(200, `<status package="armonly" code="excluded"`)},
		{"no job runs", req("GET", x+"/armonly/_jobstatus", asBob, ""), apitest.Expect{Status: 200, Exact: "<jobstatus></jobstatus>\n"}},
		{"unknown package", req("GET", x+"/nope/_status", asBob, ""), code(404, "unknown_package")},
		{"unknown arch", req("GET", "/build/home:alice:farm/standard/s390x/bad/_status", asBob, ""), code(404, "unknown_architecture")},
		{"unknown repository", req("GET", "/build/home:alice:farm/nope/x86_64/bad/_history", asBob, ""), code(404, "unknown_repository")},
		{"unknown project", req("GET", "/build/nope/standard/x86_64/bad/_reason", asBob, ""), code(404, "unknown_project")},
	})
	for range 12 {
		f.clk.Advance(farmBuildTime)
		f.tick(t)
	}
	f.run(t, []scenario{
		{"failed", req("GET", x+"/bad/_status", asBob, ""), want(200, `<status package="bad" code="failed"`)},
		{"history of a success", req("GET", x+"/hello/_history", asBob, ""), want(200, `<buildhistory>`, `versrel="1.0-1.1" bcnt="1" time="`)},
		{"a failure has no history", req("GET", x+"/bad/_history", asBob, ""), apitest.Expect{Status: 200, Exact: "<buildhistory></buildhistory>\n"}},
		{"job history", req("GET", x+"/_jobhistory", asBob, ""), want(200, `<jobhistlist>`, `package="hello"`, `package="bad"`, `code="failed"`, `code="succeeded"`, `reason="new build"`)},
		{"job history by package", req("GET", x+"/_jobhistory?package=bad", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`package="bad"`}, Excludes: []string{`package="hello"`}}},
		{"job history by code", req("GET", x+"/_jobhistory?code=succeeded", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`package="hello"`}, Excludes: []string{`code="failed"`}}},
		{"job history limited", req("GET", x+"/_jobhistory?limit=1", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<jobhist `}}},
		{"a bad limit", req("GET", x+"/_jobhistory?limit=x", asBob, ""), code(400, "invalid_parameter")},
		{"a negative limit", req("GET", x+"/_jobhistory?limit=-1", asBob, ""), code(400, "invalid_parameter")},
		{"job history of an unknown arch", req("GET", "/build/home:alice:farm/standard/s390x/_jobhistory", asBob, ""), code(404, "unknown_architecture")},
		{"workers idle", req("GET", "/build/_workerstatus", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<idle workerid="pocketforge:1" hostarch="x86_64">`}, Excludes: []string{`<building `}}},
	})
	got := apitest.Do(t, f.app, req("GET", x+"/_jobhistory?limit=1", asBob, ""))
	if n := strings.Count(got.Body, "<jobhist "); n != 1 {
		t.Fatalf("limit=1 gave %d entries", n)
	}
}

// TestBuildLog: a log read whole, by offsets as osc reads it (start=<bytes so far> until an
// empty answer), the last build's, view=entry, the offsets out of range, and a running job's
// log streamed until the job ends.
func TestBuildLog(t *testing.T) {
	f := newFarmEnv(t)
	f.tick(t)
	l := "/build/home:alice:farm/standard/x86_64/bad/_log"
	f.clk.Advance(farmBuildTime / 2)
	f.tick(t)
	partial := apitest.Do(t, f.app, req("GET", l+"?nostream=1", asBob, ""))
	if partial.Status != 200 || !strings.Contains(partial.Body, "Building bad for project 'home:alice:farm'") || strings.Contains(partial.Body, "failed \"build") {
		t.Fatalf("a running job's log so far: %d %s", partial.Status, partial.Body)
	}
	// Streaming: the answer ends when the job does, holding the whole log.
	streamed := make(chan apitest.Response, 1)
	go func() { streamed <- apitest.Do(t, f.app, req("GET", l, asBob, "")) }()
	time.Sleep(300 * time.Millisecond)
	for range 12 {
		f.clk.Advance(farmBuildTime)
		f.tick(t)
	}
	var whole apitest.Response
	select {
	case whole = <-streamed:
	case <-time.After(5 * time.Second):
		t.Fatal("the streamed log did not end with the job")
	}
	if !strings.HasPrefix(whole.Body, partial.Body) || !strings.Contains(whole.Body, "error: ") || !strings.Contains(whole.Body, "failed \"build bad.spec\"") {
		t.Fatalf("streamed log:\n%s", whole.Body)
	}
	// osc's loop: start at 0, then at the bytes so far, until an answer is empty.
	var read strings.Builder
	for i := 0; ; i++ {
		got := apitest.Do(t, f.app, req("GET", l+"?nostream=1&start="+itoa(read.Len()), asBob, ""))
		if got.Status != 200 || i > 3 {
			t.Fatalf("start=%d: %d %s", read.Len(), got.Status, got.Body)
		}
		if got.Body == "" {
			break
		}
		read.WriteString(got.Body)
	}
	if read.String() != whole.Body {
		t.Fatalf("read by offsets:\n%s\nwant:\n%s", read.String(), whole.Body)
	}
	size := itoa(len(whole.Body))
	f.run(t, []scenario{
		{"a range", req("GET", l+"?nostream=1&start=0&end=5", asBob, ""), apitest.Expect{Status: 200, Exact: whole.Body[:5]}},
		{"view=entry", req("GET", l+"?view=entry", asBob, ""), want(200, `<directory>`, `<entry name="_log" size="`+size+`" mtime="`)},
		{"the last build's, before a second", req("GET", l+"?last=1&nostream=1", asBob, ""), code(404, "not_found")},
		{"start past the end", req("GET", l+"?nostream=1&start=999999", asBob, ""), code(400, "invalid_parameter", "start 999999 is out of range: the log has "+size+" bytes")},
		{"a negative start", req("GET", l+"?nostream=1&start=-1", asBob, ""), code(400, "invalid_parameter")},
		{"end before start", req("GET", l+"?nostream=1&start=10&end=5", asBob, ""), code(400, "invalid_parameter", "end 5 is before start 10")},
		{"start not a number", req("GET", l+"?start=x", asBob, ""), code(400, "invalid_parameter")},
		{"a package that never built", req("GET", "/build/home:alice:farm/standard/x86_64/armonly/_log?nostream=1", asBob, ""), code(404, "not_found")},
		{"unknown package", req("GET", "/build/home:alice:farm/standard/x86_64/nope/_log", asBob, ""), code(404, "unknown_package")},
		{"legacy log", req("GET", "/result/home:alice:farm/standard/bad/x86_64/log", asBob, ""), apitest.Expect{Status: 200, Exact: whole.Body}},
	})
	// A second build keeps the first one's log as the last.
	apitest.Do(t, f.app, req("POST", "/build/home:alice:farm?cmd=rebuild&package=bad&arch=x86_64", asAlice, ""))
	f.tick(t)
	f.run(t, []scenario{
		{"the last build's log", req("GET", l+"?last=1&nostream=1", asBob, ""), apitest.Expect{Status: 200, Exact: whole.Body}},
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
