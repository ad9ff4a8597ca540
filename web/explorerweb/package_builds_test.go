package explorerweb

import (
	"bytes"
	"testing"

	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The package page links each product entry the appliance's build service built to its build
// results and log: the disturl's project, repository and package, the entry's arch (a noarch
// package: the product's). Only for disturls of this build service (obs://pocketforge/…, the
// configuration's name) and projects the explorer follows: a project hidden from it is never
// named.

// followDemo is the package the scenarios' products ship.
const followDemo = "follow-demo"

// localDistURL is a disturl of the appliance's build service.
func localDistURL(project, pkg string) string {
	return "obs://pocketforge/" + project + "/standard/0123456789abcdef0123456789abcdef-" + pkg
}

// importShipping imports product name-version-arch-Build1.1 shipping followDemo for rpmArch,
// built where disturl says.
func (e *env) importShipping(t *testing.T, name, arch, rpmArch, disturl string) {
	t.Helper()
	var doc bytes.Buffer
	err := spdx.WriteDocument(&doc, spdx.ProductSBOM{Name: name, Version: "1.0", Arch: arch, Build: "Build1.1",
		Created: testNow, Tool: "pocketforge-test",
		Packages: []spdx.ShippedRPM{{Name: followDemo, Version: "2.0", Release: "1.1", Arch: rpmArch, DistURL: disturl}}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.im.ImportDocument(doc.Bytes(), name+".spdx.json")
	if err != nil || len(rep.Problems) > 0 {
		t.Fatalf("import %s: %v %+v", name, err, rep.Problems)
	}
}

// hide gives project <access><disable/>: the explorer's identity no longer sees it.
func (e *env) hide(t *testing.T, project string) {
	t.Helper()
	err := e.db.Write(func(tx kv.Tx) error {
		p, err := buildstore.GetProject(tx, project)
		if err != nil {
			return err
		}
		p.Flags = append(p.Flags, buildstore.Flag{Name: "access", Status: "disable"})
		return buildstore.PutProject(tx, p)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestPackagePageBuildLinks(t *testing.T) {
	e := newEnv(t)
	e.hide(t, "devel:libs")
	e.importShipping(t, "Follow", "x86_64", "x86_64", localDistURL("devel:tools", "forge-utils"))
	e.importShipping(t, "Noarch", "aarch64", "noarch", localDistURL("devel:tools", "forge-utils"))
	e.importShipping(t, "Multi", "aarch64-x86_64", "noarch", localDistURL("devel:tools", "forge-utils"))
	e.importShipping(t, "Hidden", "x86_64", "x86_64", localDistURL("devel:libs", "libpocket"))
	e.importShipping(t, "Foreign", "x86_64", "x86_64", "obs://build.opensuse.org/devel:tools/standard/0123456789abcdef0123456789abcdef-forge-utils")
	e.importShipping(t, "Unfollowed", "x86_64", "x86_64", localDistURL("No:Such:Project", "forge-utils"))
	const (
		monitor = `<a href="http://forge.test/projects/devel:tools/monitor?package=forge-utils">build results</a>`
		logs    = `http://forge.test/projects/devel:tools/packages/forge-utils/logs/standard/`
		none    = `<td><span class="muted">none</span></td><td><span class="muted">not built here</span></td></tr>`
	)
	row := func(product, arch, rpm, build string) string {
		return "<tr><td>" + product + "</td><td>2.0-1.1</td><td>" + arch + "</td><td>" + rpm + "</td>" +
			`<td><span class="muted">none</span></td><td>` + build + "</td></tr>"
	}
	e.run(t, []page{
		{name: "this build service's builds link to their results and log", path: "/explorer/packages/" + followDemo, status: 200,
			contains: []string{
				row("Follow-1.0-x86_64-Build1.1", "x86_64", "follow-demo-2.0-1.1.x86_64.rpm",
					monitor+` · <a href="`+logs+`x86_64">build log</a>`),
				row("Noarch-1.0-aarch64-Build1.1", "noarch", "follow-demo-2.0-1.1.noarch.rpm",
					monitor+` · <a href="`+logs+`aarch64">build log</a>`),
				row("Multi-1.0-aarch64-x86_64-Build1.1", "noarch", "follow-demo-2.0-1.1.noarch.rpm", monitor),
				"<td>Hidden-1.0-x86_64-Build1.1</td>" + "<td>2.0-1.1</td><td>x86_64</td><td>follow-demo-2.0-1.1.x86_64.rpm</td>" + none,
				"<td>Foreign-1.0-x86_64-Build1.1</td>" + "<td>2.0-1.1</td><td>x86_64</td><td>follow-demo-2.0-1.1.x86_64.rpm</td>" + none,
				"<td>Unfollowed-1.0-x86_64-Build1.1</td>" + "<td>2.0-1.1</td><td>x86_64</td><td>follow-demo-2.0-1.1.x86_64.rpm</td>" + none,
			},
			excludes: []string{"devel:libs", "libpocket", "No:Such:Project", "build.opensuse.org"}},
		{name: "the demo's products are the farm's: each entry links to its build", path: "/explorer/packages/pocket-cli", status: 200,
			contains: []string{`<a href="http://forge.test/projects/Pocket:1.0/packages/pocket-cli/logs/standard/x86_64">build log</a>`,
				`<a href="http://forge.test/projects/Pocket:1.0/packages/pocket-cli/logs/standard/aarch64">build log</a>`},
			excludes: []string{"not built here"}},
	})
}
