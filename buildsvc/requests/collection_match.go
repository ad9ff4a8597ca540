package requests

import (
	"slices"

	"github.com/pocketforge/pocketforge/store/buildstore"
)

// match decides whether r belongs to the collection, with the rules of requests_collection.go:
// the request's state and id, then some action (of an asked type) together with some review
// (none when r has no reviews) that satisfy the project, user and group filters at once.
func (q *collectionQuery) match(r buildstore.Request) bool {
	if len(q.states) > 0 && !q.states[r.State.Name] {
		return false
	}
	if q.ids != nil && !q.ids[r.ID] {
		return false
	}
	reviews := []*buildstore.Review{nil}
	if len(r.Reviews) > 0 {
		reviews = reviews[:0]
		for i := range r.Reviews {
			reviews = append(reviews, &r.Reviews[i])
		}
	}
	for i := range r.Actions {
		a := &r.Actions[i]
		if len(q.types) > 0 && !q.types[a.Type] {
			continue
		}
		for _, v := range reviews {
			if q.projectMatch(a, v) && q.involvedMatch(q.user, r, a, v) && q.involvedMatch(q.group, r, a, v) {
				return true
			}
		}
	}
	return false
}

// projectMatch is the project filter on one action and one review (v nil: none).
func (q *collectionQuery) projectMatch(a *buildstore.RequestAction, v *buildstore.Review) bool {
	p, k := q.f.Project, q.f.Package
	if p == "" {
		return true
	}
	at := func(project, pkg string) bool { return project == p && (k == "" || pkg == k) }
	switch {
	case q.role(RoleSource) && a.Source != nil && at(a.Source.Project, a.Source.Package):
		return true
	case q.role(RoleTarget) && a.Target != nil && at(a.Target.Project, a.Target.Package):
		return true
	}
	return q.projectReviews() && v != nil && slices.Contains(q.reviewStates, v.State) && at(v.ByProject, v.ByPackage)
}

// involvedMatch is the user or group filter (in nil: not given) on one action and one review.
func (q *collectionQuery) involvedMatch(in *involvement, r buildstore.Request, a *buildstore.RequestAction, v *buildstore.Review) bool {
	if in == nil {
		return true
	}
	if in.user && q.role(RoleCreator) && r.Creator == in.name {
		return true
	}
	if q.role(RoleMaintainer) && a.Target != nil && in.maintains(a.Target.Project, a.Target.Package) {
		return true
	}
	if !q.role(RoleReviewer) || v == nil || !slices.Contains(q.reviewStates, v.State) {
		return false
	}
	return (in.user && v.ByUser == in.name) || (v.ByGroup != "" && in.groups[v.ByGroup]) ||
		(v.ByProject != "" && in.maintains(v.ByProject, v.ByPackage))
}

// maintains reports whether the user or group maintains project, or package pkg of it.
func (in *involvement) maintains(project, pkg string) bool {
	return in.projects[project] || (pkg != "" && in.packages[[2]string{project, pkg}])
}
