package explorerapi

import (
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

// TestParseProxyPath: the segments the rules read, and every spelling of a dot segment refused.
func TestParseProxyPath(t *testing.T) {
	good := map[string]string{
		"":                                "",
		"/":                               "",
		"/source":                         "source",
		"/source/home%3Aalice/pkg":        "source|home:alice|pkg",
		"/build/P/standard/x86_64/p/_log": "build|P|standard|x86_64|p|_log",
		"/source/P/p/file.tar.gz":         "source|P|p|file.tar.gz",
		"/source/P/p/a..b":                "source|P|p|a..b",
	}
	for raw, want := range good {
		p, err := parseProxyPath(raw)
		if err != nil || strings.Join(p.segs, "|") != want || p.raw != raw {
			t.Errorf("%q: %q %v, want %q", raw, p.segs, err, want)
		}
	}
	for _, raw := range []string{"/source/..", "/source/../x", "/./source", "/source/%2e%2e/x", "/source/%2E./x",
		"/source/%252e%252e/x", "/source/a%2fb", "/source/a%2F..", "/source/a%5cb", "/source/a\\b", "/source/a%00", "/source/%zz"} {
		if _, err := parseProxyPath(raw); err == nil {
			t.Errorf("%q accepted", raw)
		}
	}
}

// TestReadOnlyPost: the POSTs that only read, and the writes that look like them.
func TestReadOnlyPost(t *testing.T) {
	cases := []struct {
		path, query string
		want, shape bool
	}{
		{"/source/P/p", "cmd=diff&unified=1", true, true},
		{"/source/P", "cmd=diff", true, true},
		{"/source/P/p", "cmd=showlinked", true, true},
		{"/source/P/p", "cmd=linkdiff", true, true},
		{"/source/P/_project", "cmd=getprojectservices", true, true},
		{"/source/P/_project", "cmd=commit", false, true},
		{"/source/P/p", "cmd=getprojectservices", true, true},
		{"/source/P/p", "cmd=commit", false, true},
		{"/source/P/p", "cmd=diff&cmd=commit", false, true},
		{"/source/P/p", "", false, true},
		{"/source/P/p/f", "cmd=diff", false, false},
		{"/source/P/_meta", "cmd=diff", false, false},
		{"/source", "cmd=diff", false, false},
		{"/build/P/standard/x86_64/p/_buildinfo", "", true, true},
		{"/build/P/standard/x86_64/_builddepinfo", "", true, true},
		{"/build/P/_result", "", true, true},
		{"/build/P/_result", "cmd=rebuild", false, true},
		{"/build/P", "cmd=rebuild", false, false},
		{"/build/P/standard/x86_64/p", "cmd=abortbuild", false, false},
		{"/request", "cmd=create", false, false},
	}
	for _, c := range cases {
		p, err := parseProxyPath(c.path)
		if err != nil {
			t.Fatal(err)
		}
		var args fasthttp.Args
		args.Parse(c.query)
		if got := readOnlyPost(p.segs, &args); got != c.want {
			t.Errorf("POST %s?%s read-only: %v, want %v", c.path, c.query, got, c.want)
		}
		if got := postShape(p.segs); got != c.shape {
			t.Errorf("%s takes a read-only POST: %v, want %v", c.path, got, c.shape)
		}
	}
}
