package e2e

import (
	"io"
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
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--dev-clock", "--bootstrap-token", e2eToken, "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	settle(t, p)
	return p
}

// settle moves the dev clock on until the farm has nothing left to build or publish.
func settle(t *testing.T, p *proc) {
	t.Helper()
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
		request(t, "POST", p.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"10m"}`))
		if n == 0 {
			// idle three times in a row, a farm pass (every second) apart: a commit's rebuild is
			// scheduled, and the publish after the last build done
			idle++
			time.Sleep(1100 * time.Millisecond)
		} else {
			idle = 0
			time.Sleep(300 * time.Millisecond)
		}
	}
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
		// and the other way round: dnf (checking the repository's signature) and a tampered
		// repomd.xml, zypper and a tampered package
		dir = t.TempDir()
		os.MkdirAll(filepath.Join(dir, "repos"), 0o755)
		os.WriteFile(filepath.Join(dir, "repos", "pocket.repo"), []byte(strings.ReplaceAll(repoFile, base, badRepomd)), 0o644)
		code, out = runChild(t, exec.Command(dnf, "-y", "--installroot="+filepath.Join(dir, "root"), "--releasever=1", "--setopt=reposdir="+filepath.Join(dir, "repos"),
			"--setopt=cachedir="+filepath.Join(dir, "cache"), "--setopt=repo_gpgcheck=1", "--disablerepo=*", "--enablerepo=Pocket_1.0", "install", "pocket-cli"), 3*time.Minute, "dnf install, tampered repomd")
		if code == 0 || !strings.Contains(strings.ToLower(out), "signature") && !strings.Contains(strings.ToLower(out), "gpg") {
			t.Fatalf("dnf accepted a tampered repomd.xml, or refused it for another reason: exit %d\n%s", code, out)
		}
		root = t.TempDir()
		if code, out := runChild(t, exec.Command(zypper, "--non-interactive", "--root", root, "ar", badRPM, "bad"), time.Minute, "zypper ar"); code != 0 {
			t.Fatalf("zypper ar: %d %s", code, out)
		}
		code, out = runChild(t, exec.Command(zypper, "--non-interactive", "--gpg-auto-import-keys", "--root", root, "install", "pocket-cli"), 3*time.Minute, "zypper install, tampered package")
		if low := strings.ToLower(out); code == 0 || !strings.Contains(low, "checksum") && !strings.Contains(low, "signature") && !strings.Contains(low, "digest") {
			t.Fatalf("zypper installed a tampered package, or refused it for another reason: exit %d\n%s", code, out)
		}
	})
}

// adminDo sends a build API request as Admin.
func adminDo(t *testing.T, p *proc, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, p.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth("Admin", e2eAdminPassword)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// rpmKeyID is the key id rpm reads from a package's signature ("" when unsigned).
func rpmKeyID(t *testing.T, data []byte) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "p.rpm")
	os.WriteFile(f, data, 0o644)
	out, _ := exec.Command("rpm", "-qp", "--nosignature", "--qf", "%{SIGPGP:pgpsig}", f).Output()
	if m := regexp.MustCompile(`Key ID ([0-9a-f]+)`).FindStringSubmatch(string(out)); m != nil {
		return m[1]
	}
	return ""
}

// keyIDOf is the long key id of an armored public key, as rpm prints it (gpg --show-keys).
func keyIDOf(t *testing.T, armored string) string {
	t.Helper()
	cmd := exec.Command("gpg", "--batch", "--with-colons", "--show-keys")
	cmd.Stdin = strings.NewReader(armored)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gpg --show-keys: %v", err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Split(l, ":"); f[0] == "pub" && len(f) > 4 {
			return strings.ToLower(f[4])
		}
	}
	t.Fatalf("no key in %s", out)
	return ""
}

// TestSigningKeysFollowTheProject (issue 34): a new project key (cmd=createkey) re-signs
// nothing already published, and signs the next build; a project copy with resign signs the
// copied RPMs with the target's key; after a commit raises pocket-cli's version and the farm
// rebuilds and republishes, zypper up brings the new version with every check still on.
func TestSigningKeysFollowTheProject(t *testing.T) {
	t.Parallel()
	zypper, err := exec.LookPath("zypper")
	if err != nil {
		t.Skip("zypper is needed (apt-get install -y zypper)")
	}
	if _, err := exec.LookPath("gpg"); err != nil {
		t.Skip("gpg is needed")
	}
	p := demoPublished(t)
	root := t.TempDir()
	z := func(args ...string) (int, string) {
		return runChild(t, exec.Command(zypper, append([]string{"--non-interactive", "--gpg-auto-import-keys", "--root", root}, args...)...), 3*time.Minute, "zypper")
	}
	if code, out := z("ar", p.url+"/download/Pocket:/1.0/product/", "pocket"); code != 0 {
		t.Fatalf("zypper ar: %d %s", code, out)
	}
	if code, out := z("install", "pocket-cli"); code != 0 {
		t.Fatalf("zypper install: %d %s", code, out)
	}
	_, global := request(t, "GET", p.url+"/source/Pocket:1.0/_pubkey", "", nil)
	if code, body := adminDo(t, p, "GET", "/source/Pocket:1.0/_pubkey", ""); code != 200 {
		t.Fatalf("_pubkey: %d %s", code, body)
	} else {
		global = body
	}
	const std = "/download/Pocket:/1.0/standard/"
	_, ascBefore := request(t, "GET", p.url+std+"repodata/repomd.xml.asc", "", nil)

	// a key of Pocket:1.0's own: nothing published is signed again
	if code, body := adminDo(t, p, "POST", "/source/Pocket:1.0?cmd=createkey", ""); code != 200 {
		t.Fatalf("createkey: %d %s", code, body)
	}
	_, own := adminDo(t, p, "GET", "/source/Pocket:1.0/_pubkey", "")
	if own == global {
		t.Fatal("createkey left the global key")
	}
	if _, asc := request(t, "GET", p.url+std+"repodata/repomd.xml.asc", "", nil); asc != ascBefore {
		t.Error("createkey re-signed the published repository")
	}

	// a new version of pocket-cli: built, published and shipped signed with the new key
	code, spec := adminDo(t, p, "GET", "/source/devel:tools/pocket-cli/pocket-cli.spec", "")
	if code != 200 || !strings.Contains(spec, "1.1.0") {
		t.Fatalf("the spec: %d %s", code, spec)
	}
	spec = regexp.MustCompile(`(?m)^Version:(\s+)\S+`).ReplaceAllString(spec, "Version:${1}1.2.0")
	if code, body := adminDo(t, p, "PUT", "/source/devel:tools/pocket-cli/pocket-cli.spec", spec); code != 200 {
		t.Fatalf("commit: %d %s", code, body)
	}
	settle(t, p)
	_, list := request(t, "GET", p.url+std+"x86_64/", "", nil)
	m := regexp.MustCompile(`href="(pocket-cli-1\.2\.0-[^"]+\.rpm)"`).FindStringSubmatch(list)
	if m == nil {
		t.Fatalf("pocket-cli 1.2.0 is not published: %s", list)
	}
	_, rpm := request(t, "GET", p.url+std+"x86_64/"+m[1], "", nil)
	if got, want := rpmKeyID(t, []byte(rpm)), keyIDOf(t, own); got != want {
		t.Errorf("the new build is signed by %q, not the project's new key %q", got, want)
	}
	if _, asc := request(t, "GET", p.url+std+"repodata/repomd.xml.asc", "", nil); asc == ascBefore {
		t.Error("the new publish kept the old repomd signature")
	}
	if code, out := z("refresh"); code != 0 {
		_, repomd := request(t, "GET", p.url+"/download/Pocket:/1.0/product/repodata/repomd.xml", "", nil)
		t.Fatalf("zypper refresh: %d %s\n%s", code, out, repomd)
	}
	if code, out := z("update"); code != 0 || !strings.Contains(out, "pocket-cli-1.2.0") {
		t.Fatalf("zypper update: %d %s", code, out)
	}

	// a copy with resign: the copied RPMs carry the target's key
	meta := `<project name="home:Admin:signed"><title>signed</title><description/><person userid="Admin" role="maintainer"/>` +
		`<repository name="standard"><path project="Pocket:1.0" repository="standard"/><arch>x86_64</arch><arch>aarch64</arch></repository></project>`
	if code, body := adminDo(t, p, "PUT", "/source/home:Admin:signed/_meta", meta); code != 200 {
		t.Fatalf("the target: %d %s", code, body)
	}
	if code, body := adminDo(t, p, "POST", "/source/home:Admin:signed?cmd=createkey", ""); code != 200 {
		t.Fatalf("createkey: %d %s", code, body)
	}
	_, target := adminDo(t, p, "GET", "/source/home:Admin:signed/_pubkey", "")
	if code, body := adminDo(t, p, "POST", "/source/home:Admin:signed?cmd=copy&oproject=devel:tools&withbinaries=1&resign=1", ""); code != 200 {
		t.Fatalf("copy with resign: %d %s", code, body)
	}
	_, bins := adminDo(t, p, "GET", "/build/home:Admin:signed/standard/x86_64/pocket-cli", "")
	f := regexp.MustCompile(`filename="(pocket-cli-[^"]+x86_64\.rpm)"`).FindStringSubmatch(bins)
	if f == nil {
		t.Fatalf("no copied binary: %s", bins)
	}
	_, copied := adminDo(t, p, "GET", "/build/home:Admin:signed/standard/x86_64/pocket-cli/"+f[1], "")
	if got, want := rpmKeyID(t, []byte(copied)), keyIDOf(t, target); got != want {
		t.Errorf("the copy is signed by %q, not the target's key %q", got, want)
	}
}
