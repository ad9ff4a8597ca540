package search

import (
	"encoding/xml"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The binary searches: /search/published/binary/id and /search/published/pattern/id (what the
// farm published), /search/channel/binary[/id] (what channels list) and
// /search/released/binary[/id] (what cmd=release put into release targets). Each compiles
// `match` for its root (search/xpath: published_binary, published_pattern, channel_binary,
// released_binary, with the keys OBS takes there), builds one document per record — the
// record's fields as OBS's backend or database has them, whatever the answer shows — and
// evaluates the predicate on it. Equalities on @project and @name (xpath.Query.Plan) skip
// the records that cannot match before any document is built. What belongs to a project
// hidden from who is left out before it is counted.
//
// OBS answers the two published routes from its backend; these are /id routes only, so a
// blank match searches everything, as OBS's backend does for `*`.
// Simplified: the backend's default limit of 1000 (and its limited="true") is not applied;
// limit and offset page the matches as on the other search routes.

// searchScope is what a binary search may read: who's visibility of projects, looked up once
// per project.
type searchScope struct {
	tx      kv.Tx
	who     buildstore.Person
	visible map[string]bool
	// projects and names are the values the plan's equalities on @project and @name allow
	// (when byProject, byName).
	projects, names   []string
	byProject, byName bool
}

func newSearchScope(tx kv.Tx, who buildstore.Person, plan [][]xpath.Eq) *searchScope {
	sc := &searchScope{tx: tx, who: who, visible: map[string]bool{}}
	sc.projects, sc.byProject = plannedValues(plan, "@project")
	sc.names, sc.byName = plannedValues(plan, "@name")
	return sc
}

// sees reports whether project exists and is not hidden from who.
func (sc *searchScope) sees(project string) bool {
	if v, ok := sc.visible[project]; ok {
		return v
	}
	p, err := buildstore.GetProject(sc.tx, project)
	v := err == nil && (sc.who.IsAdmin() || !buildsvc.HiddenFrom(sc.tx, sc.who, p))
	sc.visible[project] = v
	return v
}

// allows reports whether a record of project called name may match the plan.
func (sc *searchScope) allows(project, name string) bool {
	return sc.allowsProject(project) && (!sc.byName || slices.Contains(sc.names, name))
}

// allowsProject reports whether a record of project may match the plan.
func (sc *searchScope) allowsProject(project string) bool {
	return !sc.byProject || slices.Contains(sc.projects, project)
}

// pageOf is one page of all, the matches in their order.
func pageOf[T any](all []T, page Page) Found[T] {
	p := pager[T]{page: page}
	for _, v := range all {
		p.add(v)
	}
	return p.found
}

// compileIDSearch compiles match for one of the /id-only routes (a blank match is `*`).
func compileIDSearch(root, match string) (*xpath.Query, error) {
	return compileSearch(root, match, true)
}

// pathDoc is an element of a repository's expanded path in a search document.
type pathDoc struct {
	Project    string `xml:"project,attr"`
	Repository string `xml:"repository,attr"`
}

// expandedPath is repository repo of project and the repositories its path reaches, in the
// order the farm resolves them (OBS's prpsearchpath); base is the last one's project (OBS's
// baseproject).
func expandedPath(tx kv.Tx, project, repo string) (path []pathDoc, base string) {
	chain, _ := buildsvc.RepoChain(tx, project, repo)
	for _, c := range chain {
		path = append(path, pathDoc{Project: c.Project, Repository: c.Repository})
	}
	if len(path) > 0 {
		base = path[len(path)-1].Project
	}
	return path, base
}

// publishedName is project/repo as the backend spells a published repository's directory
// (each ':' followed by '/': home:/alice/standard).
func publishedName(project, repo string) string {
	return strings.ReplaceAll(project, ":", ":/") + "/" + repo
}

// xmlText is the text of the first element called name in doc ("" when none or not XML).
func xmlText(doc []byte, name string) string {
	d := xml.NewDecoder(strings.NewReader(string(doc)))
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		if s, ok := tok.(xml.StartElement); ok && s.Name.Local == name {
			var text string
			if d.DecodeElement(&text, &s) != nil {
				return ""
			}
			return strings.TrimSpace(text)
		}
	}
}
