package explorersvc

import (
	"sort"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/explorerstore"
)

// The three product searches: by package name, by file and by git reference.

// Found is what a package or git search found: the term as searched (surrounding spaces
// dropped) and the packages, sorted by name, product and architecture.
type Found struct {
	Term    string
	Entries []Entry
}

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
	var list []Entry
	var err error
	if q == "" { // every package: the name index is in name order already
		err = s.view(func(r *resolver) error {
			return explorerstore.EachKey(r.tx, store.ExplorerByName, func(k string) error {
				more, err := explorerstore.ByName(r.tx, k)
				list = append(list, r.entries(more)...)
				return err
			})
		})
	} else {
		list, err = s.search(func() ([]string, error) { return s.Index.Names(q) }, explorerstore.ByName)
	}
	if err != nil {
		return Found{}, err
	}
	return Found{Term: q, Entries: list}, nil
}

// FileResult is one file a file search found: its path, the RPM that ships it, and the
// packages (of every product) built as that RPM.
type FileResult struct {
	Path    string
	RPM     string
	Entries []Entry
}

// FilesFound is what a file search found, sorted by path and RPM file name.
type FilesFound struct {
	Term    string
	Results []FileResult
}

// SearchFiles finds the files whose full path, or basename, is exactly q (at least two
// characters), grouped by path and RPM file name.
func (s *Service) SearchFiles(q string) (FilesFound, error) {
	q, err := cleanTerm(q, 2)
	if err != nil {
		return FilesFound{}, err
	}
	var results []FileResult
	err = s.view(func(r *resolver) error {
		hits, err := explorerstore.Files(r.tx, q)
		if err != nil {
			return err
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
		return FilesFound{}, err
	}
	sort.SliceStable(results, func(i, j int) bool {
		if results[i].Path != results[j].Path {
			return results[i].Path < results[j].Path
		}
		return results[i].RPM < results[j].RPM
	})
	return FilesFound{Term: q, Results: results}, nil
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
	list, err := s.search(func() ([]string, error) { return s.Index.VCS(v.Org, v.Repo, v.Branch, v.Commit) }, explorerstore.ByVCS)
	if err != nil {
		return VCSFound{}, err
	}
	return VCSFound{Found: Found{Term: q, Entries: list}, Query: v}, nil
}
