package buildapi

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

const maintMeta = `<project name="Maint" kind="maintenance"><title>Maintenance</title><description/>
<person userid="alice" role="maintainer"/><group groupid="pocket-reviewers" role="reviewer"/></project>`

// TestMaintenanceIncident: createmaintenanceincident below a maintenance project, by project
// and through POST /source and the OBS:MaintenanceProject attribute.
func TestMaintenanceIncident(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{
		{"no maintenance project yet", req("POST", "/source?cmd=createmaintenanceincident", asAlice, ""), code(404, "unknown_project", "no project flagged as maintenance project")},
		{"maintenance project", req("PUT", "/source/Maint/_meta", asAdmin, maintMeta), ok},
		{"first incident", req("POST", "/source/Maint?cmd=createmaintenanceincident", asAlice, ""), want(200, `<status code="ok">`, `<data name="targetproject">Maint:0</data>`)},
		{"the incident", req("GET", "/source/Maint:0/_meta", asBob, ""), want(200, `<project name="Maint:0" kind="maintenance_incident">`,
			`<person userid="alice" role="maintainer">`, `<person userid="alice" role="bugowner">`, `<group groupid="pocket-reviewers" role="reviewer">`,
			"<build>\n    <disable></disable>\n  </build>", "<publish>\n    <disable></disable>\n  </publish>")},
		{"bob may not", req("POST", "/source/Maint?cmd=createmaintenanceincident", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"unknown project", req("POST", "/source/nope?cmd=createmaintenanceincident", asAlice, ""), code(404, "unknown_project")},
		{"not a maintenance project", req("POST", "/source/home:alice?cmd=createmaintenanceincident", asAlice, ""), code(400, "incident_has_no_maintenance_project")},
		{"flag Maint", req("POST", "/source/Maint/_attribute", asAdmin, attrs("OBS:MaintenanceProject")), ok},
		{"through POST /source, noaccess", req("POST", "/source?cmd=createmaintenanceincident&noaccess=1", asAlice, ""), want(200, `<data name="targetproject">Maint:1</data>`)},
		{"hidden from bob", req("GET", "/source/Maint:1/_meta", asBob, ""), code(404, "unknown_project")},
		{"bob through POST /source", req("POST", "/source?cmd=createmaintenanceincident", asBob, ""), code(403, "modify_project_no_permission")},
		{"deleted incidents keep their number", req("DELETE", "/source/Maint:1", asAlice, ""), ok},
		{"next", req("POST", "/source/Maint?cmd=createmaintenanceincident", asAlice, ""), want(200, `<data name="targetproject">Maint:2</data>`)},
		{"without credentials", req("POST", "/source?cmd=createmaintenanceincident", nil, ""), apitest.Expect{Status: 401}},
	})
}

// TestPatchinfo: createpatchinfo and updatepatchinfo, and the issues collected from .changes.
func TestPatchinfo(t *testing.T) {
	e := newEnv(t)
	p := "/source/Maint:0"
	e.run(t, []scenario{
		{"maintenance project", req("PUT", "/source/Maint/_meta", asAdmin, maintMeta), ok},
		{"incident", req("POST", "/source/Maint?cmd=createmaintenanceincident", asAlice, ""), ok200},
		{"a package", req("PUT", p+"/x/_meta", asAlice, `<package name="x"><title/><description/></package>`), ok},
		{"its changes", req("PUT", p+"/x/x.changes", asAlice, "- fix pocket#12 and pocket#7\n"), ok200},
		{"create", req("POST", p+"?cmd=createpatchinfo&comment=Fix+x%0Amore+words", asAlice, ""), want(200, `<status code="ok">`,
			`<data name="targetproject">Maint:0</data>`, `<data name="targetpackage">patchinfo</data>`)},
		{"the patchinfo", req("GET", p+"/patchinfo/_patchinfo", asBob, ""), want(200, `<patchinfo incident="0">`,
			`<issue tracker="pocket" id="12"></issue>`, `<issue tracker="pocket" id="7"></issue>`, "<category>recommended</category>",
			"<rating>low</rating>", "<summary>Fix x</summary>", "<description>Fix x\nmore words</description>", "<packager>alice</packager>")},
		{"its meta", req("GET", p+"/patchinfo/_meta", asBob, ""), want(200, "<title>Patchinfo</title>", "<useforbuild>")},
		{"again", req("POST", p+"?cmd=createpatchinfo", asAlice, ""), code(400, "patchinfo_file_exists")},
		{"force", req("POST", p+"?cmd=createpatchinfo&force=1&comment=again", asAlice, ""), ok200},
		{"force onto a package that is no patchinfo", req("POST", p+"?cmd=createpatchinfo&name=x&force=1", asAlice, ""), code(400, "package_already_exists")},
		{"bob may not", req("POST", p+"?cmd=createpatchinfo&name=other", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"bad name", req("POST", p+"?cmd=createpatchinfo&name=a/b", asAlice, ""), code(400, "invalid_package_name")},
		{"unknown project", req("POST", "/source/nope?cmd=createpatchinfo", asAlice, ""), code(404, "unknown_project")},
		{"more changes", req("PUT", p+"/x/x.changes", asAlice, "- fix pocket#12 and pocket#7\n- and pocket#30\n"), ok200},
		{"update", req("POST", p+"/patchinfo?cmd=updatepatchinfo", asAlice, ""), ok},
		{"the new issue", req("GET", p+"/patchinfo/_patchinfo", asBob, ""), want(200, `<issue tracker="pocket" id="30"></issue>`, "<summary>again</summary>")},
		{"update by bob", req("POST", p+"/patchinfo?cmd=updatepatchinfo", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"update of a package that is no patchinfo", req("POST", p+"/x?cmd=updatepatchinfo", asAlice, ""), code(400, "illegal_request", "not a patchinfo")},
		{"update of an unknown package", req("POST", p+"/nope?cmd=updatepatchinfo", asAlice, ""), code(404, "unknown_package")},
	})
}

// TestBranchByAttribute: POST /source?cmd=branch branches every package carrying
// OBS:Maintained (devel:tools/pocket-cli in the demo world) into one project.
func TestBranchByAttribute(t *testing.T) {
	e := newEnv(t)
	target := "/source/home:bob:branches:OBS_Maintained"
	e.run(t, []scenario{
		{"without credentials", req("POST", "/source?cmd=branch", nil, ""), apitest.Expect{Status: 401}},
		{"dry run", req("POST", "/source?cmd=branch&dryrun=1", asBob, ""), want(200, `<collection>`,
			`<package project="devel:tools" package="pocket-cli">`, `<target project="home:bob:branches:OBS_Maintained" package="pocket-cli.devel_tools">`)},
		{"nothing made by the dry run", req("GET", target+"/_meta", asBob, ""), code(404, "unknown_project")},
		{"branch", req("POST", "/source?cmd=branch", asBob, ""), want(200, `<status code="ok">`,
			`<data name="targetproject">home:bob:branches:OBS_Maintained</data>`)},
		{"the branch project", req("GET", target+"/_meta", asBob, ""), want(200, `<person userid="bob" role="maintainer">`,
			`<repository name="devel_tools">`, `<path project="devel:tools" repository="standard">`)},
		{"the branched package", req("GET", target, asBob, ""), want(200, `<entry name="pocket-cli.devel_tools">`)},
		{"its link", req("GET", target+"/pocket-cli.devel_tools/_link", asBob, ""), want(200, `project="devel:tools"`, `package="pocket-cli"`)},
		{"again", req("POST", "/source?cmd=branch", asBob, ""), code(400, "double_branch_package")},
		{"a package name", req("POST", "/source?cmd=branch&package=pocket-cli", asBob, ""), want(200, `home:bob:branches:OBS_Maintained:pocket-cli`)},
		{"a name nobody carries", req("POST", "/source?cmd=branch&package=nope", asBob, ""), code(404, "not_found", "no packages found")},
		{"an unknown attribute", req("POST", "/source?cmd=branch&attribute=OBS:Nope", asBob, ""), code(404, "unknown_attribute_type")},
		{"a bad attribute", req("POST", "/source?cmd=branch&attribute=nope", asBob, ""), code(400, "invalid_attribute")},
		{"into someone else's project", req("POST", "/source?cmd=branch&target_project=home:alice", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"into a project bob may not create", req("POST", "/source?cmd=branch&target_project=devel:bob", asBob, ""), code(403, "create_project_no_permission")},
		{"a bad target", req("POST", "/source?cmd=branch&target_project=a::b", asBob, ""), code(400, "invalid_project_name")},
		{"from a request", req("POST", "/source?cmd=branch&request=1", asBob, ""), code(400, "illegal_request", "request")},
		{"noaccess", req("POST", "/source?cmd=branch&target_project=home:alice:mb&noaccess=1", asAlice, ""), ok200},
		{"hidden", req("GET", "/source/home:alice:mb/_meta", asBob, ""), code(404, "unknown_project")},
		{"unsupported root command", req("POST", "/source?cmd=frob", asAlice, ""), code(400, "illegal_request", "unsupported POST command frob")},
		{"no command", req("POST", "/source", asAlice, ""), code(400, "missing_parameter")},
	})
}

// TestInstantiate: cmd=instantiate makes a project's own copy of a package it inherits
// through a project link.
func TestInstantiate(t *testing.T) {
	e := newEnv(t)
	inst := "/source/home:alice:inst"
	e.run(t, []scenario{
		{"a project linking devel:tools", req("PUT", inst+"/_meta", asAlice,
			`<project name="home:alice:inst"><title/><description/><link project="devel:tools"/></project>`), ok},
		{"bob may not", req("POST", inst+"/pocket-cli?cmd=instantiate", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"not inherited", req("POST", inst+"/nope?cmd=instantiate", asAlice, ""), code(404, "unknown_package")},
		{"unknown project", req("POST", "/source/nope/pocket-cli?cmd=instantiate", asAlice, ""), code(404, "unknown_project")},
		{"instantiate", req("POST", inst+"/pocket-cli?cmd=instantiate&makeoriginolder=1", asAlice, ""), ok},
		{"its own now", req("GET", inst+"/pocket-cli/_history", asBob, ""), want(200, `<revision rev="1" vrev="2">`, "<comment>initialize package</comment>")},
		{"the files", req("GET", inst+"/pocket-cli/pocket-cli.spec", asBob, ""), want(200, "Name:")},
		{"the origin is older", req("GET", "/source/devel:tools/pocket-cli/_history", asBob, ""), want(200, `<revision rev="4" vrev="3">`)},
		{"again", req("POST", inst+"/pocket-cli?cmd=instantiate", asAlice, ""), code(400, "package_exists")},
	})
}

// TestCollectBuildEnv: cmd=collectbuildenv's refusals (the collecting itself is buildsvc's
// TestCollectBuildEnv, where a build ran).
func TestCollectBuildEnv(t *testing.T) {
	e := newEnv(t)
	x := "/source/home:alice/x"
	e.run(t, []scenario{
		{"a package", req("PUT", x+"/_meta", asAlice, pkgMeta), ok},
		{"parameters required", req("POST", x+"?cmd=collectbuildenv&oproject=devel:tools", asAlice, ""), code(400, "missing_parameter")},
		{"bob may not", req("POST", x+"?cmd=collectbuildenv&oproject=devel:tools&opackage=pocket-cli", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"unknown origin project", req("POST", x+"?cmd=collectbuildenv&oproject=nope&opackage=pocket-cli", asAlice, ""), code(404, "unknown_project")},
		{"unknown origin package", req("POST", x+"?cmd=collectbuildenv&oproject=devel:tools&opackage=nope", asAlice, ""), code(404, "unknown_package")},
		{"unknown package", req("POST", "/source/home:alice/nope?cmd=collectbuildenv&oproject=devel:tools&opackage=pocket-cli", asAlice, ""), code(404, "unknown_package")},
		{"nothing built", req("POST", x+"?cmd=collectbuildenv&oproject=devel:tools&opackage=pocket-cli", asAlice, ""), code(404, "not_found", "no build environment")},
	})
}

// TestMaintenanceOddInput: odd names, parameters and bodies on the release, maintenance and
// channel commands answer with a 4xx status document, never a 500.
func TestMaintenanceOddInput(t *testing.T) {
	e := newEnv(t)
	for _, s := range []scenario{
		{"maintenance project", req("PUT", "/source/Maint/_meta", asAdmin, maintMeta), ok},
		{"upd", req("PUT", "/source/home:alice:upd/_meta", asAlice, updMeta), ok},
		{"rel", req("PUT", "/source/home:alice:rel/_meta", asAlice, relMeta), ok},
	} {
		e.run(t, []scenario{s})
	}
	odd := []string{"", "%00", "..", "a%2Fb", "-", "home:alice:upd", strings.Repeat("x", 300), "\xff"}
	projects := []string{"Maint", "home:alice:rel", "home:alice", "nope", "%00", strings.Repeat("y", 300)}
	for _, p := range projects {
		for _, v := range odd {
			for _, q := range []string{
				"?cmd=release&repository=" + v, "?cmd=release&setrelease=" + v, "?cmd=release&target_project=" + v + "&target_repository=" + v + "&repository=standard",
				"?cmd=release&targetproject=" + v + "&targetrepository=" + v + "&arch=" + v,
				"?cmd=createmaintenanceincident&noaccess=" + v, "?cmd=createpatchinfo&name=" + v + "&comment=" + v + "&force=" + v,
				"?cmd=addchannels&mode=" + v, "?cmd=modifychannels&mode=" + v, "?cmd=copy&oproject=" + v + "&withbinaries=1&makeolder=1&resign=1",
			} {
				checkNo500(t, e, req("POST", "/source/"+p+q, asAlice, ""))
				checkNo500(t, e, req("POST", "/source/"+p+q, asAdmin, ""))
			}
			for _, q := range []string{"?cmd=release&setrelease=" + v, "?cmd=updatepatchinfo", "?cmd=instantiate&makeoriginolder=" + v,
				"?cmd=enablechannel", "?cmd=collectbuildenv&oproject=" + v + "&opackage=" + v} {
				checkNo500(t, e, req("POST", "/source/"+p+"/"+v+q, asAlice, ""))
				checkNo500(t, e, req("POST", "/source/"+p+"/x"+q, asAlice, ""))
			}
			for _, b := range []string{"", "<", "<channel/>", `<channel><binaries><binary/></binaries></channel>`, strings.Repeat("<a>", 3000), "\xff\xfe",
				`<!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]><channel>&x;</channel>`} {
				checkNo500(t, e, req("POST", "/source/"+p+"/x?cmd=importchannel&target_project="+v+"&target_repository="+v, asAlice, b))
			}
			checkNo500(t, e, req("POST", "/source?cmd=branch&attribute="+v+"&package="+v+"&target_project="+v+"&update_project_attribute="+v, asAlice, ""))
			checkNo500(t, e, req("POST", "/source?cmd=branch&dryrun=1&package="+v, asAlice, ""))
			checkNo500(t, e, req("POST", "/source?cmd=createmaintenanceincident&noaccess="+v, asAlice, ""))
		}
	}
}
