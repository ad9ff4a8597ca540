package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// demoPublished starts an appliance with the demo world and moves its dev clock on until the
// farm has built and published everything (the metrics say no job is left).
func demoPublished(t *testing.T) *proc {
	t.Helper()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--dev-clock", "--bootstrap-token", e2eToken)
	p.waitReady(t)
	busy := regexp.MustCompile(`(?m)^pocketforge_buildfarm_(?:jobs\{state="(?:building|scheduled)"\}|queue_length) (\d+)`)
	deadline := time.Now().Add(2 * time.Minute)
	for idle := 0; idle < 3; {
		if time.Now().After(deadline) {
			t.Fatal("the farm did not finish the demo world")
		}
		_, metrics := request(t, "GET", p.url+"/metrics", "", nil)
		n := 0
		for _, m := range busy.FindAllStringSubmatch(metrics, -1) {
			if m[1] != "0" {
				n++
			}
		}
		if n == 0 {
			idle++ // idle three times in a row: the publish after the last build is done too
		} else {
			idle = 0
		}
		request(t, "POST", p.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"10m"}`))
		time.Sleep(300 * time.Millisecond)
	}
	return p
}

// TestPackageManagersInstallFromTheDownloadTree (issue 34): Debian's dnf (from Pocket:1.0's
// standard repository, with its .repo file) and zypper (from its product repository) install
// pocket-cli and pocket-base with every signature check on — the repository's (repomd.xml.asc)
// and each package's — from the public download tree, no credentials, resolving down to the
// base (bash, glibc, rpm, zypper, … are published too); a tampered package and a tampered
// repomd.xml are refused; protected projects and path traversal are not served.
func TestPackageManagersInstallFromTheDownloadTree(t *testing.T) {
	t.Parallel()
	dnf, errDNF := exec.LookPath("dnf")
	zypper, errZypper := exec.LookPath("zypper")
	if errDNF != nil || errZypper != nil {
		t.Skip("dnf and zypper are needed (apt-get install -y dnf zypper)")
	}
	p := demoPublished(t)
	base := p.url + "/download/Pocket:/1.0/standard/"

	code, repoFile := request(t, "GET", base+"Pocket:1.0.repo", "", nil)
	if code != 200 || !strings.Contains(repoFile, "gpgcheck=1") || !strings.Contains(repoFile, "baseurl="+base) {
		t.Fatalf("the .repo file: %d %s", code, repoFile)
	}
	for _, bad := range []string{"/download/Pocket:/1.0/standard/../../../etc/passwd", "/download/Pocket:/1.0/standard/%2e%2e/%2e%2e/x",
		"/download/Pocket:/1.0/standard/x86_64/..%2f..%2frepodata/repomd.xml"} {
		if code, _ := request(t, "GET", p.url+bad, "", nil); code != 404 && code != 400 {
			t.Errorf("%s: %d", bad, code)
		}
	}

	t.Run("every package the metadata lists is served", func(t *testing.T) {
		links := regexp.MustCompile(`href="([^"]+)"`)
		list := func(url string) []string {
			_, body := request(t, "GET", url, "", nil)
			var out []string
			for _, m := range links.FindAllStringSubmatch(body, -1) {
				out = append(out, m[1])
			}
			return out
		}
		locations := regexp.MustCompile(`<location href="([^"]+)"`)
		checked := 0
		var walk func(dir string, depth int)
		walk = func(dir string, depth int) { // every repodata/ below the tree, with what it lists
			for _, name := range list(dir) {
				switch {
				case name == "repodata/":
					_, repomd := request(t, "GET", dir+"repodata/repomd.xml", "", nil)
					m := regexp.MustCompile(`href="(repodata/[^"]+-primary\.xml\.gz)"`).FindStringSubmatch(repomd)
					if m == nil {
						t.Fatalf("%srepodata/repomd.xml names no primary: %s", dir, repomd)
					}
					out, err := exec.Command("sh", "-c", "curl -sf '"+dir+m[1]+"' | gunzip").Output()
					if err != nil {
						t.Fatalf("%s%s: %v", dir, m[1], err)
					}
					for _, loc := range locations.FindAllStringSubmatch(string(out), -1) {
						if code, _ := request(t, "GET", dir+loc[1], "", nil); code != 200 {
							t.Errorf("%s lists %s: %d", dir, loc[1], code)
						}
						checked++
					}
				case strings.HasSuffix(name, "/") && depth < 4 && !strings.HasSuffix(name, "repodata/"):
					walk(dir+name, depth+1)
				}
			}
		}
		walk(p.url+"/download/", 0)
		if checked < 100 {
			t.Fatalf("only %d locations checked", checked)
		}
	})

	t.Run("dnf", func(t *testing.T) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "repos"), 0o755)
		os.WriteFile(filepath.Join(dir, "repos", "pocket.repo"), []byte(repoFile), 0o644)
		args := []string{"-y", "--installroot=" + filepath.Join(dir, "root"), "--releasever=1", "--setopt=reposdir=" + filepath.Join(dir, "repos"),
			"--setopt=cachedir=" + filepath.Join(dir, "cache"), "--setopt=repo_gpgcheck=1", "--setopt=gpgcheck=1",
			"--disablerepo=*", "--enablerepo=Pocket_1.0", "install", "pocket-cli", "pocket-base"}
		code, out := runChild(t, exec.Command(dnf, args...), 3*time.Minute, "dnf install")
		if code != 0 || !strings.Contains(out, "Complete!") || !strings.Contains(out, "glibc") {
			t.Fatalf("dnf install: exit %d\n%s", code, out)
		}
		code, out = runChild(t, exec.Command("rpm", "--root", filepath.Join(dir, "root"), "-q", "--qf", "%{NAME} %{SIGPGP:pgpsig}\n", "pocket-cli", "bash"), time.Minute, "rpm -q")
		if code != 0 || strings.Count(out, "EdDSA/SHA256") != 2 {
			t.Fatalf("the installed packages' signatures: %s", out)
		}
	})

	t.Run("zypper", func(t *testing.T) {
		root := t.TempDir()
		z := func(args ...string) (int, string) {
			return runChild(t, exec.Command(zypper, append([]string{"--non-interactive", "--root", root}, args...)...), 3*time.Minute, "zypper")
		}
		// the product repository, as a Pocket 1.0 user adds it: its metadata lists the
		// packages its media ship
		if code, out := z("ar", p.url+"/download/Pocket:/1.0/product/", "pocket"); code != 0 {
			t.Fatalf("zypper ar: %d %s", code, out)
		}
		if code, out := z("--gpg-auto-import-keys", "refresh"); code != 0 || strings.Contains(out, "unsigned") {
			t.Fatalf("zypper refresh with signature checks: %d %s", code, out)
		}
		if code, out := z("install", "pocket-cli", "pocket-base"); code != 0 || !strings.Contains(out, "Installing: pocket-cli") {
			t.Fatalf("zypper install: %d %s", code, out)
		}
	})

	t.Run("tampered", func(t *testing.T) {
		// a copy of the tree, served by the test, with one package or the repomd.xml changed
		files := map[string][]byte{}
		for _, name := range []string{"repodata/repomd.xml", "repodata/repomd.xml.asc", "repodata/repomd.xml.key"} {
			_, body := request(t, "GET", base+name, "", nil)
			files[name] = []byte(body)
		}
		_, repomd := request(t, "GET", base+"repodata/repomd.xml", "", nil)
		for _, href := range regexp.MustCompile(`href="(repodata/[^"]+)"`).FindAllStringSubmatch(repomd, -1) {
			_, body := request(t, "GET", base+href[1], "", nil)
			files[href[1]] = []byte(body)
		}
		_, cli := request(t, "GET", base+"x86_64/", "", nil)
		for _, m := range regexp.MustCompile(`href="([^"/]+\.rpm)"`).FindAllStringSubmatch(cli, -1) {
			_, body := request(t, "GET", base+"x86_64/"+m[1], "", nil)
			files["x86_64/"+m[1]] = []byte(body)
		}
		_, noarch := request(t, "GET", base+"noarch/", "", nil)
		for _, m := range regexp.MustCompile(`href="([^"/]+\.rpm)"`).FindAllStringSubmatch(noarch, -1) {
			_, body := request(t, "GET", base+"noarch/"+m[1], "", nil)
			files["noarch/"+m[1]] = []byte(body)
		}
		serve := func(change func(map[string][]byte)) string {
			copyOf := map[string][]byte{}
			for k, v := range files {
				copyOf[k] = append([]byte(nil), v...)
			}
			change(copyOf)
			s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if b, ok := copyOf[strings.TrimPrefix(r.URL.Path, "/")]; ok {
					w.Write(b)
					return
				}
				http.NotFound(w, r)
			}))
			t.Cleanup(s.Close)
			return s.URL + "/"
		}
		cliRPM := ""
		for name := range files {
			if strings.HasPrefix(name, "x86_64/pocket-cli-") {
				cliRPM = name
			}
		}
		badRPM := serve(func(f map[string][]byte) {
			b := f[cliRPM]
			b[len(b)-20] ^= 0xff // a payload byte
		})
		dir := t.TempDir()
		repo := strings.ReplaceAll(repoFile, base, badRPM)
		os.MkdirAll(filepath.Join(dir, "repos"), 0o755)
		os.WriteFile(filepath.Join(dir, "repos", "pocket.repo"), []byte(repo), 0o644)
		code, out := runChild(t, exec.Command(dnf, "-y", "--installroot="+filepath.Join(dir, "root"), "--releasever=1", "--setopt=reposdir="+filepath.Join(dir, "repos"),
			"--setopt=cachedir="+filepath.Join(dir, "cache"), "--disablerepo=*", "--enablerepo=Pocket_1.0", "install", "pocket-cli"), 3*time.Minute, "dnf install tampered")
		if code == 0 || !strings.Contains(strings.ToLower(out), "digest") && !strings.Contains(strings.ToLower(out), "checksum") {
			t.Fatalf("dnf installed a tampered package, or refused it for another reason: exit %d\n%s", code, out)
		}
		badRepomd := serve(func(f map[string][]byte) {
			f["repodata/repomd.xml"] = []byte(strings.Replace(string(f["repodata/repomd.xml"]), "<revision>", "<revision>1", 1))
		})
		root := t.TempDir()
		if code, out := runChild(t, exec.Command(zypper, "--non-interactive", "--root", root, "ar", badRepomd, "bad"), time.Minute, "zypper ar"); code != 0 {
			t.Fatalf("zypper ar: %d %s", code, out)
		}
		if code, out := runChild(t, exec.Command(zypper, "--non-interactive", "--gpg-auto-import-keys", "--root", root, "refresh"), 2*time.Minute, "zypper refresh tampered"); code == 0 || !strings.Contains(strings.ToLower(out), "signature") {
			t.Fatalf("zypper accepted a tampered repomd.xml, or refused it for another reason: exit %d\n%s", code, out)
		}
	})
}
