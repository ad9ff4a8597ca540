package metadoc

import (
	"encoding/xml"
	"strings"
	"testing"
)

// TestPackageSCMSync: a package meta's <scmsync> is kept (trimmed) and rendered where OBS
// renders it, after the description; a meta without one renders none.
func TestPackageSCMSync(t *testing.T) {
	var d Package
	body := `<package name="k" project="p"><title>T</title><description>D</description>` +
		`<url>https://example.org</url><scmsync> https://src.pocketforge.test/pool/k#main </scmsync></package>`
	if err := Unmarshal([]byte(body), &d); err != nil {
		t.Fatal(err)
	}
	rec := d.Record()
	if rec.SCMSync != "https://src.pocketforge.test/pool/k#main" {
		t.Fatalf("kept %q", rec.SCMSync)
	}
	out, err := xml.Marshal(FromPackage(rec))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `<description>D</description><scmsync>https://src.pocketforge.test/pool/k#main</scmsync>`) {
		t.Errorf("rendered %s", out)
	}
	rec.SCMSync = ""
	if out, _ := xml.Marshal(FromPackage(rec)); strings.Contains(string(out), "scmsync") {
		t.Errorf("rendered without one: %s", out)
	}
}
