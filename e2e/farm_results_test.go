package e2e

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// farmSpecFile is a spec that needs nothing to build (no BuildRequires), so it builds in a
// world without base binaries; build is its %build line.
func farmSpecFile(name, build string) string {
	return "Name: " + name + "\nVersion: 1.0\nRelease: 0\nSummary: " + name + "\nLicense: MIT\n\n%description\n" + name + ".\n\n%build\n" +
		build + "\n\n%install\nmkdir -p %{buildroot}/usr/bin\ntouch %{buildroot}/usr/bin/" + name + "\n\n%files\n/usr/bin/" + name + "\n"
}

// TestOscFarmResults: the real osc reads results, logs and histories of builds the appliance
// runs, and controls them — in a world the test makes itself (home:alice:farm: hello builds,
// bad fails in %build), with the dev clock moved so that builds finish at once.
func TestOscFarmResults(t *testing.T) {
	t.Parallel()
	// A build lasts an hour of the appliance clock, which only the test moves on: the dev clock
	// also runs with the wall clock, and on a loaded machine a default 8 s rebuild ended before
	// osc could abort it. 64 workers, so that the demo world's builds, as long, never hold
	// home:alice:farm's up.
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword,
		"--bootstrap-token", e2eToken, "--dev-clock", "--build-time", "1h", "--build-workers", "64")
	p.waitReady(t)
	o := newOscSession(t, p.url, "alice", "alice-password")
	run, dir, osc, must, write := o.run, o.dir, o.osc, o.must, o.write
	const prj = "home:alice:farm"
	must("meta", "prj", "-F", write("prj.xml", `<project name="home:alice:farm"><title>Farm</title><description/>`+
		`<repository name="standard"><arch>x86_64</arch></repository></project>`), prj)
	for name, build := range map[string]string{"hello": "echo hello", "bad": "exit 1"} {
		must("meta", "pkg", "-F", write(name+".xml", `<package name="`+name+`" project="home:alice:farm"><title/><description/></package>`), prj, name)
		must("api", "-X", "PUT", "-f", write(name+".spec", farmSpecFile(name, build)), "/source/"+prj+"/"+name+"/"+name+".spec")
	}
	// advance moves the dev clock past a build's time; the farm's job (every second) follows.
	advance := func() {
		request(t, "POST", p.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"61m"}`))
	}
	result := func() string { return must("api", "/build/"+prj+"/_result") }
	waitFor := func(what string, ok func(string) bool) {
		t.Helper()
		for i := 0; i < 60; i++ {
			if ok(result()) {
				return
			}
			advance()
			time.Sleep(500 * time.Millisecond)
		}
		t.Fatalf("never %s:\n%s", what, result())
	}
	settled := func(s string) bool {
		return strings.Contains(s, `<status package="hello" code="succeeded"`) && strings.Contains(s, `<status package="bad" code="failed"`) &&
			strings.Contains(s, `code="published"`) && !strings.Contains(s, `dirty="true"`)
	}
	waitFor("built", settled)

	t.Run("results", func(t *testing.T) {
		out := must("results", prj)
		for _, want := range []string{"standard", "x86_64", "succeeded", "failed"} {
			if !strings.Contains(out, want) {
				t.Fatalf("osc results lacks %q:\n%s", want, out)
			}
		}
		if out := must("results", prj, "hello"); !regexp.MustCompile(`standard\s+x86_64\s+succeeded`).MatchString(out) {
			t.Fatalf("osc results P K:\n%s", out)
		}
		if out := must("results", "--vertical", prj); !strings.Contains(out, "hello") || !strings.Contains(out, "bad") {
			t.Fatalf("osc results --vertical:\n%s", out)
		}
		if out := must("prjresults", prj); !strings.Contains(out, "hello") || !strings.Contains(out, "standard") {
			t.Fatalf("osc prjresults:\n%s", out)
		}
	})
	t.Run("logs and histories", func(t *testing.T) {
		out := must("remotebuildlog", prj, "bad", "standard", "x86_64")
		if !strings.Contains(out, "Building bad for project 'home:alice:farm'") || !strings.Contains(out, `failed "build bad.spec"`) {
			t.Fatalf("osc rbl:\n%s", out)
		}
		if out := must("rblt", prj, "hello", "standard", "x86_64"); !strings.Contains(out, `finished "build hello.spec"`) {
			t.Fatalf("osc rblt:\n%s", out)
		}
		// osc buildlog (bl) reads the log of the package checked out in the working directory.
		must("co", prj, "hello")
		if code, out := run(filepath.Join(dir, prj, "hello"), "buildlog", "standard", "x86_64"); code != 0 || !strings.Contains(out, `finished "build hello.spec"`) {
			t.Fatalf("osc buildlog in a checkout: exit %d\n%s", code, out)
		}
		if out := must("jobhistory", prj, "standard", "x86_64"); !strings.Contains(out, "hello") || !strings.Contains(out, "failed") {
			t.Fatalf("osc jobhistory:\n%s", out)
		}
		if out := must("buildhistory", prj, "hello", "standard", "x86_64"); !strings.Contains(out, "1.0-1.1") {
			t.Fatalf("osc buildhistory:\n%s", out)
		}
	})
	t.Run("rebuild and results -w", func(t *testing.T) {
		if out := must("rebuild", prj, "hello"); !strings.Contains(out, "ok") {
			t.Fatalf("osc rebuild:\n%s", out)
		}
		// osc results -w waits while anything is dirty, scheduled or building, and ends when
		// the build has ended; the test moves the clock meanwhile.
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.Command("osc", "-A", p.url, "results", "-w", prj, "hello")
		cmd.Env = oscEnv(dir)
		var watched bytes.Buffer
		cmd.Stdout, cmd.Stderr = &watched, &watched
		exited, err := launch(cmd)
		if err != nil {
			t.Fatal(err)
		}
		done, finished := make(chan string, 1), make(chan struct{})
		go func() { <-exited; done <- watched.String(); close(finished) }()
		defer func() { killGroup(cmd); <-finished }()
		time.Sleep(2 * time.Second) // the rebuild is scheduled or runs: osc waits
		select {
		case out := <-done:
			t.Fatalf("osc results -w ended before the build did:\n%s", out)
		default:
		}
		for {
			select {
			case out := <-done:
				if cmd.ProcessState.ExitCode() != 0 || !regexp.MustCompile(`standard\s+x86_64\s+succeeded`).MatchString(out) {
					t.Fatalf("osc results -w: exit %d\n%s", cmd.ProcessState.ExitCode(), out)
				}
				if out := must("buildhistory", prj, "hello", "standard", "x86_64"); !strings.Contains(out, "1.0-1.2") {
					t.Fatalf("the rebuild is not in the history:\n%s", out)
				}
				return
			case <-ctx.Done():
				t.Fatal("osc results -w did not end")
			case <-time.After(time.Second):
				advance()
			}
		}
	})
	t.Run("abortbuild and wipebinaries", func(t *testing.T) {
		must("rebuild", prj, "hello")
		for i := 0; !strings.Contains(result(), `<status package="hello" code="building"`); i++ {
			if i > 40 {
				t.Fatalf("the rebuild never started:\n%s", result())
			}
			time.Sleep(250 * time.Millisecond)
		}
		if out := must("abortbuild", prj, "hello"); !strings.Contains(out, "ok") {
			t.Fatalf("osc abortbuild:\n%s", out)
		}
		if out := must("results", prj, "hello"); !strings.Contains(out, "failed") {
			t.Fatalf("after abortbuild:\n%s", out)
		}
		if code, out := osc("wipebinaries", prj); code == 0 {
			t.Fatalf("osc wipebinaries without --all is refused by osc itself:\n%s", out)
		}
		if out := must("wipebinaries", "--all", prj); !strings.Contains(out, "ok") {
			t.Fatalf("osc wipebinaries --all:\n%s", out)
		}
		if out := must("api", "/build/"+prj+"/_result?view=binarylist&package=hello"); strings.Contains(out, "<binary ") {
			t.Fatalf("binaries after the wipe:\n%s", out)
		}
		waitFor("rebuilt after the wipe", settled)
	})
}
