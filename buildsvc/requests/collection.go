package requests

import (
	"errors"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The request collection (GET /request?view=collection), as OBS 2.7's BsRequestCollection
// defines it. Each filter given narrows the result, and they combine with AND: user AND
// project AND group AND states AND types AND ids. Within the user, group and project filters
// the roles combine with OR:
//   - user: creator (the request's creator), maintainer (an action targets a project, or a
//     package, where the user — or a group of theirs — has the maintainer role), reviewer (a
//     review in one of the review states by the user, by a group of theirs, or by a project or
//     package they maintain);
//   - group: maintainer and reviewer, as for a user, with the group's own roles;
//   - project (with package: that package of it): source, target, reviewer (a review in one of
//     the review states by the project, or the package); the reviewer role only counts when no
//     states are asked or "review" is among them.
// roles names the roles that count (none: all); reviewstates the review states (default new).
// As in OBS, the action conditions and the review conditions of one request are evaluated on
// one action and one review together (OBS joins the rows): types=submit&project=P matches a
// request whose submit action has P as source or target, not one that merely has a submit and
// some other action on P.
//
// Simplified or settled where OBS 2.7 is odd:
//   - A filter whose roles name none of its own roles (project=P&roles=creator) matches
//     nothing, as later OBS versions do; 2.7 dropped such a filter and so could answer every
//     request of the instance.
//   - Unknown states, review states, types and roles are refused with 400 invalid_parameter;
//     OBS compares them in SQL and silently matches nothing.
//   - Any signed-in person may list any user's requests; a request the caller may not read
//     (RequestVisible: every project it names is hidden from them) is left out.
// A call without a user, project, states, types, review states or ids is refused with OBS's
// 404 require_filter (a 404, as OBS answers it, although the request is what is wrong); a
// package or group alone does not count, as in OBS. There is no limit or offset in 2.7 (later
// versions added limit): the whole collection comes back, by ascending id.

// RequestFilter selects the requests of a collection (GET /request?view=collection).
type RequestFilter struct {
	User    string
	Group   string
	Project string
	// Package narrows the project filter to one package of it; alone it is no filter.
	Package      string
	States       []string
	Types        []string
	Roles        []string
	ReviewStates []string
	IDs          []uint64
}

// Request roles a collection filters by.
const (
	RoleCreator    = "creator"
	RoleMaintainer = "maintainer"
	RoleReviewer   = "reviewer"
	RoleSource     = "source"
	RoleTarget     = "target"
)

var (
	requestStates = []string{buildstore.RequestNew, buildstore.RequestReview, buildstore.RequestAccepted,
		buildstore.RequestDeclined, buildstore.RequestRevoked, buildstore.RequestSuperseded, buildstore.RequestDeleted}
	reviewStates   = append(slices.Clone(requestStates), buildstore.RequestObsoleted)
	collectionRole = []string{RoleCreator, RoleMaintainer, RoleReviewer, RoleSource, RoleTarget}
)

// RequestCollection lists the requests f selects that who may see, by ascending id. Without a
// user, project, states, types, review states or ids it answers OBS's 404 require_filter (a
// full listing is refused to spare the server); an unknown user or group is a 404 not_found.
func (s *Service) RequestCollection(who buildstore.Person, f RequestFilter) ([]buildstore.Request, error) {
	if f.User == "" && f.Project == "" && len(f.States) == 0 && len(f.Types) == 0 && len(f.ReviewStates) == 0 && len(f.IDs) == 0 {
		return nil, fault.NotFound("require_filter",
			"This call requires at least one filter, either by user, project or package or states or types or reviewstates")
	}
	if err := checkCollectionValues(f); err != nil {
		return nil, err
	}
	var out []buildstore.Request
	err := s.db.View(func(tx kv.Tx) error {
		q, err := newCollectionQuery(tx, f)
		if err != nil {
			return err
		}
		ids, all, err := q.candidates(tx)
		if err != nil {
			return err
		}
		keep := func(r buildstore.Request) bool { return q.match(r) && buildsvc.RequestVisible(tx, who, r) }
		if all {
			return buildstore.EachRequest(tx, func(r buildstore.Request) (bool, error) {
				if keep(r) {
					out = append(out, r)
				}
				return true, nil
			})
		}
		for _, id := range q.prefilter(tx, ids) {
			r, err := buildstore.GetRequest(tx, id)
			if errors.Is(err, store.ErrNotFound) {
				continue // an index entry without its record: nothing to show
			}
			if err != nil {
				return err
			}
			if keep(r) {
				out = append(out, r)
			}
		}
		return nil
	})
	return out, err
}

// checkCollectionValues refuses states, review states, types and roles the service does not know.
func checkCollectionValues(f RequestFilter) error {
	for _, c := range []struct {
		param string
		given []string
		known []string
		what  string
	}{
		{"states", f.States, requestStates, "request state"},
		{"reviewstates", f.ReviewStates, reviewStates, "review state"},
		{"types", f.Types, buildstore.ActionTypes, "request action type"},
		{"roles", f.Roles, collectionRole, "request role"},
	} {
		for _, v := range c.given {
			if !slices.Contains(c.known, v) {
				return buildsvc.BadRequest("invalid_parameter", "%s: unknown %s '%s' (known: %s)", c.param, c.what, v, strings.Join(c.known, ", "))
			}
		}
	}
	return nil
}

// RequestNumbers lists the numbers of every request who may see, ascending: GET /request
// without view=collection, which OBS keeps "for backward compatibility". Only the requests that
// name a project hidden from who are read, to check whether they name a visible one too.
func (s *Service) RequestNumbers(who buildstore.Person) ([]uint64, error) {
	var out []uint64
	err := s.db.View(func(tx kv.Tx) error {
		b, err := store.Bucket(tx, store.BuildRequests)
		if err != nil {
			return err
		}
		if err := b.ForEach(func(k, _ []byte) error {
			out = append(out, store.Btoi(k))
			return nil
		}); err != nil || who.IsAdmin() {
			return err
		}
		doubtful, err := requestsNamingHidden(tx, who)
		if err != nil || len(doubtful) == 0 {
			return err
		}
		gone := map[uint64]bool{}
		for _, id := range doubtful {
			if r, err := buildstore.GetRequest(tx, id); err == nil && !buildsvc.RequestVisible(tx, who, r) {
				gone[id] = true
			}
		}
		out = slices.DeleteFunc(out, func(id uint64) bool { return gone[id] })
		return nil
	})
	return out, err
}

// requestsNamingHidden lists the requests that name a project hidden from who, from the index.
func requestsNamingHidden(tx kv.Tx, who buildstore.Person) ([]uint64, error) {
	projects, err := buildstore.Projects(tx)
	if err != nil {
		return nil, err
	}
	var reads []indexRead
	for _, p := range projects {
		if buildsvc.HiddenFrom(tx, who, p) {
			reads = append(reads, exact(buildstore.IndexSource, p.Name), exact(buildstore.IndexTarget, p.Name))
			reads = append(reads, reviewsOfProject(p.Name)...)
		}
	}
	if len(reads) == 0 {
		return nil, nil
	}
	return readIndex(tx, reads)
}
