package buildapi

import "testing"

const channelDoc = `<channel>
  <target project="home:alice:upd" repository="update"/>
  <binaries project="devel:tools" repository="standard" arch="x86_64">
    <binary name="pocket-cli" package="pocket-cli" supportstatus="l3"/>
  </binaries>
</channel>`

// TestChannels: importchannel, addchannels, modifychannels and enablechannel.
func TestChannels(t *testing.T) {
	e := newEnv(t)
	ch, inc := "/source/home:alice:chan", "/source/home:alice:inc"
	e.run(t, []scenario{
		{"update project", req("PUT", "/source/home:alice:upd/_meta", asAlice, updMeta), ok},
		{"channel project", req("PUT", ch+"/_meta", asAlice, `<project name="home:alice:chan"><title/><description/></project>`), ok},
		{"channel package", req("PUT", ch+"/Pocket-Tools/_meta", asAlice, `<package name="Pocket-Tools"><title>Tools</title><description/></package>`), ok},
		{"import by bob", req("POST", ch+"/Pocket-Tools?cmd=importchannel", asBob, channelDoc), code(403, "cmd_execution_no_permission")},
		{"import a broken channel", req("POST", ch+"/Pocket-Tools?cmd=importchannel", asAlice, "<channel/>"), code(400, "validation_failed", "binaries")},
		{"import not XML", req("POST", ch+"/Pocket-Tools?cmd=importchannel", asAlice, "<"), code(400, "validation_failed")},
		{"import to an unknown target", req("POST", ch+"/Pocket-Tools?cmd=importchannel&target_project=home:alice:upd&target_repository=nope", asAlice, channelDoc), code(404, "unknown_repository")},
		{"import to an unknown package", req("POST", ch+"/nope?cmd=importchannel", asAlice, channelDoc), code(404, "unknown_package")},
		{"import", req("POST", ch+"/Pocket-Tools?cmd=importchannel", asAlice, channelDoc), ok},
		{"the channel", req("GET", ch+"/Pocket-Tools/_channel", asBob, ""), want(200, `<target project="home:alice:upd" repository="update">`,
			`<binary name="pocket-cli" package="pocket-cli" supportstatus="l3">`)},
		{"a project with a branch of pocket-cli", req("POST", "/source/devel:tools/pocket-cli?cmd=branch&target_project=home:alice:inc", asAlice, ""), ok200},
		{"addchannels by bob", req("POST", inc+"?cmd=addchannels", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"addchannels on an unknown project", req("POST", "/source/nope?cmd=addchannels", asAlice, ""), code(404, "unknown_project")},
		{"addchannels with a bad mode", req("POST", inc+"?cmd=addchannels&mode=often", asAlice, ""), code(400, "invalid_parameter")},
		{"addchannels", req("POST", inc+"?cmd=addchannels", asAlice, ""), ok},
		{"the channel is branched in", req("GET", inc+"/Pocket-Tools/_link", asBob, ""), want(200, `project="home:alice:chan"`, `package="Pocket-Tools"`)},
		{"with its target's repository", req("GET", inc+"/_meta", asBob, ""), want(200, `<repository name="home_alice_upd">`,
			`<releasetarget project="home:alice:upd" repository="update"></releasetarget>`, `<path project="home:alice:upd" repository="update">`)},
		{"enabled there", req("GET", inc+"/Pocket-Tools/_meta", asBob, ""), want(200, `<enable repository="home_alice_upd">`)},
		{"modifychannels with a bad mode", req("POST", inc+"?cmd=modifychannels&mode=skip_disabled", asAlice, ""), code(400, "invalid_parameter")},
		{"modifychannels by bob", req("POST", inc+"?cmd=modifychannels", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"modifychannels", req("POST", inc+"?cmd=modifychannels&mode=enable_all", asAlice, ""), ok},
		{"enablechannel", req("POST", inc+"/Pocket-Tools?cmd=enablechannel", asAlice, ""), ok},
		{"enablechannel by bob", req("POST", inc+"/Pocket-Tools?cmd=enablechannel", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"enablechannel of a package that is no channel", req("POST", inc+"/pocket-cli?cmd=enablechannel", asAlice, ""), code(400, "illegal_request", "not a channel")},
	})
}
