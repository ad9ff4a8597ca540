package xpath

import "strings"

// table is what one root of the search may be asked about: OBS's engine maps every path of a
// predicate to a database column and refuses the others ("unable to evaluate 'key' for
// 'table'"); the same keys are taken here and evaluated on the root's XML document instead.
type table struct {
	name string          // OBS's table name, as its error message says it
	keys map[string]bool // the paths a predicate may compare or test
	// aliases are keys OBS maps to a column the document holds elsewhere: the key's path on
	// the document.
	aliases map[string]string
	// fold are the keys whose column OBS's MySQL schema gives a case-insensitive collation
	// (utf8_general_ci, utf8_unicode_ci): `=`, `!=`, starts-with and ends-with ignore case on
	// them. The others are utf8_bin — project, package, repository names and logins among
	// them — and compare exactly, as they do in OBS (`@name='Foo'` does not find foo).
	fold map[string]bool
	// lower are the keys of fold whose values the appliance writes from a vocabulary in lower
	// case (roles, request and review states): comparing the literal in lower case to them is
	// the same test, without lower-casing every value, and an index of the values answers it.
	lower map[string]bool
}

func keySet(keys string) map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(keys) {
		m[k] = true
	}
	return m
}

// tables are the roots of /search/<root>, with OBS 2.7's keys. Keys whose column has no place
// in the appliance's documents (a package's attribute_issue/…, products) are taken and match
// nothing, as a column that is empty would.
var tables = map[string]table{
	"package": {name: "packages", keys: keySet(`@project @name title description kind
		devel/@project devel/@package issue/@state issue/@name issue/@tracker issue/@change
		issue/owner/@email issue/owner/@login attribute_issue/@state attribute_issue/@name
		attribute_issue/@tracker attribute_issue/owner/@email attribute_issue/owner/@login
		person/@userid person/@role group/@groupid group/@role attribute/@name
		project/attribute/@name`),
		fold: keySet(`title description kind issue/@state issue/@name
		issue/@tracker issue/@change issue/owner/@email attribute_issue/@state
		attribute_issue/@name attribute_issue/@tracker attribute_issue/owner/@email person/@role
		group/@groupid group/@role attribute/@name project/attribute/@name`),
		lower: keySet(`person/@role group/@role`)},
	"project": {name: "projects", keys: keySet(`@name @kind title description
		maintenance/maintains/@project person/@userid person/@role group/@groupid group/@role
		repository/@name repository/path/@project repository/releasetarget/@trigger
		package/@name attribute/@name`),
		fold: keySet(`title description person/@role group/@groupid
		group/@role repository/releasetarget/@trigger attribute/@name`),
		lower: keySet(`person/@role group/@role`)},
	"repository": {name: "repositories", keys: keySet(`@project @name path/@project
		path/@repository targetproduct/@project targetproduct/@arch targetproduct/@name
		targetproduct/@baseversion targetproduct/@patchlevel targetproduct/@version`),
		fold: keySet(`targetproduct/@arch targetproduct/@name
		targetproduct/@baseversion targetproduct/@patchlevel targetproduct/@version`)},
	"person": {name: "users", keys: keySet(`@login @email @realname @state`),
		fold: keySet(`@email @realname`)},
	"issue": {name: "issues", keys: keySet(`@name @state @tracker owner/@email owner/@login`),
		fold: keySet(`@name @state @tracker owner/@email`)},
	"channel": {name: "channels", keys: keySet(`binary/@name binary/@binaryarch binary/@package
		binary/@supportstatus @package @project target/disabled target/updatefor/@project
		target/updatefor/@product`),
		fold: keySet(`binary/@name binary/@binaryarch binary/@package
		binary/@supportstatus target/updatefor/@product`)},
	"channel_binary": {name: "channel_binaries", keys: keySet(`@name @binaryarch @package
		@project @supportstatus target/disabled updatefor/@project updatefor/@product`),
		fold: keySet(`@name @binaryarch @package @supportstatus
		updatefor/@product`)},
	"released_binary": {name: "released_binaries", keys: keySet(`@name @version @release @arch
		disturl supportstatus updateinfo/@id updateinfo/@version operation modify/@time
		obsolete/@time repository/@project repository/@name publish/@time publish/@package
		updatefor/@project updatefor/@arch updatefor/@product updatefor/@baseversion
		updatefor/@patchlevel updatefor/@version product/@project product/@version
		product/@release product/@baseversion product/@patchlevel product/@name product/@arch
		product/@medium @medium`),
		fold: keySet(`@name @version @release @arch disturl
		supportstatus updateinfo/@id updateinfo/@version operation updatefor/@arch
		updatefor/@product updatefor/@baseversion updatefor/@patchlevel updatefor/@version
		product/@version product/@release product/@baseversion product/@patchlevel
		product/@name product/@arch product/@medium @medium`)},
	// The published binaries and patterns, which OBS's backend searches in its database of
	// published repositories rather than in the API's tables: the fields of its records (a
	// binary's versrel, which osc's --binaryversion asks for, included), and the repository's
	// expanded path. The backend names no table; these names are the appliance's.
	"published_binary": {name: "published_binaries", keys: keySet(`@name @version @release @versrel
		@arch @type @project @repository @package @filename @filepath @baseproject path/@project
		path/@repository`)},
	"published_pattern": {name: "published_patterns", keys: keySet(`@name @type @project @repository
		@filename @filepath @baseproject summary description path/@project path/@repository`)},
	"request": {name: "requests", keys: keySet(`@id @creator state/@name state/@who state/@when
		action/@type action/grouped/@id action/target/@project action/target/@package
		action/source/@project action/source/@package target/@project target/@package
		source/@project source/@package review/@by_user review/@by_group review/@by_project
		review/@by_package review/@state review/@when review/history/@when history/@when
		history/@who submit/target/@project submit/target/@package submit/source/@project
		submit/source/@package`),
		fold: keySet(`@creator state/@name state/@who action/target/@project
		action/target/@package action/source/@project action/source/@package review/@by_user
		review/@by_group review/@by_project review/@by_package review/@state`),
		lower: keySet(`state/@name review/@state`),
		// osc's submit searches once asked for the action's target and source without the
		// action; OBS reads them as the action's.
		aliases: map[string]string{"target": "action/target", "source": "action/source"},
	},
}

// known reports whether key is a key of t or leads to one (a path tested for existence, such
// as `review` or `devel`).
func (t table) known(key string) bool {
	if t.keys[key] {
		return true
	}
	for k := range t.keys {
		if strings.HasPrefix(k, key+"/") {
			return true
		}
	}
	return false
}
