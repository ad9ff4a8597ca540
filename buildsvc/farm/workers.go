package farm

import (
	"fmt"
	"sort"
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The simulated workers. Each clock tick, after the scheduler's passes, the farm finishes the
// jobs whose time is up, lets the logs of running jobs grow to where the clock has come, and
// hands scheduled jobs to free workers, oldest first. A job's whole course is fixed when it
// starts (its log, timed line by line, and its outcome, from the spec: see farm_job.go), and all
// of it lives in the store, so a restart — or a jump of the dev clock — resumes it.

// job is one scheduled or running build found by a worker scan.
type job struct {
	w  buildstore.Where
	st buildstore.BuildStatus
}

// Options size the simulated farm.
type Options struct {
	// Workers is how many jobs run at once (--build-workers).
	Workers int
	// BuildTime is how long a job runs by the clock (--build-time).
	BuildTime time.Duration
	// Host names this process's workers, "<Host>:<n>" ("": pocketforge). On a shared store every
	// node runs Workers workers of its own under its node id, claiming scheduled jobs in a write
	// transaction (startJob), so the nodes never start one job twice and never share a name.
	Host string
}

// WorkStep finishes due jobs, advances running logs and starts scheduled jobs at now.
func (s *Farm) WorkStep() error {
	_, err := s.workStep()
	return err
}

// workStep is WorkStep; it also reports whether it found any job scheduled or running.
func (s *Farm) workStep() (found bool, err error) {
	now := s.clk.Now()
	var running, waiting []job
	err = s.db.View(func(tx kv.Tx) error {
		return buildstore.EachStatus(tx, func(w buildstore.Where, st buildstore.BuildStatus) bool {
			switch st.Code {
			case buildstore.CodeBuilding:
				running = append(running, job{w, st})
			case buildstore.CodeScheduled:
				waiting = append(waiting, job{w, st})
			}
			return true
		})
	})
	if err != nil {
		return false, err
	}
	found = len(running)+len(waiting) > 0
	busy := map[string]bool{}
	for _, j := range running {
		if !now.Before(j.st.EndTime) {
			if err := s.finishJob(j, now); err != nil {
				return found, err
			}
			continue
		}
		busy[j.st.Worker] = true
		if err := s.advanceLog(j, now); err != nil {
			return found, err
		}
	}
	sort.Slice(waiting, func(i, j int) bool {
		a, b := waiting[i].st, waiting[j].st
		if !a.ReadyTime.Equal(b.ReadyTime) {
			return a.ReadyTime.Before(b.ReadyTime)
		}
		return a.Package < b.Package
	})
	for _, j := range waiting {
		worker := s.freeWorker(busy)
		if worker == "" {
			break
		}
		started, err := s.startJob(j, worker, now)
		if err != nil {
			return found, err
		}
		if started {
			busy[worker] = true
		}
	}
	return found, nil
}

// freeWorker names an idle worker of this process ("" when all are busy).
func (s *Farm) freeWorker(busy map[string]bool) string {
	for i := 1; i <= s.farmOptions().Workers; i++ {
		if name := s.workerName(i); !busy[name] {
			return name
		}
	}
	return ""
}

// workerName is the name of this process's worker i (1-based), as OBS names a worker: host:slot.
func (s *Farm) workerName(i int) string { return fmt.Sprintf("%s:%d", s.farmOptions().Host, i) }

// farmOptions are the farm's sizes with their defaults.
func (s *Farm) farmOptions() Options {
	o := s.opts
	if o.Workers <= 0 {
		o.Workers = 4
	}
	if o.BuildTime <= 0 {
		o.BuildTime = 8 * time.Second
	}
	if o.Host == "" {
		o.Host = "pocketforge"
	}
	return o
}

// sameJob reports whether st is still the job j found (not rescheduled, finished or aborted
// meanwhile).
func sameJob(st buildstore.BuildStatus, j job) bool {
	return st.Code == j.st.Code && st.SrcMD5 == j.st.SrcMD5 && st.DepsHash == j.st.DepsHash && st.StartTime.Equal(j.st.StartTime)
}

// startJob hands j to worker: the job's course is planned and its first log lines written.
func (s *Farm) startJob(j job, worker string, now time.Time) (bool, error) {
	started := false
	err := s.db.Write(func(tx kv.Tx) error {
		st, err := buildstore.GetStatus(tx, j.w, j.st.Package)
		if err != nil || !sameJob(st, j) {
			return nil
		}
		hist, err := buildstore.History(tx, j.w, st.Package)
		if err != nil {
			return err
		}
		st.Bcnt = 1
		for _, h := range hist {
			if h.SrcMD5 == st.SrcMD5 {
				st.Bcnt = max(st.Bcnt, h.Bcnt+1)
			}
		}
		st.Code, st.Worker, st.StartTime, st.EndTime = buildstore.CodeBuilding, worker, now, now.Add(s.farmOptions().BuildTime)
		st.Details = "building on " + worker
		st.Forced, st.LogShown = false, 0
		if err := buildstore.StartLog(tx, j.w, st.Package); err != nil {
			return err
		}
		st, err = s.showLog(tx, j.w, st, now)
		if err != nil {
			return err
		}
		started = true
		return buildstore.PutStatus(tx, j.w, st)
	})
	return started, err
}

// advanceLog appends the lines of j's log that the clock has reached.
func (s *Farm) advanceLog(j job, now time.Time) error {
	return s.db.Write(func(tx kv.Tx) error {
		st, err := buildstore.GetStatus(tx, j.w, j.st.Package)
		if err != nil || !sameJob(st, j) {
			return nil
		}
		next, err := s.showLog(tx, j.w, st, now)
		if err != nil || next.LogShown == st.LogShown {
			return err
		}
		return buildstore.PutStatus(tx, j.w, next)
	})
}

// showLog appends to the log of st's job the planned lines due by now.
func (s *Farm) showLog(tx kv.Tx, w buildstore.Where, st buildstore.BuildStatus, now time.Time) (buildstore.BuildStatus, error) {
	run, err := planJob(tx, w, st, s.farmOptions().BuildTime)
	if err != nil {
		return st, err
	}
	text := run.logUntil(now.Sub(st.StartTime))
	if len(text) <= st.LogShown {
		return st, nil
	}
	if err := buildstore.AppendLog(tx, w, st.Package, []byte(text[st.LogShown:])); err != nil {
		return st, err
	}
	st.LogShown = len(text)
	return st, nil
}

// FarmTick is the farm's clock job: jobs whose time is up finish (queueing what depends on
// them), the scheduler recalculates the queued projects (and publishes what finished), and
// free workers take the jobs scheduled.
//
// An idle farm — nothing queued for the scheduler, no job scheduled or running — stays idle
// until something is written: the clock alone moves nothing in it. So a tick that finds it
// idle notes the store's version, and the ticks after it cost one atomic load until the next
// commit (of any kind; a restore is one too). Before, every tick of an idle appliance decoded
// every build status twice: 5 % of the samples of a loaded appliance serving small GETs.
func (s *Farm) FarmTick() error { return s.tick(true) }

// WorkerTick is FarmTick for a node of a shared store that does not lead: its workers start,
// advance and finish jobs (finishing queues what depends on them, as the scheduler's next pass
// on the leading node reads), and nothing is scheduled or published here, so a project is
// published once, by one node.
func (s *Farm) WorkerTick() error { return s.tick(false) }

func (s *Farm) tick(schedule bool) error {
	v := s.db.Version()
	if s.farmIdle.Load() == v+1 { // +1: the zero value means "not known idle"
		return nil
	}
	if !s.keyReady.Load() { // what the farm writes is signed, with the global key at least
		if _, err := s.GlobalKey(); err != nil {
			return err
		}
		s.keyReady.Store(true)
	}
	before, err := s.workStep()
	if err != nil {
		return err
	}
	after := false
	if schedule {
		if err := s.SchedulePending(); err != nil {
			return err
		}
		if after, err = s.workStep(); err != nil {
			return err
		}
	}
	if before || after {
		return nil
	}
	var dirty []string
	if err := s.db.View(func(tx kv.Tx) (err error) { dirty, _, err = buildstore.DirtyProjects(tx); return }); err != nil {
		return err
	}
	if len(dirty) == 0 && s.db.Version() == v { // no commit since v: the scans saw the farm as of v
		s.farmIdle.Store(v + 1)
	}
	return nil
}
