package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestOscRequestAcceptForwards: accepting a submit into a package that another package names
// as its devel package. osc rq accept searches /search/package for packages developed in the
// target (`devel/[…]`, which OBS tolerates), finds Pocket:1.0/forge-utils (a copy, not a link,
// whose meta says devel:tools/forge-utils), asks "Forward this submit to it?", and on "y"
// creates the forwarded request as the accepter, with the description OBS's clients write.
func TestOscRequestAcceptForwards(t *testing.T) {
	t.Parallel()
	w := newRequestWorld(t)
	admin := newOscSession(t, w.url, "Admin", e2eAdminPassword)
	const pkg = "forge-utils"
	expect(t, admin, []string{"copypac", "devel:tools", pkg, "Pocket:1.0", pkg})
	meta := admin.write("meta.xml", `<package name="forge-utils" project="Pocket:1.0"><title>forge-utils</title><description/>`+
		`<devel project="devel:tools" package="forge-utils"/></package>`)
	expect(t, admin, []string{"meta", "pkg", "Pocket:1.0", pkg, "-F", meta})

	branch := change(t, w.bob, "bob", "devel:tools", pkg, "- bob: a quieter --help")
	id := submit(t, w.bob, branch, pkg, "devel:tools", "Quieter help")
	expect(t, w.carol, []string{"review", "accept", "-m", "ok", "-U", "carol", id})

	code, out := w.alice.input(w.alice.dir, "y\n", "rq", "accept", "-m", "taken", id)
	if code != 0 {
		t.Fatalf("osc rq accept: exit %d\n%s", code, out)
	}
	for _, want := range []string{"Pocket:1.0", "Forward this submit to it?", "forwarded request " + id + " from bob", "New request #"} {
		if !strings.Contains(out, want) {
			t.Fatalf("osc rq accept: the output lacks %q:\n%s", want, out)
		}
	}
	m := regexp.MustCompile(`New request #\s*(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no new request number in:\n%s", out)
	}
	expect(t, admin, []string{"rq", "show", m[1]}, "submit:", "devel:tools/"+pkg, "-> Pocket:1.0", "Quieter help (forwarded request "+id+" from bob)", "State:   new")
	expect(t, admin, []string{"api", "/source/devel:tools/" + pkg + "/_history"}, "<requestid>"+id+"</requestid>")
}
