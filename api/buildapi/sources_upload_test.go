package buildapi

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// TestUploadLimitsAndMismatch: a file over --source-file-limit is a 413 in the build
// service's format, whichever way it is PUT; an upload whose bytes do not match the md5 the
// file list names stays "missing", so nothing is committed with the wrong content.
func TestUploadLimitsAndMismatch(t *testing.T) {
	e := newEnvWith(t, func(d *Deps) {
		d.Build = domains.NewBuild(d.Store, d.Clock, d.Log, domains.BuildOptions{Core: buildsvc.Options{FileLimit: 1024}})
	})
	x := "/source/home:alice/x"
	big := strings.Repeat("x", 1025)
	wantMD5 := buildstore.MD5Hex([]byte("the real content\n"))
	list := `<directory><entry name="f" md5="` + wantMD5 + `"/></directory>`
	e.run(t, []scenario{
		{"create", req("PUT", x+"/_meta", asAlice, pkgMeta), ok},
		{"direct PUT over the limit", req("PUT", x+"/big", asAlice, big), code(413, "file_too_large", "more than this service takes")},
		{"upload over the limit", req("PUT", x+"/big?rev=upload", asAlice, big), code(413, "file_too_large")},
		{"repository upload over the limit", req("PUT", x+"/big?rev=repository", asAlice, big), code(413, "file_too_large")},
		{"at the limit", req("PUT", x+"/ok", asAlice, big[:1024]), want(200, `<revision rev="1"`)},
		{"list names content not stored", req("POST", x+"?cmd=commitfilelist", asAlice, list), want(200, `error="missing"`, `<entry name="f" md5="`+wantMD5+`"`)},
		{"upload other bytes", req("PUT", x+"/f?rev=repository", asAlice, "something else\n"), ok},
		{"still missing", req("POST", x+"?cmd=commitfilelist", asAlice, list), want(200, `error="missing"`)},
		{"nothing committed", req("GET", x+"/_history", asAlice, ""), want(200, `<revision rev="1"`)},
		{"upload the right bytes", req("PUT", x+"/f?rev=repository", asAlice, "the real content\n"), ok},
		{"committed", req("POST", x+"?cmd=commitfilelist", asAlice, list), want(200, `rev="2"`, `<entry name="f" md5="`+wantMD5+`"`)},
		{"a bad md5 in the list", req("POST", x+"?cmd=commitfilelist", asAlice, `<directory><entry name="f" md5="xyz"/></directory>`), code(400, "invalid_xml")},
		{"a file name with a slash", req("POST", x+"?cmd=commitfilelist", asAlice, `<directory><entry name="../f" md5="`+wantMD5+`"/></directory>`), code(400, "invalid_filename")},
	})
}
