package buildstore

import (
	"errors"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The records behind /statistics (buildsvc statistics*.go holds the rules): a package's activity
// and last update, a project's last update, the ratings people give, and the download counters.

// Activity is what the service keeps to rank packages by activity: the index as of Updated, the
// package's last update (a commit or a meta write), and how many updates it had. A project's
// record (package "") keeps only Updated: when its meta last changed.
type Activity struct {
	Index   float64   `json:"index,omitempty"`
	Updated time.Time `json:"updated"`
	Updates int       `json:"updates,omitempty"`
}

func activityKey(project, pkg string) []byte { return []byte(project + sep + pkg) }

// GetActivity reads the activity record of project/pkg (pkg "": the project's); found is false
// when there is none (a record older than the statistics, or a project never changed).
func GetActivity(tx kv.Tx, project, pkg string) (a Activity, found bool, err error) {
	a, err = store.Get[Activity](tx, store.BuildActivity, activityKey(project, pkg))
	if errors.Is(err, store.ErrNotFound) {
		return Activity{}, false, nil
	}
	return a, err == nil, err
}

// PutActivity stores the activity record of project/pkg (pkg "": the project's).
func PutActivity(tx kv.Tx, project, pkg string, a Activity) error {
	return store.Put(tx, store.BuildActivity, activityKey(project, pkg), a)
}

// DropPackageStatistics removes the ratings and download counters of project/pkg: a package
// created anew under an old name starts without them, as the service's new record had none.
func DropPackageStatistics(tx kv.Tx, project, pkg string) error {
	prefix := []byte(project + sep + pkg + sep)
	if err := store.DeletePrefix(tx, store.BuildRatings, prefix); err != nil {
		return err
	}
	return store.DeletePrefix(tx, store.BuildDownloadStats, prefix)
}

// Rating is one person's score (1 to 5) for a project or package.
type Rating struct {
	Score int       `json:"score"`
	When  time.Time `json:"when"`
}

// RatingKey names a rated object and who rated it.
type RatingKey struct{ Project, Package, Login string }

func (k RatingKey) bytes() []byte { return []byte(k.Project + sep + k.Package + sep + k.Login) }

// PutRating stores (or replaces) a person's rating.
func PutRating(tx kv.Tx, k RatingKey, r Rating) error {
	return store.Put(tx, store.BuildRatings, k.bytes(), r)
}

// Ratings lists the ratings of project/pkg (pkg "": the project's) by login.
func Ratings(tx kv.Tx, project, pkg string) (map[string]Rating, error) {
	out := map[string]Rating{}
	prefix := []byte(project + sep + pkg + sep)
	err := store.Each(tx, store.BuildRatings, prefix, func(k []byte, r Rating) (bool, error) {
		out[string(k[len(prefix):])] = r
		return true, nil
	})
	return out, err
}

// EachRating calls fn with every rating, grouped by object (keys in order).
func EachRating(tx kv.Tx, fn func(k RatingKey, r Rating) error) error {
	return store.Each(tx, store.BuildRatings, nil, func(key []byte, r Rating) (bool, error) {
		parts := strings.SplitN(string(key), sep, 3)
		if len(parts) != 3 {
			return true, nil
		}
		return true, fn(RatingKey{Project: parts[0], Package: parts[1], Login: parts[2]}, r)
	})
}

// DownloadFile names one counted file, as the download redirector reports it.
type DownloadFile struct {
	Project    string `json:"project"`
	Package    string `json:"package"`
	Repository string `json:"repository"`
	Arch       string `json:"arch"`
	Filename   string `json:"filename"`
	Filetype   string `json:"filetype"`
	Version    string `json:"version"`
	Release    string `json:"release"`
}

func (f DownloadFile) key() []byte {
	return []byte(strings.Join([]string{f.Project, f.Package, f.Repository, f.Arch, f.Filename, f.Filetype, f.Version, f.Release}, sep))
}

// DownloadStat is a file's download counter: the count, when it was first counted and when last.
type DownloadStat struct {
	DownloadFile
	Count   int64     `json:"count"`
	Created time.Time `json:"created"`
	Counted time.Time `json:"counted"`
}

// GetDownloadStat reads the counter of f; found is false when f was never counted.
func GetDownloadStat(tx kv.Tx, f DownloadFile) (d DownloadStat, found bool, err error) {
	d, err = store.Get[DownloadStat](tx, store.BuildDownloadStats, f.key())
	if errors.Is(err, store.ErrNotFound) {
		return DownloadStat{DownloadFile: f}, false, nil
	}
	return d, err == nil, err
}

// PutDownloadStat stores a counter.
func PutDownloadStat(tx kv.Tx, d DownloadStat) error {
	return store.Put(tx, store.BuildDownloadStats, d.key(), d)
}

// EachDownloadStat calls fn with every counter, by project, package, repository, arch and file.
func EachDownloadStat(tx kv.Tx, fn func(d DownloadStat) error) error {
	return store.Each(tx, store.BuildDownloadStats, nil, func(_ []byte, d DownloadStat) (bool, error) {
		return true, fn(d)
	})
}
