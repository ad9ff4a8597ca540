package explorersvc

import (
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// WatchJob is the name the directory watcher runs under in the job runner's log.
const WatchJob = "explorer-spdx-dir"

// RegisterJobs adds the explorer's clock jobs to r: the results cache's refresh when a backend
// is in use (UseBackend), and the directory watcher when dir is set (--spdx-dir): every
// interval it brings the store in step with the product SBOMs under dir, logging to s.Log.
func (s *Service) RegisterJobs(r *jobs.Runner, dir string, interval time.Duration) {
	s.registerResults(r)
	if dir == "" {
		return
	}
	log := s.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	w := &watcher{dir: dir, every: interval, svc: s, log: log}
	r.Add(WatchJob, w.run)
}

// watcher follows --spdx-dir, the seed's cache daemon: every interval it imports the product
// SBOMs that are new or changed (by digest) and drops the products whose file went away. A
// file that does not parse is logged and retried next time; the product it would replace stays.
type watcher struct {
	dir    string
	every  time.Duration
	svc    *Service
	log    *slog.Logger
	mu     sync.Mutex
	last   time.Time
	failed map[string]string // path → mtime and size of a file that failed: not read again until it changes
}

// run is the clock job; it looks at the directory once per interval.
func (w *watcher) run(now time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.last.IsZero() && !now.Before(w.last) && now.Sub(w.last) < w.every {
		return nil // not due yet (a clock moved back makes it due: it would wait that long)
	}
	w.last = now
	return w.scan()
}

// scan imports what is new or changed under the directory and removes the products whose file
// went away.
func (w *watcher) scan() error {
	if w.failed == nil {
		w.failed = map[string]string{}
	}
	abs, err := filepath.Abs(w.dir)
	if err != nil {
		return err
	}
	files, err := FindSBOMs(abs)
	if err != nil {
		return err
	}
	present := map[string]bool{}
	for _, f := range files {
		present[f] = true
		st, err := os.Stat(f)
		if err != nil {
			continue
		}
		stamp := st.ModTime().String() + "/" + strconv.FormatInt(st.Size(), 10)
		if w.failed[f] == stamp {
			continue
		}
		in, err := LoadSBOM(f)
		if err != nil {
			w.failed[f] = stamp
			w.log.Warn("explorer: product file not imported", "file", f, "error", err)
			continue
		}
		delete(w.failed, f)
		res, err := w.svc.Import(in)
		if err != nil {
			w.log.Warn("explorer: import failed", "file", f, "error", err)
			continue
		}
		if !res.Skipped {
			w.log.Info("explorer: product imported", "file", f, "product", res.Product, "packages", res.Packages, "files", res.Files)
		}
	}
	var gone []string
	_ = w.svc.Store.View(func(tx kv.Tx) error {
		list, err := explorerstore.Products(tx)
		for _, p := range list {
			if strings.HasPrefix(p.Source, abs+string(filepath.Separator)) && !present[p.Source] {
				gone = append(gone, p.FullName)
			}
		}
		return err
	})
	for _, full := range gone {
		if err := w.svc.Remove(full); err != nil {
			return err
		}
		w.log.Info("explorer: product removed, its file is gone", "product", full)
	}
	return nil
}
