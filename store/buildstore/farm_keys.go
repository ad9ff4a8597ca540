package buildstore

import (
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The build farm's records. The farm builds each package of a project once per (repository,
// architecture) — a "where" — and keeps, per where and package, the status the scheduler
// decided (BuildStatus), the binaries and log of the build, its history; per where the
// repository's own state (RepoState); per (project, repository) the published tree. Keys are
// the names joined by 0x00, so all of a project, a repository or a where is one key prefix.

// Where is one repository and architecture of a project: where its packages build.
type Where struct {
	Project    string `json:"project"`
	Repository string `json:"repository"`
	Arch       string `json:"arch"`
}

// Key is where's key prefix: project 0x00 repository 0x00 arch.
func (w Where) Key() []byte { return []byte(w.Project + sep + w.Repository + sep + w.Arch) }

// String is "project/repository/arch", for logs and errors.
func (w Where) String() string { return w.Project + "/" + w.Repository + "/" + w.Arch }

// sub is where's key, 0x00, then parts joined by 0x00.
func (w Where) sub(parts ...string) []byte {
	return append(append(w.Key(), sep...), strings.Join(parts, sep)...)
}

// projectPrefix is the key prefix of everything of a project in a farm bucket.
func projectPrefix(project string) []byte { return []byte(project + sep) }

// MarkDirty queues project for the scheduler: its sources, metas or configuration changed, so
// every build status of it is recalculated. Every write of a project, package or revision
// calls it in its own transaction (PutProject, PutPackage, Commit, deletes), so no change can
// be missed. The queue entry is a ticket (a sequence number): the scheduler takes a project off
// the queue only with the ticket it read, so a change made while it worked keeps it queued.
func MarkDirty(tx kv.Tx, project string) error {
	b, err := store.Bucket(tx, store.BuildFarmDirty)
	if err != nil {
		return err
	}
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	return b.Put([]byte(project), store.Itob(seq))
}

// DirtyProjects lists the queued projects by name with their tickets.
func DirtyProjects(tx kv.Tx) (names []string, tickets []uint64, err error) {
	b, err := store.Bucket(tx, store.BuildFarmDirty)
	if err != nil {
		return nil, nil, err
	}
	err = b.ForEach(func(k, v []byte) error {
		names = append(names, string(k))
		tickets = append(tickets, store.Btoi(v))
		return nil
	})
	return names, tickets, err
}

// Ticket returns project's queue ticket, and whether it waits for the scheduler (osc shows
// its results as outdated then).
func Ticket(tx kv.Tx, project string) (uint64, bool) {
	b := tx.Bucket([]byte(store.BuildFarmDirty))
	if b == nil {
		return 0, false
	}
	v := b.Get([]byte(project))
	return store.Btoi(v), v != nil
}

// ClearDirty takes project off the queue if its ticket is still ticket.
func ClearDirty(tx kv.Tx, project string, ticket uint64) error {
	b, err := store.Bucket(tx, store.BuildFarmDirty)
	if err != nil {
		return err
	}
	if v := b.Get([]byte(project)); v != nil && store.Btoi(v) == ticket {
		return b.Delete([]byte(project))
	}
	return nil
}

// sep joins the names in farm keys.
const sep = "\x00"

// farmBuckets are the buckets that hold a project's farm records under its key prefix.
var farmBuckets = []string{store.BuildFarmStatus, store.BuildFarmRepos, store.BuildFarmBinaries, store.BuildFarmFiles,
	store.BuildFarmLogs, store.BuildFarmHistory, store.BuildFarmJobHistory, store.BuildFarmPublished}

// PurgeFarm drops every farm record of project: its statuses, binaries, logs, histories and
// published tree with its entries of the name index (a deleted project has no builds).
func PurgeFarm(tx kv.Tx, project string) error {
	if err := unindexPublished(tx, projectPrefix(project)); err != nil {
		return err
	}
	for _, name := range farmBuckets {
		if err := store.DeletePrefix(tx, name, projectPrefix(project)); err != nil {
			return err
		}
	}
	return nil
}

// putProjectRecord stores p, keeps the role index in step and queues p for the scheduler: the
// one place a project record is written.
func putProjectRecord(tx kv.Tx, p Project) error {
	if err := MarkDirty(tx, p.Name); err != nil {
		return err
	}
	if err := indexProjectRoles(tx, p); err != nil {
		return err
	}
	return store.Put(tx, store.BuildProjects, []byte(p.Name), p)
}

// putPackageRecord stores k, keeps the role and issue indexes in step (a tombstone names no
// issues) and queues its project for the scheduler: the one place a package record is written.
func putPackageRecord(tx kv.Tx, k Package) error {
	if err := MarkDirty(tx, k.Project); err != nil {
		return err
	}
	if k.Deleted {
		if err := dropPackageIssues(tx, k.Project, k.Name); err != nil {
			return err
		}
	}
	if err := indexPackageRoles(tx, k.Project, k.Name, &k); err != nil {
		return err
	}
	return store.Put(tx, store.BuildPackages, packageKey(k.Project, k.Name), k)
}
