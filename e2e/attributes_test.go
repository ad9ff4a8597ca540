package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOscAttributes: osc meta attribute against the built binary — reading the demo values of a
// project and a package, setting (--set, --create) and deleting (--delete) values on a package
// and one of its binaries, the refusals osc shows (a rule that is Admin's, a value not
// allowed), and the definitions through osc api.
func TestOscAttributes(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	alice := oscFor(t, p.url, "alice", "alice-password")
	admin := oscFor(t, p.url, "Admin", e2eAdminPassword)
	type step struct {
		name string
		osc  func(args ...string) (int, string)
		args []string
		want []string // in the output
		not  []string // not in the output
	}
	ok := `<status code="ok">`
	steps := []step{
		{"project values", alice, []string{"meta", "attribute", "Pocket:1.0"}, []string{`<attribute name="OwnerRootProject" namespace="OBS">`}, nil},
		{"package values", alice, []string{"meta", "attribute", "devel:tools", "pocket-cli"}, []string{`<attribute name="Maintained" namespace="OBS">`}, nil},
		{"set a value", alice, []string{"meta", "attribute", "devel:tools", "pocket-cli", "-a", "OBS:QualityCategory", "--set", "Stable"}, []string{ok}, nil},
		{"one attribute", alice, []string{"meta", "attribute", "devel:tools", "pocket-cli", "-a", "OBS:QualityCategory"},
			[]string{`<attribute name="QualityCategory" namespace="OBS">`, "<value>Stable</value>"}, []string{"Maintained"}},
		{"on a binary", admin, []string{"meta", "attribute", "devel:tools", "pocket-cli", "pocket-cli-doc", "-a", "OBS:ApprovedRequestSource", "--create"}, []string{ok}, nil},
		{"the binary's", alice, []string{"meta", "attribute", "devel:tools", "pocket-cli", "pocket-cli-doc"},
			[]string{`<attribute name="ApprovedRequestSource" namespace="OBS" binary="pocket-cli-doc">`}, []string{"QualityCategory"}},
		{"defaults", alice, []string{"meta", "attribute", "devel:tools", "pocket-cli", "--attribute-defaults"}, []string{"<value>Stable</value>"}, nil},
		{"with the project's", alice, []string{"meta", "attribute", "devel:tools", "pocket-cli", "--attribute-project"}, []string{`name="Maintained"`}, nil},
		{"Admin deletes Maintained", admin, []string{"meta", "attribute", "devel:tools", "pocket-cli", "-a", "OBS:Maintained", "--delete"}, []string{ok}, nil},
		{"gone", alice, []string{"meta", "attribute", "devel:tools", "pocket-cli"}, []string{"QualityCategory"}, []string{"Maintained"}},
		{"namespaces", alice, []string{"api", "/attribute/"}, []string{`<entry name="OBS"`}, nil},
		{"definitions", alice, []string{"api", "/attribute/OBS/"}, []string{`<entry name="Maintained"`, `<entry name="OwnerRootProject"`}, nil},
		{"a definition", alice, []string{"api", "/attribute/OBS/QualityCategory/_meta"}, []string{"<value>Development</value>", "<count>1</count>"}, nil},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			code, out := s.osc(s.args...)
			if code != 0 {
				t.Fatalf("osc %v: exit %d\n%s", s.args, code, out)
			}
			for _, w := range s.want {
				if !strings.Contains(out, w) {
					t.Fatalf("osc %v: output lacks %q:\n%s", s.args, w, out)
				}
			}
			for _, n := range s.not {
				if strings.Contains(out, n) {
					t.Fatalf("osc %v: output has %q:\n%s", s.args, n, out)
				}
			}
		})
	}
	refusals := []struct {
		name string
		args []string
		want []string
	}{
		{"a rule that is Admin's", []string{"meta", "attribute", "devel:tools", "forge-utils", "-a", "OBS:Maintained", "--create"},
			[]string{"403", "user alice has no permission to change attribute OBS:Maintained"}},
		{"a value not allowed", []string{"meta", "attribute", "devel:tools", "pocket-cli", "-a", "OBS:QualityCategory", "--set", "Gold"},
			// Only the words: osc unescapes &lt; &gt; &amp; in a summary, not the ' encoding/xml
			// writes for a quote.
			[]string{"400", "attribute value Gold for", "OBS:QualityCategory", "is not allowed. Please use one of: Stable, Testing"}},
		{"an unknown attribute", []string{"meta", "attribute", "devel:tools", "pocket-cli", "-a", "OBS:Nope", "--set", "x"},
			[]string{"404", "Attribute Type OBS:Nope does not exist"}},
		{"delete what is not set", []string{"meta", "attribute", "home:alice", "-a", "OBS:QualityCategory", "--delete"},
			[]string{"404", "Attribute OBS:QualityCategory does not exist"}},
	}
	for _, s := range refusals {
		t.Run(s.name, func(t *testing.T) {
			code, out := alice(s.args...)
			if code == 0 {
				t.Fatalf("osc %v: exit 0\n%s", s.args, out)
			}
			for _, w := range s.want {
				if !strings.Contains(out, w) {
					t.Fatalf("osc %v: output lacks %q:\n%s", s.args, w, out)
				}
			}
		})
	}
	if _, out := alice("meta", "attribute", "devel:tools", "pocket-cli", "-a", "OBS:QualityCategory"); !strings.Contains(out, "<value>Stable</value>") {
		t.Fatalf("a refused write changed the value:\n%s", out)
	}
}
