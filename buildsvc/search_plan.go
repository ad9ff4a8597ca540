package buildsvc

import (
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Candidates of a search: the records its plan's equalities (xpath.Query.Plan) allow, read
// from what the store already keys, so that osc's lookups after every co, ci and up read the
// requests of one package instead of all. Every candidate is still evaluated; a search whose
// plan has no equality the store answers exactly scans. Issue 16 adds indexes for the rest.

// requestIndexes are the request index kinds (buildstore.IndexKey) that answer an equality of
// a request search exactly: the request's document has the key with the value if and only if
// the index lists the request under it.
var requestIndexes = map[string]string{
	"state/@name":            buildstore.IndexState,
	"@creator":               buildstore.IndexCreator,
	"action/@type":           buildstore.IndexType,
	"action/target/@project": buildstore.IndexTarget,
	"action/source/@project": buildstore.IndexSource,
	"review/@by_user":        buildstore.IndexReviewUser,
}

// usable reports whether every equality of term has an index in kinds (values with a NUL
// cannot be index keys; no record holds one).
func usable(term []xpath.Eq, kinds map[string]string) bool {
	for _, eq := range term {
		if kinds[eq.Key] == "" || strings.ContainsRune(eq.Value, 0) {
			return false
		}
	}
	return len(term) > 0
}

// requestCandidates are the ids, ascending, that the usable terms of plan allow (each term's
// index entries together, intersected across terms); ok is false when no term is usable.
func requestCandidates(tx *bbolt.Tx, plan [][]xpath.Eq) (ids []uint64, ok bool, err error) {
	for _, term := range plan {
		if !usable(term, requestIndexes) {
			continue
		}
		var union []uint64
		for _, eq := range term {
			got, err := buildstore.RequestIDs(tx, buildstore.IndexKey(requestIndexes[eq.Key], eq.Value))
			if err != nil {
				return nil, false, err
			}
			union = append(union, got...)
		}
		slices.Sort(union)
		union = slices.Compact(union)
		if ok {
			union = slices.DeleteFunc(union, func(id uint64) bool { _, found := slices.BinarySearch(ids, id); return !found })
		}
		ids, ok = union, true
	}
	return ids, ok, nil
}

// plannedValues are the values of key that a matching record must have, when one term of plan
// is equalities on key alone (a package search's @project, a project search's @name); ok is
// false when no such term exists.
func plannedValues(plan [][]xpath.Eq, key string) (values []string, ok bool) {
	for _, term := range plan {
		if !usable(term, map[string]string{key: key}) {
			continue
		}
		var these []string
		for _, eq := range term {
			these = append(these, eq.Value)
		}
		slices.Sort(these)
		these = slices.Compact(these)
		if ok {
			these = slices.DeleteFunc(these, func(v string) bool { return !slices.Contains(values, v) })
		}
		values, ok = these, true
	}
	return values, ok
}
