package requests

import (
	"slices"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// How a collection is answered: the request index names the candidates of the most selective
// filters given (user, group, project, ids; else states or types), each candidate is checked
// against the states and types by index lookups, and only the survivors are read and matched
// exactly (collectionQuery.match). So a user's collection costs a few index seeks per project
// they maintain plus one read per request that concerns them, however many requests exist.

// involvement is what a user or a group has to do with requests: who they are, the groups a
// user is in, and where they (or those groups) are maintainers.
type involvement struct {
	name     string // a login, or a group's title
	user     bool
	groups   map[string]bool
	projects map[string]bool
	packages map[[2]string]bool
}

// newInvolvement gathers holder's maintainer roles from the role index; holders are a login
// and GroupHolder(title) of each group, or one group's GroupHolder.
func newInvolvement(tx kv.Tx, name string, user bool, holders []string) (*involvement, error) {
	in := &involvement{name: name, user: user, groups: map[string]bool{}, projects: map[string]bool{}, packages: map[[2]string]bool{}}
	for _, h := range holders {
		places, err := buildstore.RolePlaces(tx, h, buildstore.RoleMaintainer)
		if err != nil {
			return nil, err
		}
		for _, p := range places {
			if p.Package == "" {
				in.projects[p.Project] = true
			} else {
				in.packages[[2]string{p.Project, p.Package}] = true
			}
		}
	}
	return in, nil
}

// collectionQuery is a RequestFilter resolved against the store.
type collectionQuery struct {
	f            RequestFilter
	states       map[string]bool
	types        map[string]bool
	ids          map[uint64]bool
	reviewStates []string
	user, group  *involvement
}

func newCollectionQuery(tx kv.Tx, f RequestFilter) (*collectionQuery, error) {
	q := &collectionQuery{f: f, states: setOf(f.States), types: setOf(f.Types), reviewStates: f.ReviewStates}
	if len(q.reviewStates) == 0 {
		q.reviewStates = []string{buildstore.RequestNew}
	}
	if len(f.IDs) > 0 {
		q.ids = map[uint64]bool{}
		for _, id := range f.IDs {
			q.ids[id] = true
		}
	}
	if f.User != "" {
		p, err := buildstore.GetPerson(tx, f.User)
		if err != nil || p.State == buildstore.StateDeleted {
			return nil, fault.NotFound("not_found", "Couldn't find User with login = %s", f.User)
		}
		groups, err := buildstore.Groups(tx, p.Login)
		if err != nil {
			return nil, err
		}
		holders := []string{p.Login}
		for _, g := range groups {
			holders = append(holders, buildstore.GroupHolder(g.Title))
		}
		if q.user, err = newInvolvement(tx, p.Login, true, holders); err != nil {
			return nil, err
		}
		for _, g := range groups {
			q.user.groups[g.Title] = true
		}
	}
	if f.Group != "" {
		g, err := buildstore.GetGroup(tx, f.Group)
		if err != nil {
			return nil, buildsvc.NotFoundAs(err, "not_found")
		}
		if q.group, err = newInvolvement(tx, g.Title, false, []string{buildstore.GroupHolder(g.Title)}); err != nil {
			return nil, err
		}
		q.group.groups[g.Title] = true
	}
	return q, nil
}

func setOf(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, v := range list {
		m[v] = true
	}
	return m
}

// role reports whether role counts: every role does when none is named.
func (q *collectionQuery) role(role string) bool {
	return len(q.f.Roles) == 0 || slices.Contains(q.f.Roles, role)
}

// projectReviews reports whether the project filter's reviewer role applies: OBS looks at
// project reviews only when no states are asked or "review" is among them.
func (q *collectionQuery) projectReviews() bool {
	return q.role(RoleReviewer) && (len(q.states) == 0 || q.states[buildstore.RequestReview])
}

// candidates lists, ascending and each once, the ids of the requests the filters can match,
// from the index; all reports that no filter narrows them (only review states were given), so
// every request is a candidate.
func (q *collectionQuery) candidates(tx kv.Tx) (ids []uint64, all bool, err error) {
	var sets [][]uint64
	add := func(keys []indexRead) error {
		set, err := readIndex(tx, keys)
		sets = append(sets, set)
		return err
	}
	if q.f.Project != "" {
		if err := add(q.projectKeys()); err != nil {
			return nil, false, err
		}
	}
	for _, in := range []*involvement{q.user, q.group} {
		if in != nil {
			if err := add(q.involvedKeys(in)); err != nil {
				return nil, false, err
			}
		}
	}
	if q.ids != nil {
		sets = append(sets, sortedUnique(slices.Clone(q.f.IDs)))
	}
	if len(sets) == 0 {
		switch {
		case len(q.states) > 0:
			err = add(indexReads(buildstore.IndexState, q.f.States))
		case len(q.types) > 0:
			err = add(indexReads(buildstore.IndexType, q.f.Types))
		default:
			return nil, true, nil
		}
	}
	ids = sets[0]
	for _, s := range sets[1:] {
		ids = intersect(ids, s)
	}
	return ids, false, err
}

// prefilter keeps the candidates in one of the asked states and with an action of one of the
// asked types, by index lookups, so those that fail are never read.
func (q *collectionQuery) prefilter(tx kv.Tx, ids []uint64) []uint64 {
	out := ids[:0]
	for _, id := range ids {
		if indexedUnder(tx, buildstore.IndexState, q.f.States, id) && indexedUnder(tx, buildstore.IndexType, q.f.Types, id) {
			out = append(out, id)
		}
	}
	return out
}

// indexedUnder reports whether id is indexed under kind with one of values (none: no filter).
func indexedUnder(tx kv.Tx, kind string, values []string, id uint64) bool {
	if len(values) == 0 {
		return true
	}
	for _, v := range values {
		if buildstore.RequestIndexed(tx, buildstore.IndexKey(kind, v), id) {
			return true
		}
	}
	return false
}

// projectKeys are the index reads of the project filter's roles.
func (q *collectionQuery) projectKeys() []indexRead {
	var keys []indexRead
	p, k := q.f.Project, q.f.Package
	if k == "" {
		if q.role(RoleSource) {
			keys = append(keys, exact(buildstore.IndexSource, p))
		}
		if q.role(RoleTarget) {
			keys = append(keys, exact(buildstore.IndexTarget, p))
		}
		if q.projectReviews() {
			keys = append(keys, reviewsOfProject(p)...)
		}
		return keys
	}
	if q.role(RoleSource) {
		keys = append(keys, exact(buildstore.IndexSourcePackage, p, k))
	}
	if q.role(RoleTarget) {
		keys = append(keys, exact(buildstore.IndexTargetPackage, p, k))
	}
	if q.projectReviews() {
		keys = append(keys, exact(buildstore.IndexReviewPackage, p, k))
	}
	return keys
}

// involvedKeys are the index reads of a user's or group's roles.
func (q *collectionQuery) involvedKeys(in *involvement) []indexRead {
	var keys []indexRead
	if in.user && q.role(RoleCreator) {
		keys = append(keys, exact(buildstore.IndexCreator, in.name))
	}
	if q.role(RoleMaintainer) {
		for p := range in.projects {
			keys = append(keys, exact(buildstore.IndexTarget, p))
		}
		for pk := range in.packages {
			keys = append(keys, exact(buildstore.IndexTargetPackage, pk[0], pk[1]))
		}
	}
	if q.role(RoleReviewer) {
		if in.user {
			keys = append(keys, exact(buildstore.IndexReviewUser, in.name))
		}
		for g := range in.groups {
			keys = append(keys, exact(buildstore.IndexReviewGroup, g))
		}
		for p := range in.projects {
			keys = append(keys, reviewsOfProject(p)...)
		}
		for pk := range in.packages {
			keys = append(keys, exact(buildstore.IndexReviewPackage, pk[0], pk[1]))
		}
	}
	return keys
}

// indexRead is one read of the request index: the ids under one key, or under a prefix.
type indexRead struct {
	key    []byte
	prefix bool
}

func exact(kind string, value ...string) indexRead {
	return indexRead{key: buildstore.IndexKey(kind, value...)}
}

func indexReads(kind string, values []string) []indexRead {
	out := make([]indexRead, len(values))
	for i, v := range values {
		out[i] = exact(kind, v)
	}
	return out
}

// reviewsOfProject reads the reviews by project p and by any package of p: OBS matches a
// review's by_project whether or not it names a package.
func reviewsOfProject(p string) []indexRead {
	return []indexRead{exact(buildstore.IndexReviewProject, p),
		{key: buildstore.IndexKey(buildstore.IndexReviewPackage, p), prefix: true}}
}

// readIndex is the union of the reads' ids, ascending and each once.
func readIndex(tx kv.Tx, reads []indexRead) ([]uint64, error) {
	var ids []uint64
	for _, r := range reads {
		read := buildstore.RequestIDs
		if r.prefix {
			read = buildstore.RequestIDsUnder
		}
		got, err := read(tx, r.key)
		if err != nil {
			return nil, err
		}
		ids = append(ids, got...)
	}
	return sortedUnique(ids), nil
}

func sortedUnique(ids []uint64) []uint64 {
	slices.Sort(ids)
	return slices.Compact(ids)
}

// intersect is the ids in both ascending lists.
func intersect(a, b []uint64) []uint64 {
	var out []uint64
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}
