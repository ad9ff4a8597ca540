package explorerweb

import (
	"net/url"
	"testing"

	"github.com/pocketforge/pocketforge/fixtures/explorergen"
)

// xss is the search term every escaping test sends.
const xss = "<script>alert(1)</script>"

// TestSearch: each tab of the search page over the demo world — the form alone without a term,
// the hits of each search with links to the package pages, long answers cut into pages of
// pageSize, a term the domain refuses shown on the page with status 400, and every term echoed
// escaped.
func TestSearch(t *testing.T) {
	e := newEnv(t)
	q := func(kind, term string) string { return "/explorer?kind=" + kind + "&q=" + url.QueryEscape(term) }
	escaped := []string{"&lt;script&gt;alert(1)&lt;/script&gt;"}
	raw := []string{xss}
	e.run(t, []page{
		{name: "the form alone", path: "/explorer", status: 200,
			contains: []string{`<form id="explorer-search"`, `<label for="q">`, `<a href="/explorer?kind=packages" aria-current="page">Packages</a>`,
				`<a href="/explorer?kind=binaries">Binaries</a>`},
			excludes: []string{`id="result-count"`, `id="results"`}},
		{name: "a blank term searches nothing", path: "/explorer?q=%20%20", status: 200, excludes: []string{`id="results"`}},

		{name: "packages", path: q("packages", "pocket-cli"), status: 200,
			contains: []string{`id="result-count">3 hits for <strong>pocket-cli</strong>`, `<a href="/explorer/packages/pocket-cli">pocket-cli</a>`,
				"Pocket-1.0-x86_64-Build1.1", "Pocket-1.0-aarch64-Build1.1", "Pocket-0.9-x86_64-Build1.1",
				`<a href="https://src.pocketforge.test/pool/pocket-cli">pool/pocket-cli@pocket-1.0</a> <code>` + pocketCLI10[:12] + `</code>`,
				`<a href="/explorer?kind=git&amp;q=pocket-cli">Git</a>`}},
		{name: "packages: nothing found", path: q("packages", "no-such-thing"), status: 200,
			contains: []string{"Nothing found for <strong>no-such-thing</strong>"}, excludes: []string{`id="results"`}},
		{name: "packages: escaped", path: q("packages", xss), status: 200, contains: escaped, excludes: raw},

		{name: "files by path", path: q("files", "/usr/bin/bash"), status: 200,
			contains: []string{"3 packages ship", "<code>/usr/bin/bash</code>", "bash-5.2.37-2.1.x86_64.rpm", "bash-5.2.37-2.1.aarch64.rpm",
				`<a href="/explorer/packages/bash">bash</a>`}},
		{name: "files by basename", path: q("files", "bash"), status: 200, contains: []string{"<code>/usr/bin/bash</code>"}},
		{name: "files under a directory", path: q("files", "/usr/bin"), status: 200,
			contains: []string{"files under <strong>/usr/bin</strong>, nearest first.", "<code>/usr/bin/bash</code>"}, excludes: []string{"Nothing found"}},
		{name: "files: too short, in the API's words", path: q("files", "a"), status: 400,
			contains: []string{`<p class="err" id="search-error" role="alert">search term must be at least 2 characters</p>`, `value="a"`},
			excludes: []string{`id="results"`}},
		{name: "files: escaped", path: q("files", xss), status: 200, contains: escaped, excludes: raw},

		{name: "git: org/repo@branch", path: q("git", "pool/pocket-cli@pocket-1.0"), status: 200,
			contains: []string{"2 hits for", "Pocket-1.0-aarch64-Build1.1", "Pocket-1.0-x86_64-Build1.1"}, excludes: []string{"Pocket-0.9-x86_64"}},
		{name: "git: a commit prefix", path: q("git", pocketCLI10[:8]), status: 200, contains: []string{`<a href="/explorer/packages/pocket-cli">`}},
		{name: "git: escaped and refused", path: q("git", xss), status: 400, contains: append([]string{`id="search-error"`}, escaped...), excludes: raw},

		{name: "binaries", path: q("binaries", "pocket-cli"), status: 200,
			contains: []string{"6 hits for <strong>pocket-cli</strong>", "6 with a git source",
				`<a href="http://forge.test/published/Pocket:1.0/standard/x86_64/pocket-cli-1.1.0-2.2.x86_64.rpm">pocket-cli-1.1.0-2.2.x86_64.rpm</a>`,
				`<a href="https://src.pocketforge.test/pool/pocket-cli">pool/pocket-cli</a>`}},
		{name: "binaries: the name is exact", path: q("binaries", "pocket"), status: 200, contains: []string{"Nothing found"}},
		{name: "binaries: both quotes refused", path: q("binaries", `a'b"c`), status: 400, contains: []string{"both kinds of quote"}},
		{name: "binaries: escaped", path: q("binaries", xss), status: 200, contains: escaped, excludes: raw},

		{name: "an unknown kind", path: q("nope", "x"), status: 400, contains: []string{"There is no &#34;nope&#34; search"}},
		{name: "an unknown kind is escaped", path: "/explorer?kind=" + url.QueryEscape(xss), status: 400, contains: escaped, excludes: raw},
	})
}

// pocketCLI10 is the commit Pocket:1.0/pocket-cli's sources stand for on a fresh demo world
// (buildsvc.PackageVCS), which the farm's Pocket 1.0 products name and pool/pocket-cli's
// pocket-1.0 is at.
const pocketCLI10 = "57b7f15469746592c492bec2864bd94e27a4aea677120aba055a0286cee6aa8d"

// TestSearchPaged: a long answer is cut into pages of pageSize, with links to the pages
// before and after, and a page past the last is the last. The demo world's products are too
// small to need pages (36 packages each), so a generated product of 600 RPMs stands in (431
// of them, with the demo's, have an "e" in their names).
func TestSearchPaged(t *testing.T) {
	e := newEnv(t)
	p := explorergen.Generate(explorergen.Options{Seed: 3, Packages: 400, FilesPerPackage: 1,
		Products: []explorergen.ProductSpec{{Name: "Paged-1.0-x86_64-Build1.1", Release: "1.0", Arch: "x86_64", Packages: 600}}})[0]
	if rep, err := e.im.ImportDocument(p.SPDX, p.Name+".spdx.json"); err != nil || len(rep.Problems) > 0 {
		t.Fatalf("import: %v %+v", err, rep.Problems)
	}
	q := "/explorer?kind=packages&q=e"
	e.run(t, []page{
		{name: "a long answer is paged", path: q, status: 200,
			contains: []string{"Showing 1–200 of 431 hits", `href="/explorer?kind=packages&amp;q=e&amp;page=2" rel="next"`},
			excludes: []string{`rel="prev"`}},
		{name: "the second page", path: q + "&page=2", status: 200,
			contains: []string{"Showing 201–400 of 431 hits", `page=1" rel="prev"`, `page=3" rel="next"`}},
		{name: "past the last page is the last", path: q + "&page=999", status: 200,
			contains: []string{"Showing 401–431 of 431 hits", `page=2" rel="prev"`}, excludes: []string{`rel="next"`}},
	})
}
