package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFarmSurvivesKill9: the farm's state lives in the data file — a build running when the
// process is killed with SIGKILL is still running after the restart, with the log it had, and
// finishes by the clock into binaries and a history entry; nothing is built twice.
func TestFarmSurvivesKill9(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "d.db")
	// A build lasts an hour of the appliance clock, which only the test moves on: the dev clock
	// runs with the wall clock too, and a default 8 s build could end by itself while a loaded
	// machine restarts the process. 64 workers, so that the demo world's builds, as long, leave
	// one for hello.
	args := []string{"--data", data, "--admin-password", e2eAdminPassword, "--bootstrap-token", e2eToken, "--dev-clock",
		"--build-time", "1h", "--build-workers", "64"}
	p := start(t, args...)
	p.waitReady(t)
	first := newOscSession(t, p.url, "alice", "alice-password")
	osc, write := first.must, first.write
	const prj = "home:alice:kill"
	osc("meta", "prj", "-F", write("prj.xml", `<project name="home:alice:kill"><title>Kill</title><description/>`+
		`<repository name="standard"><arch>x86_64</arch></repository></project>`), prj)
	osc("meta", "pkg", "-F", write("k.xml", `<package name="hello" project="home:alice:kill"><title/><description/></package>`), prj, "hello")
	osc("api", "-X", "PUT", "-f", write("hello.spec", farmSpecFile("hello", "echo hello")), "/source/"+prj+"/hello/hello.spec")

	// Wait (real time; the build takes an hour) until the job runs and its log has begun.
	building := regexp.MustCompile(`<status package="hello" code="building"`)
	var log string
	for i := 0; ; i++ {
		if building.MatchString(osc("api", "/build/"+prj+"/_result")) {
			log = osc("api", "/build/"+prj+"/standard/x86_64/hello/_log?nostream=1")
			if log != "" {
				break
			}
		}
		if i > 60 {
			t.Fatal("the build never started")
		}
		time.Sleep(250 * time.Millisecond)
	}
	p.stop(t, syscall.SIGKILL)

	q := start(t, args...)
	q.waitReady(t)
	osc2 := newOscSession(t, q.url, "alice", "alice-password").must
	res := osc2("api", "/build/"+prj+"/_result")
	if !building.MatchString(res) {
		t.Fatalf("after kill -9 the running build is gone:\n%s", res)
	}
	if after := osc2("api", "/build/"+prj+"/standard/x86_64/hello/_log?nostream=1"); !strings.HasPrefix(after, log) {
		t.Fatalf("after kill -9 the log lost its start:\nbefore:\n%s\nafter:\n%s", log, after)
	}
	for i := 0; ; i++ {
		request(t, "POST", q.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"1h"}`))
		if strings.Contains(osc2("api", "/build/"+prj+"/_result"), `<status package="hello" code="succeeded"`) {
			break
		}
		if i > 60 {
			t.Fatalf("the resumed build never finished:\n%s", osc2("api", "/build/"+prj+"/_result"))
		}
		time.Sleep(250 * time.Millisecond)
	}
	if bins := osc2("api", "/build/"+prj+"/_result?view=binarylist"); !strings.Contains(bins, `filename="hello-1.0-1.1.x86_64.rpm"`) {
		t.Errorf("binaries after the resumed build:\n%s", bins)
	}
	if hist := osc2("api", "/build/"+prj+"/standard/x86_64/hello/_history"); strings.Count(hist, "<entry") != 1 {
		t.Errorf("the build was counted %d times:\n%s", strings.Count(hist, "<entry"), hist)
	}
}
