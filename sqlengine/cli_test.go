package sqlengine

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMySQLClient drives the mysql command-line client (MariaDB's or Oracle's) as the issue
// names it: `mysql --ssl-ca=<ca>` verifies the instance's certificate and runs statements. It
// skips where no mysql client is installed (apt-get install mariadb-client).
func TestMySQLClient(t *testing.T) {
	bin, err := osexec.LookPath("mysql")
	if err != nil {
		t.Skip("no mysql client installed (apt-get install mariadb-client)")
	}
	m := NewManager(NewMemStore(), Options{})
	defer m.Close()
	inst := testInstance(1)
	inst.TLS, inst.RequireTLS = serverTLS(t), true
	addr, err := m.Start(inst)
	if err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, testCA.cert, 0o600); err != nil {
		t.Fatal(err)
	}
	host, port, _ := strings.Cut(addr.String(), ":")
	run := func(caFile, sql string) (string, error) {
		cmd := osexec.Command(bin, "--host="+host, "--port="+port, "--user=linroot", "--password=first-pw",
			"--ssl-ca="+caFile, "--ssl-verify-server-cert", "--batch", "--skip-column-names", "defaultdb", "-e", sql)
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	out, err := run(ca, "CREATE TABLE t (id INT PRIMARY KEY, s TEXT); INSERT INTO t VALUES (1, 'one'); SELECT s FROM t WHERE id = 1")
	if err != nil || out != "one" {
		t.Fatalf("mysql client: %v\n%s", err, out)
	}
	// Another CA does not verify the certificate.
	otherCert, _, err := NewCA("other", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other.pem")
	if err := os.WriteFile(other, otherCert, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := run(other, "SELECT 1"); err == nil {
		t.Fatalf("a certificate from another CA was accepted: %s", out)
	}
}
