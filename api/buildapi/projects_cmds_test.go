package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

var locked403 = code(403, "project_locked", "The target project is locked")

func TestLockUnlock(t *testing.T) {
	e := newEnv(t)
	pkgMeta := `<package name="pocket-cli" project="devel:tools"><title>T</title><description/></package>`
	e.run(t, []scenario{
		{"no credentials", req("POST", "/source/home:alice?cmd=lock", nil, ""), apitest.Expect{Status: 401}},
		{"not a maintainer", req("POST", "/source/home:alice?cmd=lock", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"unknown project", req("POST", "/source/nope?cmd=lock", asAlice, ""), code(404, "unknown_project")},
		{"no cmd", req("POST", "/source/home:alice", asAlice, ""), code(400, "missing_parameter")},
		{"unknown cmd", req("POST", "/source/home:alice?cmd=frobnicate", asAlice, ""), code(400, "illegal_request")},
		{"lock", req("POST", "/source/home:alice?cmd=lock", asAlice, ""), ok},
		{"meta shows it", req("GET", "/source/home:alice/_meta", asBob, ""), apitest.Expect{Status: 200, Contains: []string{"<lock>\n    <enable></enable>\n  </lock>"}}},
		{"meta PUT refused", req("PUT", "/source/home:alice/_meta", asAlice, prj("home:alice", "")), locked403},
		{"package create refused", req("PUT", "/source/home:alice/x/_meta", asAlice, `<package><title>X</title><description/></package>`), locked403},
		{"config PUT refused", req("PUT", "/source/home:alice/_config", asAlice, "Macros:\n"), locked403},
		{"set_flag refused", req("POST", "/source/home:alice?cmd=set_flag&flag=build&status=disable", asAlice, ""), locked403},
		{"unlock needs a comment", req("POST", "/source/home:alice?cmd=unlock", asAlice, ""), code(400, "missing_parameter")},
		{"unlock by another", req("POST", "/source/home:alice?cmd=unlock&comment=x", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"unlock", req("POST", "/source/home:alice?cmd=unlock&comment=done", asAlice, ""), ok},
		{"writable again", req("PUT", "/source/home:alice/_meta", asAlice, prj("home:alice", `<person userid="alice" role="maintainer"/>`)), ok},
		{"package lock, not a maintainer", req("POST", "/source/devel:tools/pocket-cli?cmd=lock", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"package lock", req("POST", "/source/devel:tools/pocket-cli?cmd=lock", asAlice, ""), ok},
		{"package file write refused", req("PUT", "/source/devel:tools/pocket-cli/new", asAlice, "x"), locked403},
		{"package meta PUT refused", req("PUT", "/source/devel:tools/pocket-cli/_meta", asAlice, pkgMeta), locked403},
		{"package unlock needs a comment", req("POST", "/source/devel:tools/pocket-cli?cmd=unlock", asAlice, ""), code(400, "missing_parameter")},
		{"package unlock by Admin", req("POST", "/source/devel:tools/pocket-cli?cmd=unlock&comment=x", asAdmin, ""), ok},
		{"package writable again", req("PUT", "/source/devel:tools/pocket-cli/_meta", asAlice, pkgMeta), ok},
		{"unknown package", req("POST", "/source/devel:tools/nope?cmd=lock", asAlice, ""), code(404, "unknown_package")},
	})
}

func TestSetRemoveFlag(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{
		{"no credentials", req("POST", "/source/home:alice?cmd=set_flag&flag=build&status=disable", nil, ""), apitest.Expect{Status: 401}},
		{"not a maintainer", req("POST", "/source/home:alice?cmd=set_flag&flag=build&status=disable", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"unknown flag", req("POST", "/source/home:alice?cmd=set_flag&flag=bogus&status=disable", asAlice, ""), code(400, "invalid_flag")},
		{"unknown status", req("POST", "/source/home:alice?cmd=set_flag&flag=build&status=maybe", asAlice, ""), code(400, "invalid_flag")},
		{"unknown arch", req("POST", "/source/home:alice?cmd=set_flag&flag=build&status=disable&arch=z80", asAlice, ""), code(400, "invalid_flag")},
		{"remove_flag, unknown flag", req("POST", "/source/home:alice?cmd=remove_flag&flag=", asAlice, ""), code(400, "invalid_flag")},
		{"disable build", req("POST", "/source/home:alice?cmd=set_flag&flag=build&status=disable&repository=standard&arch=x86_64", asAlice, ""), ok},
		{"disable publish", req("POST", "/source/home:alice?cmd=set_flag&flag=publish&status=disable", asAdmin, ""), ok},
		{"same entry again: replaced", req("POST", "/source/home:alice?cmd=set_flag&flag=build&status=enable&repository=standard&arch=x86_64", asAlice, ""), ok},
		{"meta shows them", req("GET", "/source/home:alice/_meta", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			"<build>\n    <enable repository=\"standard\" arch=\"x86_64\"></enable>\n  </build>", "<publish>\n    <disable></disable>\n  </publish>"},
			Excludes: []string{`<disable repository="standard"`}}},
		{"remove build", req("POST", "/source/home:alice?cmd=remove_flag&flag=build&repository=standard&arch=x86_64", asAlice, ""), ok},
		{"meta lost it", req("GET", "/source/home:alice/_meta", asBob, ""), apitest.Expect{Status: 200, Contains: []string{"<publish>"}, Excludes: []string{"<build>"}}},
		{"package flag, not a maintainer", req("POST", "/source/devel:tools/pocket-cli?cmd=set_flag&flag=debuginfo&status=enable", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"package flag, bad flag", req("POST", "/source/devel:tools/pocket-cli?cmd=set_flag&flag=nope&status=enable", asAlice, ""), code(400, "invalid_flag")},
		{"package flag", req("POST", "/source/devel:tools/pocket-cli?cmd=set_flag&flag=debuginfo&status=enable", asAlice, ""), ok},
		{"package meta shows it", req("GET", "/source/devel:tools/pocket-cli/_meta", asBob, ""), apitest.Expect{Status: 200, Contains: []string{"<debuginfo>\n    <enable></enable>\n  </debuginfo>"}}},
		{"package remove_flag", req("POST", "/source/devel:tools/pocket-cli?cmd=remove_flag&flag=debuginfo", asAlice, ""), ok},
		{"package meta lost it", req("GET", "/source/devel:tools/pocket-cli/_meta", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"<debuginfo>"}}},
	})
}

func TestProjectConfig(t *testing.T) {
	e := newEnv(t)
	conf := "Macros:\n%pocket 1\n:Macros\n"
	e.run(t, []scenario{
		{"no credentials", req("GET", "/source/home:alice/_config", nil, ""), apitest.Expect{Status: 401}},
		{"empty when none", req("GET", "/source/home:alice/_config", asBob, ""), apitest.Expect{Status: 200, Exact: "", Header: map[string]string{"Content-Type": "text/plain; charset=utf-8"}}},
		{"unknown project", req("GET", "/source/nope/_config", asBob, ""), code(404, "unknown_project")},
		{"PUT without credentials", req("PUT", "/source/home:alice/_config", nil, conf), apitest.Expect{Status: 401}},
		{"PUT by a non-maintainer", req("PUT", "/source/home:alice/_config", asBob, conf), code(403, "change_project_no_permission")},
		{"PUT to an unknown project", req("PUT", "/source/nope/_config", asAlice, conf), code(404, "unknown_project")},
		{"PUT", req("PUT", "/source/home:alice/_config", asAlice, conf), ok},
		{"read back", req("GET", "/source/home:alice/_config", asBob, ""), apitest.Expect{Status: 200, Exact: conf}},
		{"a meta PUT keeps it", req("PUT", "/source/home:alice/_meta", asAlice, prj("home:alice", `<person userid="alice" role="maintainer"/>`)), ok},
		{"still there", req("GET", "/source/home:alice/_config", asBob, ""), apitest.Expect{Status: 200, Exact: conf}},
		{"packages still listed", req("GET", "/source/devel:tools", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<entry name="pocket-cli">`}}},
	})
}
