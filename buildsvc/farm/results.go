package farm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Reading the farm: results, statuses, binaries, logs, histories. Every read checks the
// project's read protection first (a hidden project is not found), as the source reads do;
// logs and source RPMs are sources, so they also need source access.

// ResultQuery filters GET /build/<project>/_result; empty lists match everything.
type ResultQuery struct {
	Packages, Repositories, Archs []string
	// LastBuild shows the last finished build's outcome instead of a job that is scheduled,
	// running or blocked (osc's lastbuild=1).
	LastBuild bool
	// Binaries asks for each package's binaries (view=binarylist).
	Binaries bool
}

// WhereResult is one <result> of a result list: a where's repository state and the statuses
// (and, asked for, binaries) of the packages picked. Of each status only what a result shows
// is read: Package, Code, Details and Last.
type WhereResult struct {
	Where    buildstore.Where
	Code     string // the repository's code
	Details  string
	Dirty    bool // the scheduler has not recalculated since the last change
	Statuses []buildstore.BuildStatus
	Binaries map[string][]buildstore.Binary // by package, when asked for
}

// Results answers GET /build/<project>/_result for who: the project's wheres in meta order
// (repositories, then archs), each with the picked packages' statuses.
func (s *Farm) Results(who buildstore.Person, project string, q ResultQuery) ([]WhereResult, error) {
	var out []WhereResult
	err := s.db.View(func(tx kv.Tx) error {
		p, err := buildsvc.ReadableProject(tx, who, project)
		if err != nil {
			return err
		}
		_, dirty := buildstore.Ticket(tx, project)
		for _, r := range p.Repositories {
			if !in(q.Repositories, r.Name) {
				continue
			}
			for _, arch := range r.Archs {
				if !in(q.Archs, arch) {
					continue
				}
				w := buildstore.Where{Project: project, Repository: r.Name, Arch: arch}
				res := WhereResult{Where: w, Code: "unknown", Dirty: dirty}
				if st, err := buildstore.GetRepoState(tx, w); err == nil {
					res.Code, res.Details = st.Code, st.Details
				} else {
					res.Dirty = true // never calculated yet
				}
				list, err := resultStatuses(tx, w)
				if err != nil {
					return err
				}
				for _, st := range list {
					if !in(q.Packages, st.Package) {
						continue
					}
					if q.LastBuild && st.Last != "" && (st.Code == buildstore.CodeScheduled || st.Code == buildstore.CodeBuilding || st.Code == buildstore.CodeBlocked) {
						st.Code, st.Details = st.Last, ""
					}
					res.Statuses = append(res.Statuses, st)
					if q.Binaries {
						bins, err := buildstore.Binaries(tx, w, st.Package)
						if err != nil {
							return err
						}
						if res.Binaries == nil {
							res.Binaries = map[string][]buildstore.Binary{}
						}
						res.Binaries[st.Package] = bins
					}
				}
				out = append(out, res)
			}
		}
		return nil
	})
	return out, err
}

// statusHead is the part of a stored BuildStatus a result shows: decoding only these fields
// (the JSON decoder skips the rest) keeps _result of a large project fast.
type statusHead struct {
	Package string `json:"package"`
	Code    string `json:"code"`
	Details string `json:"details"`
	Last    string `json:"last"`
}

// headCache keeps the statusHead of each stored status value seen, by the value's bytes: a
// status that has not changed since the last _result is not decoded again, which is most of
// them while osc results -w polls (and the long poll looks every 200 ms). Keyed by content, it
// can never be stale; it is emptied when it reaches headCacheMax entries.
var headCache = struct {
	sync.Mutex
	m map[string]statusHead
}{m: map[string]statusHead{}}

const headCacheMax = 50_000

// resultStatuses lists the statuses of w's packages by name, with the fields of statusHead.
func resultStatuses(tx kv.Tx, w buildstore.Where) ([]buildstore.BuildStatus, error) {
	b := tx.Bucket([]byte(store.BuildFarmStatus))
	if b == nil {
		return nil, nil
	}
	var out []buildstore.BuildStatus
	prefix := append(w.Key(), 0)
	headCache.Lock()
	defer headCache.Unlock()
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		h, ok := headCache.m[string(v)]
		if !ok {
			if err := json.Unmarshal(v, &h); err != nil {
				return nil, fmt.Errorf("build status %q: %w", k, err)
			}
			if len(headCache.m) >= headCacheMax {
				clear(headCache.m)
			}
			headCache.m[string(v)] = h
		}
		out = append(out, buildstore.BuildStatus{Package: h.Package, Code: h.Code, Details: h.Details, Last: h.Last})
	}
	return out, nil
}
