package explorerapi

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// rawGet sends GET uri to app as the client wrote it (no URL parsing on our side, so a bad
// percent-escape reaches the app as sent) and returns the status, headers and body.
func rawGet(app *fiber.App, uri string, header ...string) (int, *fasthttp.ResponseHeader, []byte) {
	var ctx fasthttp.RequestCtx
	ctx.Request.Header.SetMethod(fiber.MethodGet)
	ctx.Request.Header.DisableNormalizing()
	ctx.Request.SetRequestURI(uri)
	for i := 0; i+1 < len(header); i += 2 {
		ctx.Request.Header.Set(header[i], header[i+1])
	}
	app.Handler()(&ctx)
	return ctx.Response.StatusCode(), &ctx.Response.Header, bytes.Clone(ctx.Response.Body())
}

// svgSummary parses an SVG strictly and returns its aria-label and every element name, so a
// test can tell what it says and that nothing was injected.
func svgSummary(t testing.TB, body []byte) (label string, elements []string) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the badge is not well-formed XML: %v\n%s", err, body)
		}
		if se, ok := tok.(xml.StartElement); ok {
			elements = append(elements, se.Name.Local)
			for _, a := range se.Attr {
				if se.Name.Local == "svg" && a.Name.Local == "aria-label" {
					label = a.Value
				}
			}
		}
	}
	if len(elements) == 0 || elements[0] != "svg" {
		t.Fatalf("the answer is no SVG: %s", body)
	}
	return label, elements
}

// checkBadgeAnswer holds what every badge answer must be: 200, image/svg+xml, the seed's cache
// time, an ETag and a well-formed SVG; it returns the badge's accessible text.
func checkBadgeAnswer(t testing.TB, uri string, status int, h *fasthttp.ResponseHeader, body []byte) string {
	t.Helper()
	if status != fiber.StatusOK {
		t.Fatalf("%s: status %d, want 200 always: %s", uri, status, body)
	}
	if ct := string(h.ContentType()); ct != "image/svg+xml" {
		t.Errorf("%s: Content-Type %q", uri, ct)
	}
	if cc := string(h.Peek(fiber.HeaderCacheControl)); cc != "public, max-age=30" {
		t.Errorf("%s: Cache-Control %q", uri, cc)
	}
	if len(h.Peek(fiber.HeaderETag)) == 0 {
		t.Errorf("%s: no ETag", uri)
	}
	label, elements := svgSummary(t, body)
	for _, el := range elements {
		if el == "script" || el == "foreignObject" {
			t.Errorf("%s: the badge has a <%s> element", uri, el)
		}
	}
	return label
}

func TestBadges(t *testing.T) {
	e := newResultsEnv(t)
	e.tick()
	huge := strings.Repeat("x", 10<<10)
	cases := []struct{ uri, label string }{
		{"/badge/Pocket:1.0.svg", "build: passing"},
		{"/badge/Pocket%3A1.0.svg", "build: passing"},
		{"/badge/devel:tools.svg", "build: 1 failed"},
		{"/badge/devel:libs.svg?label=libs", "libs: 1 failed"},
		{"/badge/devel:libs.svg?label=", "build: 1 failed"},
		{"/badge/devel:tools.svg?repos=standard&archs=aarch64", "build: 1 failed"},
		{"/badge/devel:tools/pocket-lint.svg", "pocket-lint: failed"},
		{"/badge/devel:tools/forge-utils.svg", "forge-utils: passing"},
		{"/badge/devel:tools/forge-build.svg?archs=aarch64", "forge-build: inactive"},
		{"/badge/devel:tools/forge-changelog.svg?archs=aarch64,x86_64", "forge-changelog: passing"},
		{"/badge/devel:tools/forge-utils.svg?label=utils", "utils: passing"},
		// Unknown repositories and arches pick nothing: no builds, not an error.
		{"/badge/devel:tools.svg?repos=nope", "build: no builds"},
		{"/badge/devel:tools/pocket-lint.svg?archs=s390x", "pocket-lint: no builds"},
		{"/badge/home:alice.svg", "build: no builds"},
		{"/badge/home:bob.svg", "build: no builds"},
		{"/badge/home:bob/anything.svg", "anything: no builds"},
		// Errors are grey error badges, a hidden project exactly like a missing one.
		{"/badge/nope.svg", "build: error (project 'nope' not found)"},
		{"/badge/" + secretProject + ".svg", "build: error (project '" + secretProject + "' not found)"},
		{"/badge/" + secretProject + "/_table.svg", secretProject + ": error (project '" + secretProject + "' not found)"},
		{"/badge/devel:tools/nope.svg", "nope: error (package 'nope' not found in project 'devel:tools')"},
		{"/badge/devel:tools/nope.svg?label=n", "n: error (package 'nope' not found in project 'devel:tools')"},
		{"/badge", "build: error (not a badge address: /badge/<project>.svg, /badge/<project>/<package>.svg or /badge/<project>/_table.svg)"},
		{"/badge/", "build: error (not a badge address: /badge/<project>.svg, /badge/<project>/<package>.svg or /badge/<project>/_table.svg)"},
		{"/badge/devel:tools", "build: error (not a badge address: /badge/<project>.svg, /badge/<project>/<package>.svg or /badge/<project>/_table.svg)"},
		{"/badge/a/b/c.svg", "build: error (not a badge address: /badge/<project>.svg, /badge/<project>/<package>.svg or /badge/<project>/_table.svg)"},
		{"/badge/.svg", "build: error (not a badge address: /badge/<project>.svg, /badge/<project>/<package>.svg or /badge/<project>/_table.svg)"},
		{"/badge/%zz.svg", "build: error (project '%zz' not found)"},
		{"/badge/devel%3Atools%2Fpocket-lint.svg", "build: error (project 'devel:tools/pocket-lint' not found)"},
		// Labels: metacharacters are text, a 10 KB label is cut (its title keeps 256 characters).
		{"/badge/devel:tools.svg?label=" + url.QueryEscape(`<script>alert("x")</script>&'`), `<script>alert("x")</script>&': 1 failed`},
		{"/badge/devel:tools.svg?label=" + huge, strings.Repeat("x", 256) + "…: 1 failed"},
		// Tables.
		{"/badge/devel:tools/_table.svg", "devel:tools: 5 packages, 4 passing, 1 failed"},
		{"/badge/devel:tools/_table.svg?compact=true", "devel:tools: 5 packages, 4 passing, 1 failed"},
		{"/badge/devel:tools/_table.svg?max_packages=2", "devel:tools: 5 packages, 4 passing, 1 failed; 2 shown"},
		{"/badge/devel:tools/_table.svg?max_packages=0", "devel:tools: 5 packages, 4 passing, 1 failed; 1 shown"},
		{"/badge/devel:tools/_table.svg?max_packages=-7", "devel:tools: 5 packages, 4 passing, 1 failed; 1 shown"},
		{"/badge/devel:tools/_table.svg?max_packages=101", "devel:tools: 5 packages, 4 passing, 1 failed"},
		{"/badge/devel:tools/_table.svg?max_packages=abc", "devel:tools: 5 packages, 4 passing, 1 failed"},
		{"/badge/devel:tools/_table.svg?max_packages=99999999999999999999999", "devel:tools: 5 packages, 4 passing, 1 failed"},
		{"/badge/devel:tools/_table.svg?max_repos=1", "devel:tools: 5 packages, 4 passing, 1 failed; 1 of 2 repositories shown"},
		{"/badge/devel:tools/_table.svg?max_repos=0&max_packages=1&compact=1", "devel:tools: 5 packages, 4 passing, 1 failed; 1 shown"},
		{"/badge/devel:tools/_table.svg?repos=nope", "devel:tools: no builds"},
		{"/badge/home:alice/_table.svg", "home:alice: no builds"},
		{"/badge/nope/_table.svg", "nope: error (project 'nope' not found)"},
	}
	for _, c := range cases {
		status, h, body := rawGet(e.app, c.uri)
		if got := checkBadgeAnswer(t, c.uri, status, h, body); got != c.label {
			t.Errorf("%s: the badge says %q, want %q", c.uri, got, c.label)
		}
	}
}

// TestBadgeWarnings: a cut table shows the seed's yellow "<shown>/<total> pkgs" warning
// linking to the monitor, and says nothing when it shows everything.
func TestBadgeWarnings(t *testing.T) {
	e := newResultsEnv(t)
	e.tick()
	for uri, want := range map[string]string{
		"/badge/devel:tools/_table.svg?max_packages=2":             "2/5 pkgs",
		"/badge/devel:tools/_table.svg?max_packages=2&max_repos=1": "2/5 pkgs, 1/2 repos",
		"/badge/devel:tools/_table.svg?max_repos=1":                "1/2 repos",
		"/badge/devel:tools/_table.svg":                            "",
	} {
		_, _, body := rawGet(e.app, uri)
		yellow := bytes.Contains(body, []byte(`fill="#dfb317"`))
		if want == "" {
			if yellow || bytes.Contains(body, []byte(" pkgs<")) {
				t.Errorf("%s: a warning on a table that shows everything:\n%s", uri, body)
			}
			continue
		}
		if !yellow || !bytes.Contains(body, []byte(">"+want+"</text>")) {
			t.Errorf("%s: no yellow %q warning:\n%s", uri, want, body)
		}
	}
}

// TestBadgeLinks: viewed directly, the badges link to the web interface's monitor and log
// pages at the external URL.
func TestBadgeLinks(t *testing.T) {
	e := newResultsEnv(t)
	e.tick()
	for uri, want := range map[string][]string{
		"/badge/devel:tools.svg": {`xlink:href="http://forge.test/projects/devel:tools/monitor"`,
			`xlink:href="http://forge.test/projects/devel:tools/monitor?state=failed"`},
		"/badge/devel:tools/pocket-lint.svg": {`xlink:href="http://forge.test/projects/devel:tools/monitor?package=pocket-lint"`,
			`xlink:href="http://forge.test/projects/devel:tools/packages/pocket-lint/logs/standard/x86_64"`},
		"/badge/devel:tools/_table.svg": {`xlink:href="http://forge.test/projects/devel:tools/monitor"`,
			`xlink:href="http://forge.test/projects/devel:tools/packages/pocket-lint/logs/standard/aarch64"`,
			`xlink:href="http://forge.test/projects/devel:tools/packages/forge-utils/logs/standard/x86_64"`},
	} {
		_, _, body := rawGet(e.app, uri)
		for _, w := range want {
			if !bytes.Contains(body, []byte(w)) {
				t.Errorf("%s: no link %s in\n%s", uri, w, body)
			}
		}
	}
	// Excluded and disabled cells (and building and blocked ones) do not link.
	_, _, body := rawGet(e.app, "/badge/devel:tools/_table.svg")
	for _, no := range []string{"forge-build/logs/standard/aarch64", "forge-changelog/logs/standard/aarch64"} {
		if bytes.Contains(body, []byte(no)) {
			t.Errorf("the table links a cell that has no log: %s", no)
		}
	}
}

// TestBadgeConditional: a request that names the badge's ETag gets 304 and no body; another
// ETag or none gets the badge.
func TestBadgeConditional(t *testing.T) {
	e := newResultsEnv(t)
	e.tick()
	const uri = "/badge/devel:tools/_table.svg?compact=1"
	_, h, body := rawGet(e.app, uri)
	etag := string(h.Peek(fiber.HeaderETag))
	for inm, want := range map[string]int{etag: 304, "W/" + etag: 304, `"x", ` + etag: 304, "*": 304, `"other"`: 200} {
		status, h2, body2 := rawGet(e.app, uri, fiber.HeaderIfNoneMatch, inm)
		if status != want {
			t.Errorf("If-None-Match %s: %d, want %d", inm, status, want)
		}
		if status == 304 && len(body2) != 0 {
			t.Errorf("If-None-Match %s: a 304 with a body", inm)
		}
		if status == 200 && !bytes.Equal(body, body2) {
			t.Errorf("If-None-Match %s: another badge", inm)
		}
		if got := string(h2.Peek(fiber.HeaderETag)); got != etag {
			t.Errorf("If-None-Match %s: ETag %s, want %s", inm, got, etag)
		}
	}
	if _, h3, _ := rawGet(e.app, "/badge/devel:tools/_table.svg"); string(h3.Peek(fiber.HeaderETag)) == etag {
		t.Error("the compact and the full table have one ETag")
	}
}

// TestBadgeFollowsResults: a badge drawn and kept changes as soon as the cache's results do.
func TestBadgeFollowsResults(t *testing.T) {
	e := newResultsEnv(t)
	e.tick()
	const uri = "/badge/devel:tools/hello.svg"
	if _, _, body := rawGet(e.app, uri); !strings.HasPrefix(badgeLabel(t, body), "hello: error") {
		t.Fatalf("hello has a badge before it exists: %s", badgeLabel(t, body))
	}
	_, h, before := rawGet(e.app, "/badge/devel:tools/_table.svg")
	e.commitHello(t)
	if err := e.build.Farm.SchedulePending(); err != nil {
		t.Fatal(err)
	}
	if err := e.im.RefreshResults(false); err != nil {
		t.Fatal(err)
	}
	if _, _, body := rawGet(e.app, uri); badgeLabel(t, body) != "hello: building" {
		t.Errorf("after hello was scheduled its badge says %q", badgeLabel(t, body))
	}
	_, h2, after := rawGet(e.app, "/badge/devel:tools/_table.svg")
	if bytes.Equal(before, after) || string(h.Peek(fiber.HeaderETag)) == string(h2.Peek(fiber.HeaderETag)) {
		t.Errorf("the project's table did not change with its results: %s", badgeLabel(t, after))
	}
}

func badgeLabel(t testing.TB, body []byte) string {
	label, _ := svgSummary(t, body)
	return label
}

// FuzzBadge: whatever the address and query, the answer is a 200 with a well-formed SVG that
// has no element it should not.
// (45 s of fuzzing found nothing else.)
func FuzzBadge(f *testing.F) {
	e := newResultsEnv(f)
	e.tick()
	for _, seed := range []string{"devel:tools.svg", "devel:tools/_table.svg?max_packages=3&compact=1",
		"devel%3Atools/pocket-lint.svg?label=%3Cscript%3E", "%zz", "a/b/../c.svg?repos=,,,&archs=%00",
		"Pocket:1.0/_table.svg?max_repos=-1&max_packages=1e9", "x.svg?label=%ff%fe%01"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, tail string) {
		if strings.HasPrefix(tail, "/") || strings.ContainsFunc(tail, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '#' }) {
			// Not a request line: a raw control character makes fasthttp refuse the URI
			// before any route sees it (the server answers 400 "invalid requestURI"), and a
			// client never sends the fragment.
			return
		}
		uri := "/badge/" + tail
		status, h, body := rawGet(e.app, uri)
		checkBadgeAnswer(t, uri, status, h, body)
	})
}
