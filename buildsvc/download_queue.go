package buildsvc

import (
	"path"
	"strings"
	"sync"
	"time"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Counting the downloads of /published. A file GET must stay a read: it only notes the download
// in memory (NoteDownload, a map update under a mutex, never an error), and the notes are
// written in one transaction per batch — by the clock job "build-download-counts" every tick
// (a second), and before every read of the counters, so a reader sees every download made
// before it. The cost is that the downloads of the last second are lost if the process dies;
// a download counter is a statistic, not a ledger. At most maxPendingDownloads distinct files
// wait; downloads of further files are not counted until the next batch is written.
//
// A note names the file by its path in the published tree; the batch resolves it to the
// counter's fields: the arch directory, the package that built the file (from the
// repository's binaries) and its name, version and release (name-version-release.arch.rpm).
// Only RPMs a package built are counted (not repodata or keys), with file type "rpm".

const maxPendingDownloads = 4096

// downloadQueue holds the downloads not written yet.
type downloadQueue struct {
	mu      sync.Mutex
	pending map[publishedHit]*pendingDownloads
}

type publishedHit struct{ project, repo, path string }

type pendingDownloads struct {
	n           int64
	first, last time.Time
}

// NoteDownload notes one download of the published file at p, now.
func (s *Service) NoteDownload(project, repo, p string) {
	if !strings.HasSuffix(p, ".rpm") {
		return
	}
	now := s.clk.Now().UTC()
	q := &s.downloads
	q.mu.Lock()
	defer q.mu.Unlock()
	hit := publishedHit{project, repo, p}
	d := q.pending[hit]
	if d == nil {
		if len(q.pending) >= maxPendingDownloads {
			return
		}
		// The note outlives the request: the HTTP layer's strings may share its buffers.
		hit = publishedHit{strings.Clone(project), strings.Clone(repo), strings.Clone(p)}
		if q.pending == nil {
			q.pending = map[publishedHit]*pendingDownloads{}
		}
		d = &pendingDownloads{first: now}
		q.pending[hit] = d
	}
	d.n++
	d.last = now
}

// FlushDownloads writes the downloads noted so far to their counters. A failed write is logged
// and its downloads dropped: counting never fails a download or a read.
func (s *Service) FlushDownloads() error {
	q := &s.downloads
	q.mu.Lock()
	pending := q.pending
	q.pending = nil
	q.mu.Unlock()
	if len(pending) == 0 {
		return nil
	}
	err := s.db.Write(func(tx kv.Tx) error {
		owners := map[[2]string]map[string]string{}
		for hit, d := range pending {
			f, ok := publishedCounter(tx, owners, hit)
			if !ok {
				continue
			}
			c, found, err := buildstore.GetDownloadStat(tx, f)
			if err != nil {
				return err
			}
			if !found {
				c.Created = d.first
			}
			c.Count += d.n
			if d.last.After(c.Counted) {
				c.Counted = d.last
			}
			if err := buildstore.PutDownloadStat(tx, c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		s.log.Warn("download counters not written", "files", len(pending), "err", err)
	}
	return nil
}

// publishedCounter names the counter of a published file; owners caches, per project and
// repository, which package built each file name.
func publishedCounter(tx kv.Tx, owners map[[2]string]map[string]string, hit publishedHit) (buildstore.DownloadFile, bool) {
	dir, file := path.Split(hit.path)
	dir = strings.Trim(dir, "/")
	name, version, release, _, ok := SplitRPMName(file) // search_binaries.go
	if !ok || dir == "" || strings.Contains(dir, "/") {
		return buildstore.DownloadFile{}, false
	}
	key := [2]string{hit.project, hit.repo}
	byFile, done := owners[key]
	if !done {
		byFile = map[string]string{}
		if p, err := buildstore.GetProject(tx, hit.project); err == nil {
			r, _ := p.Repository(hit.repo)
			for _, arch := range r.Archs {
				bins, _ := buildstore.Binaries(tx, buildstore.Where{Project: hit.project, Repository: hit.repo, Arch: arch}, "")
				for _, b := range bins {
					byFile[b.Filename] = b.Package
				}
			}
		}
		owners[key] = byFile
	}
	pkg, ok := byFile[file]
	if !ok {
		return buildstore.DownloadFile{}, false
	}
	return buildstore.DownloadFile{Project: hit.project, Package: pkg, Repository: hit.repo, Arch: dir,
		Filename: name, Filetype: "rpm", Version: version, Release: release}, true
}
