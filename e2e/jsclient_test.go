package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// jsClientDir holds the JavaScript client test: package.json and package-lock.json pin
// @linode/api-v4, .ci/run installs it with `npm ci`, databases.mjs drives it.
const jsClientDir = "testdata/jsclient"

// TestJSClientDatabases runs the official JavaScript client (@linode/api-v4, unchanged but for
// the interceptor that points it at the appliance) against the built binary: it lists, reads and
// reads the credentials of a MySQL database through the real service's paths
// (/v4beta/databases/mysql/…), which the appliance accepts as aliases of sqldb. Skipped, with
// the reason, where node or the installed package is missing.
func TestJSClientDatabases(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the JavaScript client test needs it")
	}
	if _, err := os.Stat(filepath.Join(jsClientDir, "node_modules", "@linode", "api-v4", "package.json")); err != nil {
		t.Skipf("@linode/api-v4 is not installed: run `npm ci` in e2e/%s (.ci/run does)", jsClientDir)
	}
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--bootstrap-token", e2eToken)
	p.waitReady(t)
	cmd := exec.Command(node, "databases.mjs")
	cmd.Dir = jsClientDir
	cmd.Env = append(cleanEnv(t.TempDir()), "PF_URL="+p.url, "PF_TOKEN="+e2eToken)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if code, _ := runChild(t, cmd, 30*time.Second, "node databases.mjs"); code != 0 {
		t.Fatalf("node databases.mjs: exit %d\nstdout: %s\nstderr: %s", code, stdout.String(), stderr.String())
	}
	var got struct {
		Paths         []string
		Results, ID   int
		Label, Engine string
		Username      string
		Password      bool
	}
	if err := json.Unmarshal([]byte(lastLine(stdout.String())), &got); err != nil {
		t.Fatalf("output %q: %v", stdout.String(), err)
	}
	if len(got.Paths) != 3 || !strings.HasPrefix(got.Paths[0], "/v4beta/databases/mysql/instances") || got.Results < 3 ||
		got.ID == 0 || got.Engine != "mysql" || got.Label == "" || got.Username != "linroot" || !got.Password {
		t.Fatalf("what the JavaScript client read: %+v (stderr %s)", got, stderr.String())
	}
}
