package buildstore

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Build logs: per package and where, the log of the job running or last run ("cur") and, once
// a new job starts, the one before it ("last": what ?last=1 reads while a build runs). A
// running job's log grows line by line as the clock passes each line's time.

const (
	logCurrent = "cur"
	logLast    = "last"
)

// StartLog makes the log of pkg's new job in w empty, keeping the finished one before it as
// the last log.
func StartLog(tx kv.Tx, w Where, pkg string) error {
	b, err := store.Bucket(tx, store.BuildFarmLogs)
	if err != nil {
		return err
	}
	if cur := b.Get(w.sub(pkg, logCurrent)); cur != nil {
		if err := b.Put(w.sub(pkg, logLast), append([]byte(nil), cur...)); err != nil {
			return err
		}
	}
	return b.Put(w.sub(pkg, logCurrent), []byte{})
}

// AppendLog appends text to the log of pkg's job in w.
func AppendLog(tx kv.Tx, w Where, pkg string, text []byte) error {
	b, err := store.Bucket(tx, store.BuildFarmLogs)
	if err != nil {
		return err
	}
	cur := b.Get(w.sub(pkg, logCurrent))
	next := make([]byte, 0, len(cur)+len(text))
	return b.Put(w.sub(pkg, logCurrent), append(append(next, cur...), text...))
}

// Log returns the log of pkg's current (or last finished, last) job in w, valid only in tx,
// and whether there is one.
func Log(tx kv.Tx, w Where, pkg string, last bool) ([]byte, bool) {
	b := tx.Bucket([]byte(store.BuildFarmLogs))
	if b == nil {
		return nil, false
	}
	which := logCurrent
	if last {
		which = logLast
	}
	v := b.Get(w.sub(pkg, which))
	return v, v != nil
}

// DeleteLogs drops pkg's logs in w ("" : every package's).
func DeleteLogs(tx kv.Tx, w Where, pkg string) error {
	prefix := append(w.Key(), sep...)
	if pkg != "" {
		prefix = append(w.sub(pkg), sep...)
	}
	return store.DeletePrefix(tx, store.BuildFarmLogs, prefix)
}

// HistoryEntry is one finished successful build of a package (the _history document).
type HistoryEntry struct {
	Rev      string    `json:"rev"`
	SrcMD5   string    `json:"srcmd5"`
	VersRel  string    `json:"versrel"`
	Bcnt     int       `json:"bcnt"`
	Time     time.Time `json:"time"`
	Duration int       `json:"duration"` // seconds
}

// AddHistory appends e to pkg's build history in w.
func AddHistory(tx kv.Tx, w Where, pkg string, e HistoryEntry) error {
	b, err := store.Bucket(tx, store.BuildFarmHistory)
	if err != nil {
		return err
	}
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	return store.Put(tx, store.BuildFarmHistory, append(append(w.sub(pkg), sep...), store.Itob(seq)...), e)
}

// History lists pkg's build history in w, oldest first.
func History(tx kv.Tx, w Where, pkg string) ([]HistoryEntry, error) {
	var out []HistoryEntry
	err := store.Each(tx, store.BuildFarmHistory, append(w.sub(pkg), sep...), func(_ []byte, e HistoryEntry) (bool, error) {
		out = append(out, e)
		return true, nil
	})
	return out, err
}

// JobHistoryEntry is one finished job in a where (the _jobhistory document), whatever its
// outcome.
type JobHistoryEntry struct {
	Package   string    `json:"package"`
	Rev       string    `json:"rev"`
	SrcMD5    string    `json:"srcmd5"`
	VersRel   string    `json:"versrel"`
	Bcnt      int       `json:"bcnt"`
	ReadyTime time.Time `json:"readytime"`
	StartTime time.Time `json:"starttime"`
	EndTime   time.Time `json:"endtime"`
	Code      string    `json:"code"` // succeeded, failed
	WorkerID  string    `json:"workerid"`
	HostArch  string    `json:"hostarch"`
	Reason    string    `json:"reason"`
}

// AddJobHistory appends e to w's job history.
func AddJobHistory(tx kv.Tx, w Where, e JobHistoryEntry) error {
	b, err := store.Bucket(tx, store.BuildFarmJobHistory)
	if err != nil {
		return err
	}
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	return store.Put(tx, store.BuildFarmJobHistory, append(append(w.Key(), sep...), store.Itob(seq)...), e)
}

// JobHistory lists w's job history, oldest first.
func JobHistory(tx kv.Tx, w Where) ([]JobHistoryEntry, error) {
	var out []JobHistoryEntry
	err := store.Each(tx, store.BuildFarmJobHistory, append(w.Key(), sep...), func(_ []byte, e JobHistoryEntry) (bool, error) {
		out = append(out, e)
		return true, nil
	})
	return out, err
}
