package buildstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Build status codes (the seed's eight, and blocked, which OBS and osc know too).
const (
	CodeSucceeded    = "succeeded"
	CodeFailed       = "failed"
	CodeDisabled     = "disabled"
	CodeExcluded     = "excluded"
	CodeScheduled    = "scheduled"
	CodeBuilding     = "building"
	CodeBroken       = "broken"
	CodeUnresolvable = "unresolvable"
	CodeBlocked      = "blocked"
	CodeLocked       = "locked"
)

// BuildStatus is what the farm knows of one package in one where: the scheduler's verdict
// (Code, Details), the job scheduled or running, and the last finished build.
type BuildStatus struct {
	Package string `json:"package"`
	Code    string `json:"code"`
	Details string `json:"details,omitempty"`

	// The sources and dependencies the verdict was reached for: the expanded srcmd5 and a
	// digest of the binaries the build would install. A change of either schedules a build.
	SrcMD5   string `json:"srcmd5,omitempty"`
	Rev      string `json:"rev,omitempty"`
	DepsHash string `json:"depshash,omitempty"`
	Version  string `json:"version,omitempty"`
	VRev     uint64 `json:"vrev,omitempty"` // the sources' version revision: the release's first part
	Bcnt     int    `json:"bcnt,omitempty"` // the job's build count for these sources: the release's second part

	Reason    Reason    `json:"reason"`
	ReadyTime time.Time `json:"readytime"`
	StartTime time.Time `json:"starttime"`
	EndTime   time.Time `json:"endtime"` // when the job running will end (by the clock)
	Worker    string    `json:"worker,omitempty"`

	// Last is the outcome of the last finished build (succeeded or failed, "" before the
	// first), kept while the next is scheduled or runs; its sources and dependencies are
	// LastSrcMD5 and LastDepsHash.
	// Forced asks for a build although nothing changed (osc rebuild); the job's start clears it.
	Forced bool `json:"forced,omitempty"`
	// Install lists the binaries the job installs (file names, in install order), for its log.
	Install []string `json:"install,omitempty"`
	// LogShown is how much of the job's planned log the clock has let through so far.
	LogShown int `json:"log_shown,omitempty"`

	Last         string    `json:"last,omitempty"`
	LastSrcMD5   string    `json:"last_srcmd5,omitempty"`
	LastDepsHash string    `json:"last_depshash,omitempty"`
	LastEnd      time.Time `json:"last_end"`
}

// Reason is why a build was scheduled (the _reason document).
type Reason struct {
	Explain   string          `json:"explain,omitempty"` // "source change", "meta change", "new build", …
	Time      time.Time       `json:"time"`
	OldSource string          `json:"oldsource,omitempty"`
	Changes   []PackageChange `json:"changes,omitempty"`
}

// PackageChange names a dependency whose binaries changed (<packagechange change= key=/>).
type PackageChange struct {
	Change string `json:"change"` // "md5sum", "added", "removed"
	Key    string `json:"key"`    // the binary's name
}

// PutStatus stores the status of s.Package in w. A status the store already holds is not
// written again: a scheduler pass stores every status of a where, most of them unchanged, and
// each bbolt Put dirties its page (a pass over 1,000 packages rewrote every status page).
func PutStatus(tx kv.Tx, w Where, s BuildStatus) error {
	b, err := store.Bucket(tx, store.BuildFarmStatus)
	if err != nil {
		return err
	}
	data, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("%s/%s: encode: %w", store.BuildFarmStatus, w.sub(s.Package), err)
	}
	key := w.sub(s.Package)
	if old := b.Get(key); old != nil && bytes.Equal(old, data) {
		return nil
	}
	return b.Put(key, data)
}

// StatusPackages lists the packages w holds a status for, by name, from the keys alone.
func StatusPackages(tx kv.Tx, w Where) ([]string, error) {
	var out []string
	err := EachRawStatus(tx, w, func(pkg string, _ []byte) error { out = append(out, pkg); return nil })
	return out, err
}

// EachRawStatus calls fn with the package and stored JSON of each status of w, by name; raw is
// valid only during tx (DecodeStatus decodes it).
func EachRawStatus(tx kv.Tx, w Where, fn func(pkg string, raw []byte) error) error {
	b, err := store.Bucket(tx, store.BuildFarmStatus)
	if err != nil {
		return err
	}
	prefix := append(w.Key(), sep...)
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if err := fn(string(k[len(prefix):]), v); err != nil {
			return err
		}
	}
	return nil
}

// DecodeStatus decodes a status's stored JSON.
func DecodeStatus(raw []byte) (BuildStatus, error) {
	var s BuildStatus
	err := json.Unmarshal(raw, &s)
	return s, err
}

// GetStatus reads the status of pkg in w (store.ErrNotFound before the first pass).
func GetStatus(tx kv.Tx, w Where, pkg string) (BuildStatus, error) {
	return store.Get[BuildStatus](tx, store.BuildFarmStatus, w.sub(pkg))
}

// Statuses lists the statuses of w's packages by name.
func Statuses(tx kv.Tx, w Where) ([]BuildStatus, error) {
	var out []BuildStatus
	err := store.Each(tx, store.BuildFarmStatus, append(w.Key(), sep...), func(_ []byte, s BuildStatus) (bool, error) {
		out = append(out, s)
		return true, nil
	})
	return out, err
}

// DeleteStatus drops the status of pkg in w (a package gone from the project, or a where gone
// from its meta).
func DeleteStatus(tx kv.Tx, w Where, pkg string) error {
	return store.Delete(tx, store.BuildFarmStatus, w.sub(pkg))
}

// DropPackageFarm drops everything of pkg in w: its status, binaries, logs and history (a
// package gone from its project, or a where gone from its meta).
func DropPackageFarm(tx kv.Tx, w Where, pkg string) error {
	if err := DeleteStatus(tx, w, pkg); err != nil {
		return err
	}
	if err := DeleteBinaries(tx, w, pkg); err != nil {
		return err
	}
	if err := DeleteLogs(tx, w, pkg); err != nil {
		return err
	}
	return store.DeletePrefix(tx, store.BuildFarmHistory, append(w.sub(pkg), sep...))
}

// EachStatus visits every status of every project's wheres, in key order, until fn returns
// false: what the workers scan for jobs to start, advance and finish.
func EachStatus(tx kv.Tx, fn func(w Where, s BuildStatus) bool) error {
	return store.Each(tx, store.BuildFarmStatus, nil, func(k []byte, s BuildStatus) (bool, error) {
		parts := bytes.SplitN(k, []byte(sep), 4)
		if len(parts) != 4 {
			return true, nil
		}
		return fn(Where{Project: string(parts[0]), Repository: string(parts[1]), Arch: string(parts[2])}, s), nil
	})
}

// FarmWheres lists the wheres of project that hold any status, in key order.
func FarmWheres(tx kv.Tx, project string) ([]Where, error) {
	b, err := store.Bucket(tx, store.BuildFarmStatus)
	if err != nil {
		return nil, err
	}
	var out []Where
	prefix := projectPrefix(project)
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		parts := bytes.SplitN(k, []byte(sep), 4)
		if len(parts) != 4 {
			continue
		}
		w := Where{Project: string(parts[0]), Repository: string(parts[1]), Arch: string(parts[2])}
		out = append(out, w)
		// Skip the rest of this where's packages.
		next := append(w.Key(), sep[0]+1)
		if k, _ = c.Seek(next); k == nil {
			break
		}
		c.Prev()
	}
	return out, nil
}

// RepoState is the state of one where's repository as a whole: the result code osc shows per
// repository (scheduling, blocked, building, finished, publishing, published, unpublished,
// broken, unknown), and when its binaries were last published.
type RepoState struct {
	Code      string    `json:"code"`
	Details   string    `json:"details,omitempty"`
	Published time.Time `json:"published"`
	// PublishedDigest is a digest of the binaries published last: a pass that finds the same
	// binaries publishes nothing.
	PublishedDigest string `json:"published_digest,omitempty"`
}

// PutRepoState stores w's repository state.
func PutRepoState(tx kv.Tx, w Where, s RepoState) error {
	return store.Put(tx, store.BuildFarmRepos, w.Key(), s)
}

// GetRepoState reads w's repository state (store.ErrNotFound before the first pass).
func GetRepoState(tx kv.Tx, w Where) (RepoState, error) {
	return store.Get[RepoState](tx, store.BuildFarmRepos, w.Key())
}

// ReleaseNumber is the release the job's binaries carry: the sources' version revision and the
// build count ("3.1"), as the backend numbers them.
func (s BuildStatus) ReleaseNumber() string {
	return fmt.Sprintf("%d.%d", max(s.VRev, 1), max(s.Bcnt, 1))
}

// VersRel is "version-release" of the job (the versrel of histories).
func (s BuildStatus) VersRel() string { return s.Version + "-" + s.ReleaseNumber() }

// FarmQuiet reports whether the farm has nothing left to do: no project waits for the
// scheduler and no job is scheduled, building or blocked. Tests and the demo loader run the
// clock until it holds.
func FarmQuiet(tx kv.Tx) bool {
	if names, _, _ := DirtyProjects(tx); len(names) > 0 {
		return false
	}
	busy := false
	_ = EachStatus(tx, func(_ Where, st BuildStatus) bool {
		switch st.Code {
		case CodeScheduled, CodeBuilding, CodeBlocked:
			busy = true
		}
		return !busy
	})
	return !busy
}
