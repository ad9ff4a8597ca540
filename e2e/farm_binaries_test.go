package e2e

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// farmSpec is a spec without BuildRequires beyond extra, so it builds in a project of its own.
func farmSpec(name, extra string) string {
	return fmt.Sprintf("Name: %s\nVersion: 1.0\nRelease: 0\nSummary: The %s tool\nLicense: MIT\n%s\n%%description\n%s does things.\n\n%%build\ntrue\n\n%%install\nmkdir -p %%{buildroot}%%{_bindir}\n\n%%files\n%%{_bindir}/%s\n", name, name, extra, name, name)
}

// binsWorld is an appliance with a dev clock and a project of its own, e2ebins/standard/x86_64,
// whose libfoo and hello (built against libfoo) the farm has built and published while the
// clock was moved; no demo data. Prepared with the bootstrap token e2eToken and the Admin
// password e2eAdminPassword.
var binsWorld = &world{name: "bins", prepare: func(t *testing.T, data string) {
	p := start(t, "--data", data, "--admin-password", e2eAdminPassword, "--bootstrap-token", e2eToken, "--dev-clock", "--no-fixtures")
	p.waitReady(t)
	osc := oscFor(t, p.url, "Admin", e2eAdminPassword)
	must := func(args ...string) {
		t.Helper()
		if code, out := osc(args...); code != 0 {
			t.Fatalf("osc %v: exit %d\n%s", args, code, out)
		}
	}
	must("api", "-X", "PUT", "-d", `<project name="e2ebins"><title>E2E bins</title><description>Built here</description>`+
		`<repository name="standard"><arch>x86_64</arch></repository></project>`, "/source/e2ebins/_meta")
	for _, k := range [][2]string{{"libfoo", "Provides: foo-api = 2"}, {"hello", "BuildRequires: foo-api\nRequires: foo-api"}} {
		must("api", "-X", "PUT", "-d", `<package name="`+k[0]+`" project="e2ebins"><title/><description/></package>`, "/source/e2ebins/"+k[0]+"/_meta")
		must("api", "-X", "PUT", "-d", farmSpec(k[0], k[1]), "/source/e2ebins/"+k[0]+"/"+k[0]+".spec")
	}
	for i := 0; ; i++ {
		if i == 60 {
			_, out := osc("api", "/build/e2ebins/standard/x86_64/hello")
			t.Fatalf("hello not built and published in time:\n%s", out)
		}
		if code, body := request(t, "POST", p.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"30s"}`)); code != 200 {
			t.Fatalf("clock: %d %s", code, body)
		}
		time.Sleep(500 * time.Millisecond)
		_, list := osc("api", "/build/e2ebins/standard/x86_64/hello")
		_, repomd := osc("api", "/published/e2ebins/standard/x86_64")
		if strings.Contains(list, "hello-1.0-1.1.x86_64.rpm") && strings.Contains(repomd, "hello-1.0-1.1.x86_64.rpm") {
			break
		}
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("stopping the bins world: exit %d\n%s", code, p.stderr)
	}
}}

// binWorld starts the appliance on a copy of binsWorld and returns it and an osc for Admin.
func binWorld(t *testing.T) (*proc, func(args ...string) (int, string)) {
	t.Helper()
	data := filepath.Join(t.TempDir(), "d.db")
	binsWorld.copyTo(t, data)
	p := start(t, "--data", data, "--admin-password", e2eAdminPassword, "--bootstrap-token", e2eToken, "--dev-clock", "--no-fixtures")
	p.waitReady(t)
	return p, oscFor(t, p.url, "Admin", e2eAdminPassword)
}

// TestOscBinaries: the real osc downloads built binaries (rpm reads them), shows buildinfo and
// the dependencies inside the project, and lists binaries.
func TestOscBinaries(t *testing.T) {
	t.Parallel()
	_, osc := binWorld(t)
	dest := t.TempDir()
	steps := []struct {
		name string
		args []string
		want []string
	}{
		{"getbinaries", []string{"getbinaries", "-q", "-d", dest, "e2ebins", "hello", "standard", "x86_64"}, nil},
		{"buildinfo", []string{"buildinfo", "e2ebins", "hello", "standard", "x86_64"}, []string{
			`<buildinfo project="e2ebins" repository="standard" package="hello">`, `<bdep name="libfoo"`, "<file>hello.spec</file>"}},
		{"dependson", []string{"dependson", "e2ebins", "standard", "x86_64"}, []string{"hello", "libfoo"}},
		{"whatdependson", []string{"whatdependson", "e2ebins", "libfoo", "standard", "x86_64"}, []string{"hello"}},
		// Without a package osc lists the where's _repository, whose binaries OBS names "<name>.rpm".
		{"ls -b project", []string{"ls", "-b", "e2ebins"}, []string{"hello.rpm", "libfoo.rpm"}},
		{"ls -b package", []string{"ls", "-b", "e2ebins", "hello", "standard", "x86_64"}, []string{"hello-1.0-1.1.x86_64.rpm", "hello-1.0-1.1.src.rpm"}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			code, out := osc(s.args...)
			if code != 0 {
				t.Fatalf("osc %v: exit %d\n%s", s.args, code, out)
			}
			for _, w := range s.want {
				if !strings.Contains(out, w) {
					t.Fatalf("osc %v: output lacks %q:\n%s", s.args, w, out)
				}
			}
		})
	}
	t.Run("rpm reads what getbinaries fetched", func(t *testing.T) {
		rpm, err := exec.LookPath("rpm")
		if err != nil {
			t.Skip("rpm is not installed")
		}
		file := filepath.Join(dest, "hello-1.0-1.1.x86_64.rpm")
		if _, err := os.Stat(file); err != nil {
			entries, _ := os.ReadDir(dest)
			t.Fatalf("getbinaries left no %s: %v", file, entries)
		}
		code, out := runChild(t, exec.Command(rpm, "-qp", "--qf", "%{NAME} %{VERSION}-%{RELEASE} %{ARCH}\n", "--requires", file), time.Minute, "rpm -qp")
		if code != 0 || !strings.Contains(out, "hello 1.0-1.1 x86_64") || !strings.Contains(out, "foo-api") {
			t.Fatalf("rpm -qp: exit %d\n%s", code, out)
		}
	})
	t.Run("buildinfo of a local spec file", func(t *testing.T) {
		spec := filepath.Join(t.TempDir(), "hello.spec")
		if err := os.WriteFile(spec, []byte(farmSpec("hello", "BuildRequires: foo-api >= 3")), 0o644); err != nil {
			t.Fatal(err)
		}
		// osc 0.169.1's buildinfo takes a local spec only in a checkout; osc build POSTs it so.
		code, out := osc("api", "-X", "POST", "-f", spec, "/build/e2ebins/hello/standard/x86_64/_buildinfo")
		if code == 0 {
			t.Fatalf("a buildinfo path with the arch out of place: exit 0\n%s", out)
		}
		code, out = osc("api", "-X", "POST", "-f", spec, "/build/e2ebins/standard/x86_64/hello/_buildinfo")
		if code != 0 || !strings.Contains(out, "nothing provides foo-api &gt;= 3") {
			t.Fatalf("POST buildinfo with a spec: exit %d\n%s", code, out)
		}
	})
}

// TestDNFReadsPublishedRepository: dnf, run without touching the system's configuration, reads
// the published repository over HTTP from the appliance.
func TestDNFReadsPublishedRepository(t *testing.T) {
	t.Parallel()
	dnf, err := exec.LookPath("dnf")
	if err != nil {
		t.Skip("dnf is not installed")
	}
	p, _ := binWorld(t)
	u, err := url.Parse(p.url + "/published/e2ebins/standard/")
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword("Admin", e2eAdminPassword)
	state := t.TempDir()
	args := []string{"-q", "--releasever=1", "--setopt=reposdir=/dev/null",
		"--setopt=cachedir=" + state + "/cache", "--setopt=persistdir=" + state + "/lib",
		"--setopt=logdir=" + state + "/log", "--disablerepo=*",
		"--repofrompath=e2ebins," + u.String(), "--enablerepo=e2ebins", "repoquery",
		"--arch", "x86_64", "--qf", "%{name}|%{version}|%{release}|%{arch}|%{location}", "hello", "libfoo"}
	code, out := runChild(t, exec.Command(dnf, args...), 2*time.Minute, "dnf repoquery")
	want := "hello|1.0|1.1|x86_64|x86_64/hello-1.0-1.1.x86_64.rpm\nlibfoo|1.0|1.1|x86_64|x86_64/libfoo-1.0-1.1.x86_64.rpm"
	if code != 0 || strings.Join(strings.Fields(out), "\n") != want {
		t.Fatalf("dnf repoquery: exit %d\n%s\nwant\n%s", code, out, want)
	}
	code, out = runChild(t, exec.Command(dnf, append(args[:len(args)-6], "--whatprovides", "foo-api")...), 2*time.Minute, "dnf repoquery --whatprovides")
	if code != 0 || !strings.Contains(out, "libfoo-0:1.0-1.1.x86_64") && !strings.Contains(out, "libfoo-1.0-1.1.x86_64") {
		t.Fatalf("dnf repoquery --whatprovides foo-api: exit %d\n%s", code, out)
	}
}
