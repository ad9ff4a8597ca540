package explorersvc

import (
	"sort"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/explorerstore"
)

// The three product searches: by package name, by file and by git reference.

// Found is what a package or git search found: the term as searched (surrounding spaces
// dropped) and the packages, sorted by name, product and architecture. A Found may be shared
// by every request that asks the same question of the same products: read it, never change it.
type Found struct {
	Term    string
	Entries []Entry
	// Memo keeps what the caller derives from this answer (its encoded body) while the
	// answer stays cached.
	Memo *Memo
}

// The kinds of question the answer cache tells apart.
const (
	askPackages byte = 'p'
	askFiles    byte = 'f'
	askVCS      byte = 'v'
)

// SearchPackages finds the packages whose name contains q, case-insensitively; every package,
// in name order, when q was not given (given false) or is empty.
func (s *Service) SearchPackages(q string, given bool) (Found, error) {
	if !given {
		q = ""
	} else {
		var err error
		if q, err = cleanTerm(q, 0); err != nil {
			return Found{}, err
		}
	}
	return cached(s, question{askPackages, given, q}, func() (Found, version, bool, error) {
		var list []Entry
		var v version
		exact := true
		var err error
		if q == "" { // every package: the name index is in name order already
			err = s.view(func(r *resolver) error {
				v = contentVersion(r.tx)
				return explorerstore.EachKey(r.tx, store.ExplorerByName, func(k string) error {
					list = append(list, r.entries(explorerstore.RefsUnder(r.tx, store.ExplorerByName, []string{k}))...)
					return nil
				})
			})
		} else {
			list, v, exact, err = s.search(func() ([]string, error) { return s.Index.Names(q) }, store.ExplorerByName)
		}
		return Found{Term: q, Entries: list, Memo: &Memo{}}, v, exact, err
	}, func(f Found) int { return len(f.Entries) })
}

// FileResult is one file a file search found: its path, the RPM that ships it, and the
// packages (of every product) built as that RPM.
type FileResult struct {
	Path    string
	RPM     string
	Entries []Entry
}

// FilesFound is what a file search found, sorted by path and RPM file name (a listing under a
// directory or path prefix: nearest first, then by path); shared as Found is.
type FilesFound struct {
	Term    string
	Results []FileResult
	// Under marks a listing of what lies under Term, a directory or path prefix no file has
	// exactly (bounded: explorerstore.MaxUnderHits).
	Under bool
	// Memo is Found.Memo.
	Memo *Memo
}

// SearchFiles finds the files whose full path, or basename, is exactly q (at least two
// characters), grouped by path and RPM file name. A q with a "/" that is no file's path is a
// directory or path prefix: the files under it are listed (Under), the shallowest first.
func (s *Service) SearchFiles(q string) (FilesFound, error) {
	q, err := cleanTerm(q, 2)
	if err != nil {
		return FilesFound{}, err
	}
	return cached(s, question{askFiles, true, q}, func() (FilesFound, version, bool, error) {
		results, under, v, err := s.searchFiles(q)
		return FilesFound{Term: q, Results: results, Under: under, Memo: &Memo{}}, v, err == nil, err
	}, func(f FilesFound) int {
		n := len(f.Results)
		for _, r := range f.Results {
			n += len(r.Entries)
		}
		return n
	})
}

// searchFiles finds q's files in one read transaction (the file index is the store's own, so
// it is always consistent).
func (s *Service) searchFiles(q string) ([]FileResult, bool, version, error) {
	var results []FileResult
	var v version
	under := false
	err := s.view(func(r *resolver) error {
		v = contentVersion(r.tx)
		hits, err := explorerstore.Files(r.tx, q)
		if err != nil {
			return err
		}
		if len(hits) == 0 && strings.Contains(q, "/") {
			hits = explorerstore.FilesUnder(r.tx, q)
			under = len(hits) > 0
		}
		index := map[[2]string]int{}
		for _, h := range hits {
			key := [2]string{h.Path, h.RPM}
			i, ok := index[key]
			if !ok {
				i = len(results)
				index[key] = i
				results = append(results, FileResult{Path: h.Path, RPM: h.RPM})
			}
			refs, err := explorerstore.ByRPM(r.tx, h.Product, h.RPM)
			if err != nil {
				return err
			}
			results[i].Entries = append(results[i].Entries, r.entries(refs)...)
		}
		return nil
	})
	if err != nil {
		return nil, under, v, err
	}
	depth := func(path string) int { return strings.Count(path[min(len(q), len(path)):], "/") }
	sort.SliceStable(results, func(i, j int) bool {
		a, b := results[i], results[j]
		if under {
			if da, db := depth(a.Path), depth(b.Path); da != db {
				return da < db // what lies directly in the directory before what lies deeper
			}
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.RPM < b.RPM
	})
	if under && len(results) > explorerstore.MaxUnderHits {
		results = results[:explorerstore.MaxUnderHits]
	}
	return results, under, v, nil
}

// VCSFound is what a git search found, with its term parsed.
type VCSFound struct {
	Found
	Query VCSQuery
}

// SearchVCS finds the packages built from a git reference: q is a commit prefix,
// org/repo@branch, repo@branch or repo (see ParseVCS), at least two characters.
func (s *Service) SearchVCS(q string) (VCSFound, error) {
	q, err := cleanTerm(q, 2)
	if err != nil {
		return VCSFound{}, err
	}
	v, err := ParseVCS(q)
	if err != nil {
		return VCSFound{}, err
	}
	return cached(s, question{askVCS, true, q}, func() (VCSFound, version, bool, error) {
		list, ver, exact, err := s.search(func() ([]string, error) { return s.Index.VCS(v.Org, v.Repo, v.Branch, v.Commit) }, store.ExplorerByVCS)
		return VCSFound{Found: Found{Term: q, Entries: list, Memo: &Memo{}}, Query: v}, ver, exact, err
	}, func(f VCSFound) int { return len(f.Entries) })
}
