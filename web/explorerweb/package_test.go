package explorerweb

import (
	"net/url"
	"testing"
)

// TestPackagePage: a package's page over the demo world — its entries across products, its
// git references linked to the git search, its repository's branches, the forks with their
// build results linked to the build monitor and the logs, its published binaries; a package
// only the products know (no pool repository) still has a page; a name nobody knows is the
// friendly 404, escaped.
func TestPackagePage(t *testing.T) {
	e := newEnv(t)
	e.run(t, []page{
		{name: "pocket-cli", path: "/explorer/packages/pocket-cli", status: 200,
			contains: []string{`<h1 id="package-name">pocket-cli</h1>`,
				"<td>Pocket-1.0-x86_64-Build1.1</td><td>1.1.0-2.2</td><td>x86_64</td><td>pocket-cli-1.1.0-2.2.x86_64.rpm</td>",
				"<td>Pocket-1.0-aarch64-Build1.1</td><td>1.1.0-2.2</td><td>aarch64</td><td>pocket-cli-1.1.0-2.2.aarch64.rpm</td>",
				"<td>Pocket-0.9-x86_64-Build1.1</td><td>1.0.0-2.1</td>",
				`<a href="/explorer?kind=git&amp;q=pool%2Fpocket-cli%40pocket-1.0">packages built from this branch</a>`,
				"pool/pocket-cli on the git host.", "<td>main</td>", "<td>pocket-0.9</td>",
				`<a href="https://src.pocketforge.test/pool/pocket-cli/commit/` + pocketCLI10 + `"><code>` + pocketCLI10[:12] + `</code></a>`,
				`<a href="https://src.pocketforge.test/alice/pocket-cli">alice/pocket-cli</a>`, "not built anywhere the explorer may read",
				`<a href="http://forge.test/published/devel:tools/standard/x86_64/pocket-cli-1.1.0-1.2.x86_64.rpm">`}},
		{name: "a fork's builds link to the monitor and the log", path: "/explorer/packages/forge-utils", status: 200,
			contains: []string{`<a href="http://forge.test/projects/home:alice:branches:devel:tools/monitor?package=forge-utils">home:alice:branches:devel:tools</a>`,
				`<a class="status s-succeeded" href="http://forge.test/projects/home:alice:branches:devel:tools/packages/forge-utils/logs/standard/x86_64">succeeded</a>`,
				`<a href="https://src.pocketforge.test/bob/forge-utils">bob/forge-utils</a>`}},
		{name: "another org's repository", path: "/explorer/packages/pocket-cli?org=alice", status: 200,
			contains: []string{"alice/pocket-cli on the git host.", "<td>feature/completion</td>", "The repository has no forks."}},
		{name: "an org without the repository", path: "/explorer/packages/pocket-cli?org=nobody", status: 200,
			contains: []string{"The git host has no repository of this package in organization nobody.", "Pocket-1.0-x86_64-Build1.1"}},
		{name: "a package with no pool repository", path: "/explorer/packages/bash", status: 200,
			contains: []string{`<h1 id="package-name">bash</h1>`, "The git host has no repository of this package.", "No repository, so no forks."}},
		{name: "unknown", path: "/explorer/packages/no-such-package", status: 404, contains: []string{"Page not found"}},
		{name: "unknown and escaped", path: "/explorer/packages/" + url.PathEscape(xss), status: 404,
			contains: []string{"Page not found"}, excludes: []string{xss}},
		{name: "a name no search takes", path: "/explorer/packages/a%00b", status: 404},
	})
}
