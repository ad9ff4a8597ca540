package e2e

import (
	"encoding/xml"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/pgtest"
)

// TestClusterFarmWorkersOnBothNodes: with one worker each, two nodes build a project of four
// packages together — its job history names workers of both nodes — and the repository is
// published once, by the node that leads.
func TestClusterFarmWorkersOnBothNodes(t *testing.T) {
	t.Parallel()
	bboltPassOnly(t, "starts PostgreSQL nodes of its own")
	url := pgtest.URL(t)
	a := clusterNode(t, url, "--build-workers", "1", "--build-time", "2s")
	b := clusterNode(t, url, "--build-workers", "1", "--build-time", "2s")
	if !leading(t, a) || leading(t, b) {
		t.Fatalf("A should lead, B not: a %v, b %v", leading(t, a), leading(t, b))
	}
	oa := newOscSession(t, a.url, "alice", "alice-password")
	const prj = "home:alice:wide"
	meta := func(build string) string {
		return oa.write("prj.xml", `<project name="home:alice:wide"><title>Wide</title><description/>`+build+
			`<repository name="standard"><arch>x86_64</arch></repository></project>`)
	}
	// Built all at once: the packages go in with the project's builds disabled, then it is enabled.
	oa.must("meta", "prj", "-F", meta(`<build><disable/></build>`), prj)
	pkgs := []string{"p1", "p2", "p3", "p4"}
	for _, p := range pkgs {
		oa.must("meta", "pkg", "-F", oa.write(p+".xml", fmt.Sprintf(`<package name="%s" project="%s"><title/><description/></package>`, p, prj)), prj, p)
		oa.must("api", "-X", "PUT", "-f", oa.write(p+".spec", farmSpecFile(p, "echo "+p)), "/source/"+prj+"/"+p+"/"+p+".spec")
	}
	oa.must("meta", "prj", "-F", meta(""), prj)

	ob := newOscSession(t, b.url, "alice", "alice-password")
	succeeded := regexp.MustCompile(`<status package="p\d" code="succeeded"`)
	within(t, 120*time.Second, "all four built, as B shows", func() bool {
		_, out := ob.osc("api", "/build/"+prj+"/_result")
		return len(succeeded.FindAllString(out, -1)) == len(pkgs)
	})
	code, body := ob.osc("api", "/build/"+prj+"/standard/x86_64/_jobhistory")
	var hist struct {
		Jobs []struct {
			Package  string `xml:"package,attr"`
			WorkerID string `xml:"workerid,attr"`
		} `xml:"jobhist"`
	}
	if code != 0 || xml.Unmarshal([]byte(body), &hist) != nil || len(hist.Jobs) < len(pkgs) {
		t.Fatalf("_jobhistory on B: %d %s", code, body)
	}
	hosts := map[string][]string{}
	for _, j := range hist.Jobs {
		host := j.WorkerID[:max(0, strings.LastIndex(j.WorkerID, ":"))]
		hosts[host] = append(hosts[host], j.Package)
	}
	if len(hosts) < 2 {
		t.Errorf("every job ran on one node's workers: %v", hosts)
	}
	t.Logf("jobs by node: %v", hosts)

	// (While its builds were disabled the repository was published empty: binaries=0.)
	published := regexp.MustCompile(`msg=published project=` + regexp.QuoteMeta(prj) + ` repository=standard binaries=[1-9]`)
	within(t, 10*time.Second, "the repository published", func() bool { return published.MatchString(a.stderr.String()) })
	time.Sleep(time.Second) // a few more ticks of both nodes: a second publication would show now
	if n, m := len(published.FindAllString(a.stderr.String(), -1)), len(published.FindAllString(b.stderr.String(), -1)); n != 1 || m != 0 {
		t.Errorf("the built binaries were published %d times by A (leading) and %d by B; want once, by A", n, m)
	}
}
