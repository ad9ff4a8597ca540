package farm

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Reads of the farm behind the /build directory, status and history routes. Each goes through
// ReadableProject or ReadableWhere first, so a project hidden from who is not found, and a
// repository, arch or package named in a path that the project does not have is a 404 with
// the backend's code.

// FarmProjects lists, by name, the projects who may read that the farm holds results of (GET
// /build/).
func (s *Farm) FarmProjects(who buildstore.Person) ([]string, error) {
	var out []string
	err := s.db.View(func(tx kv.Tx) error {
		list, err := buildstore.Projects(tx)
		if err != nil {
			return err
		}
		for _, p := range list {
			if buildsvc.HiddenFrom(tx, who, p) {
				continue
			}
			wheres, err := buildstore.FarmWheres(tx, p.Name)
			if err != nil {
				return err
			}
			if len(wheres) > 0 {
				out = append(out, p.Name)
			}
		}
		return nil
	})
	return out, err
}

// FarmRepositories lists the repositories of project in meta order (GET /build/<project>).
func (s *Farm) FarmRepositories(who buildstore.Person, project string) ([]string, error) {
	var out []string
	err := s.db.View(func(tx kv.Tx) error {
		p, err := buildsvc.ReadableProject(tx, who, project)
		for _, r := range p.Repositories {
			out = append(out, r.Name)
		}
		return err
	})
	return out, err
}

// FarmArchs lists the architectures of a repository of project (GET /build/<p>/<r>).
func (s *Farm) FarmArchs(who buildstore.Person, project, repository string) ([]string, error) {
	var out []string
	err := s.db.View(func(tx kv.Tx) error {
		p, err := buildsvc.ReadableWhere(tx, who, buildstore.Where{Project: project, Repository: repository})
		if err != nil {
			return err
		}
		r, _ := p.Repository(repository)
		out = append(out, r.Archs...)
		return nil
	})
	return out, err
}

// FarmPackages lists the packages the farm knows in w, by name (GET /build/<p>/<r>/<a>).
func (s *Farm) FarmPackages(who buildstore.Person, w buildstore.Where) ([]string, error) {
	var out []string
	err := s.db.View(func(tx kv.Tx) error {
		if _, err := buildsvc.ReadableWhere(tx, who, w); err != nil {
			return err
		}
		list, err := buildstore.Statuses(tx, w)
		for _, st := range list {
			out = append(out, st.Package)
		}
		return err
	})
	return out, err
}

// PackageBuild is what the farm knows of one package in one where: its status (code "unknown"
// before the scheduler's first pass over it) and whether the scheduler has yet to recalculate
// it.
type PackageBuild struct {
	Status buildstore.BuildStatus
	Dirty  bool
}

// PackageStatus reads the build status of pkg in w (the _status, _reason and _jobstatus
// documents).
func (s *Farm) PackageStatus(who buildstore.Person, w buildstore.Where, pkg string) (PackageBuild, error) {
	var out PackageBuild
	err := s.db.View(func(tx kv.Tx) error {
		var err error
		out, err = packageBuild(tx, who, w, pkg)
		return err
	})
	return out, err
}

// packageBuild checks the where and the package for who and reads its status.
func packageBuild(tx kv.Tx, who buildstore.Person, w buildstore.Where, pkg string) (PackageBuild, error) {
	if _, err := buildsvc.ReadableWhere(tx, who, w); err != nil {
		return PackageBuild{}, err
	}
	if _, err := buildstore.GetPackage(tx, w.Project, pkg); err != nil {
		return PackageBuild{}, buildsvc.NotFoundAs(err, "unknown_package")
	}
	_, dirty := buildstore.Ticket(tx, w.Project)
	st, err := buildstore.GetStatus(tx, w, pkg)
	if errors.Is(err, store.ErrNotFound) {
		return PackageBuild{Status: buildstore.BuildStatus{Package: pkg, Code: "unknown"}, Dirty: true}, nil
	}
	return PackageBuild{Status: st, Dirty: dirty}, err
}

// BuildHistory lists the successful builds of pkg in w, oldest first (_history).
func (s *Farm) BuildHistory(who buildstore.Person, w buildstore.Where, pkg string) ([]buildstore.HistoryEntry, error) {
	var out []buildstore.HistoryEntry
	err := s.db.View(func(tx kv.Tx) error {
		if _, err := packageBuild(tx, who, w, pkg); err != nil {
			return err
		}
		var err error
		out, err = buildstore.History(tx, w, pkg)
		return err
	})
	return out, err
}

// JobHistoryQuery filters _jobhistory: packages and codes (empty: all), and Limit, the most
// recent entries kept (0: all).
type JobHistoryQuery struct {
	Packages, Codes []string
	Limit           int
}

// JobHistory lists the finished jobs of w that q picks, oldest first; with a limit, the last
// Limit of them, as the backend cuts the list.
func (s *Farm) JobHistory(who buildstore.Person, w buildstore.Where, q JobHistoryQuery) ([]buildstore.JobHistoryEntry, error) {
	if q.Limit < 0 {
		return nil, buildsvc.BadRequest("invalid_parameter", "limit must not be negative")
	}
	var out []buildstore.JobHistoryEntry
	err := s.db.View(func(tx kv.Tx) error {
		if _, err := buildsvc.ReadableWhere(tx, who, w); err != nil {
			return err
		}
		list, err := buildstore.JobHistory(tx, w)
		for _, e := range list {
			if in(q.Packages, e.Package) && in(q.Codes, e.Code) {
				out = append(out, e)
			}
		}
		return err
	})
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[len(out)-q.Limit:]
	}
	return out, err
}

// WorkerStatus is the farm at a glance (GET /build/_workerstatus): the workers, the jobs
// running on them, and the jobs waiting, per arch.
type WorkerStatus struct {
	Workers  int      // how many workers the farm has
	Idle     []string // idle workers' ids
	Building []RunningJob
	// Waiting and Blocked count scheduled and blocked packages per arch.
	Waiting, Blocked map[string]int
}

// RunningJob is a job on a worker.
type RunningJob struct {
	Where     buildstore.Where
	Package   string
	Worker    string
	StartTime time.Time
}

// WorkerStatus reads the farm's workers and queues as who sees them: jobs of projects hidden
// from who are left out (they still keep a worker busy).
func (s *Farm) WorkerStatus(who buildstore.Person) (WorkerStatus, error) {
	out := WorkerStatus{Workers: s.farmOptions().Workers, Waiting: map[string]int{}, Blocked: map[string]int{}}
	busy := map[string]bool{}
	err := s.db.View(func(tx kv.Tx) error {
		hidden := map[string]bool{}
		return buildstore.EachStatus(tx, func(w buildstore.Where, st buildstore.BuildStatus) bool {
			if st.Code == buildstore.CodeBuilding {
				busy[st.Worker] = true
			}
			h, seen := hidden[w.Project]
			if !seen {
				p, err := buildstore.GetProject(tx, w.Project)
				h = err != nil || buildsvc.HiddenFrom(tx, who, p)
				hidden[w.Project] = h
			}
			if h {
				return true
			}
			switch st.Code {
			case buildstore.CodeBuilding:
				out.Building = append(out.Building, RunningJob{Where: w, Package: st.Package, Worker: st.Worker, StartTime: st.StartTime})
			case buildstore.CodeScheduled:
				out.Waiting[w.Arch]++
			case buildstore.CodeBlocked:
				out.Blocked[w.Arch]++
			}
			return true
		})
	})
	for i := 1; i <= s.farmOptions().Workers; i++ {
		if id := s.workerName(i); !busy[id] {
			out.Idle = append(out.Idle, id)
		}
	}
	sort.Slice(out.Building, func(i, j int) bool { return out.Building[i].Worker < out.Building[j].Worker })
	return out, err
}

// Result long-polling (osc results -w): how often the farm is looked at, and how long a
// client waits at most before it hears the unchanged state (it asks again then).
const (
	resultPollEvery = 200 * time.Millisecond
	resultPollMax   = 60 * time.Second
)

// WaitResults answers GET /build/<project>/_result?oldstate=: it reads Results until hash of
// the answer differs from oldstate, ctx ends (the client went away, the server stops) or a
// minute has passed, and returns the last answer. hash is the caller's: the state covers what
// the client is shown, which only the renderer knows; it is called on every answer read, the
// one returned last, so a caller that renders in hash need not render again. An empty
// oldstate does not wait.
func (s *Farm) WaitResults(ctx context.Context, who buildstore.Person, project string, q ResultQuery, oldstate string, hash func([]WhereResult) string) ([]WhereResult, error) {
	deadline := time.NewTimer(resultPollMax)
	defer deadline.Stop()
	tick := time.NewTicker(resultPollEvery)
	defer tick.Stop()
	for {
		res, err := s.Results(who, project, q)
		if err != nil {
			return nil, err
		}
		if state := hash(res); oldstate == "" || state != oldstate {
			return res, nil
		}
		select {
		case <-ctx.Done():
			return res, nil
		case <-deadline.C:
			return res, nil
		case <-tick.C:
		}
	}
}
