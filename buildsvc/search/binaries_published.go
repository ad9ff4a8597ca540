package search

import (
	"encoding/xml"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/packaging/specfile"
	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// PublishedBinary is one RPM of a published repository, as /search/published/binary/id
// shows it (OBS's backend's record of a published binary).
type PublishedBinary struct {
	Name, Version, Release, Arch string
	Project, Repository          string
	// Package is the package that built it ("" when the farm no longer holds that binary).
	Package string
	// Filename is the file's name; Filepath its path in the published area
	// (home:/alice/standard/x86_64/hello-1.0-1.1.x86_64.rpm, as the backend spells it).
	Filename, Filepath string
	// BaseProject is the project of the last repository of the repository's expanded path.
	BaseProject string
	Type        string // "rpm"
}

// publishedBinaryDoc is what a published binary search evaluates: the record, with versrel
// (version-release, what osc's --binaryversion asks for) and the repository's expanded path
// (path/@project is what osc's --baseproject asks for), which the answer leaves out.
type publishedBinaryDoc struct {
	XMLName     xml.Name  `xml:"published_binary"`
	Name        string    `xml:"name,attr"`
	Version     string    `xml:"version,attr"`
	Release     string    `xml:"release,attr"`
	VersRel     string    `xml:"versrel,attr"`
	Arch        string    `xml:"arch,attr"`
	Type        string    `xml:"type,attr"`
	Project     string    `xml:"project,attr"`
	Repository  string    `xml:"repository,attr"`
	Package     string    `xml:"package,attr,omitempty"`
	Filename    string    `xml:"filename,attr"`
	Filepath    string    `xml:"filepath,attr"`
	BaseProject string    `xml:"baseproject,attr,omitempty"`
	Path        []pathDoc `xml:"path"`
}

// SearchPublishedBinaries answers /search/published/binary/id: the RPMs (source RPMs too) in
// the published trees of the projects who may see, newest version first, then by name and
// arch, as OBS's backend orders them (then by where they are published). A match whose plan
// names the binary (@name='bash', osc's `bse`; @name compares exactly here) reads that name's
// files from the published name index; any other walks every published tree. Both meet the
// files of one name in the same order, so the answers are the same.
func (s *Service) SearchPublishedBinaries(who buildstore.Person, match string, page Page) (Found[PublishedBinary], error) {
	q, err := compileIDSearch("published_binary", match)
	if err != nil {
		return Found[PublishedBinary]{}, err
	}
	var all []PublishedBinary
	err = s.db.View(func(tx kv.Tx) error {
		sc := newSearchScope(tx, who, q.Plan())
		w := &publishedWalk{tx: tx, sc: sc, q: q, trees: map[string]*publishedTree{}, indexed: sc.byName && !s.scanPublished}
		if w.indexed {
			for _, name := range sc.names {
				places := buildstore.PublishedPlaces(tx, name)
				for len(places) > 0 { // one tree's files at a time: the index keeps them together
					n := 1
					for n < len(places) && places[n].Project == places[0].Project && places[n].Repository == places[0].Repository {
						n++
					}
					if err := w.visitTree(places[:n]); err != nil {
						return err
					}
					places = places[n:]
				}
			}
		} else {
			for _, pr := range buildstore.PublishedRepositories(tx) {
				project, repo := pr[0], pr[1]
				if !sc.allowsProject(project) || !sc.sees(project) {
					continue
				}
				for _, f := range buildstore.PublishedFiles(tx, project, repo, "") {
					if err := w.visit(project, repo, f.Path); err != nil {
						return err
					}
				}
			}
		}
		all = w.found
		return nil
	})
	slices.SortStableFunc(all, func(a, b PublishedBinary) int {
		if c := specfile.Vercmp(b.Version, a.Version); c != 0 {
			return c
		}
		return strings.Compare(a.Name+"\x00"+a.Arch, b.Name+"\x00"+b.Arch)
	})
	return pageOf(all, page), err
}

// publishedWalk evaluates published files one by one for a search, reading what a tree's
// files share (its expanded path, its binaries' origins) once per tree.
type publishedWalk struct {
	tx    kv.Tx
	sc    *searchScope
	q     *xpath.Query
	trees map[string]*publishedTree
	// indexed: the files come from the name index, a few per tree (visitTree); origins are
	// then read for those files only.
	indexed bool
	found   []PublishedBinary
}

// publishedTree is what the files of one published tree share: its expanded path and the
// package that built each of its files (dir/file → package; of the files asked so far when
// indexed).
type publishedTree struct {
	pathDocs []pathDoc
	base     string
	origins  map[string]string
}

// visitTree evaluates the files places found in one tree, after reading their origins.
func (w *publishedWalk) visitTree(places []buildstore.PublishedPlace) error {
	project, repo := places[0].Project, places[0].Repository
	if !w.sc.allowsProject(project) || !w.sc.sees(project) {
		return nil
	}
	files := map[string]bool{}
	for _, pl := range places {
		if _, file, ok := strings.Cut(pl.Path, "/"); ok {
			files[file] = true
		}
	}
	t := w.tree(project, repo)
	for key, pkg := range publishedOrigins(w.tx, project, repo, files) {
		if t.origins[key] == "" {
			t.origins[key] = pkg
		}
	}
	for _, pl := range places {
		if err := w.visit(project, repo, pl.Path); err != nil {
			return err
		}
	}
	return nil
}

// visit evaluates the published file at path of project's repository repo.
func (w *publishedWalk) visit(project, repo, filePath string) error {
	if !w.sc.allowsProject(project) || !w.sc.sees(project) {
		return nil
	}
	name, ok := buildstore.PublishedBinaryName(filePath)
	if !ok || !w.sc.allows(project, name) {
		return nil
	}
	dir, file, _ := strings.Cut(filePath, "/")
	_, version, release, _, _ := buildstore.SplitRPMName(file)
	t := w.tree(project, repo)
	b := PublishedBinary{Name: name, Version: version, Release: release, Arch: dir, Project: project,
		Repository: repo, Package: t.origins[dir+"/"+file], Filename: file,
		Filepath: publishedName(project, repo) + "/" + filePath, BaseProject: t.base, Type: "rpm"}
	ok, err := matches(w.q, publishedBinaryDoc{Name: b.Name, Version: b.Version, Release: b.Release,
		VersRel: b.Version + "-" + b.Release, Arch: b.Arch, Type: b.Type, Project: b.Project, Repository: b.Repository,
		Package: b.Package, Filename: b.Filename, Filepath: b.Filepath, BaseProject: b.BaseProject, Path: t.pathDocs})
	if err != nil {
		return err
	}
	if ok {
		w.found = append(w.found, b)
	}
	return nil
}

// tree reads what project's repository repo's files share, once: every origin for a walk of
// every tree, none yet for the index (visitTree adds them).
func (w *publishedWalk) tree(project, repo string) *publishedTree {
	key := project + "\x00" + repo
	if t := w.trees[key]; t != nil {
		return t
	}
	t := &publishedTree{}
	t.pathDocs, t.base = expandedPath(w.tx, project, repo)
	if w.indexed {
		t.origins = map[string]string{}
	} else {
		t.origins = publishedOrigins(w.tx, project, repo, nil)
	}
	w.trees[key] = t
	return t
}

// publishedOrigins maps dir/file of the RPMs published for project's repository repo to the
// package that built them (OBS's binaryorigins), from the binaries of the repository's
// architectures, placed as publishing places them; of the file names in only (nil: every one).
func publishedOrigins(tx kv.Tx, project, repo string, only map[string]bool) map[string]string {
	out := map[string]string{}
	p, err := buildstore.GetProject(tx, project)
	if err != nil {
		return out
	}
	r, _ := p.Repository(repo)
	for _, arch := range r.Archs {
		w := buildstore.Where{Project: project, Repository: repo, Arch: arch}
		var bins []buildstore.Binary
		if only == nil {
			bins, _ = buildstore.Binaries(tx, w, "")
		} else {
			bins, _ = buildstore.BinariesOf(tx, w, only)
		}
		for _, b := range bins {
			dir := b.Arch
			if b.Arch == "src" || b.Arch == "nosrc" {
				dir = "src"
			}
			if key := dir + "/" + b.Filename; out[key] == "" {
				out[key] = b.Package
			}
		}
	}
	return out
}

// PublishedPattern is one pattern of a published repository, as /search/published/pattern/id
// shows it.
type PublishedPattern struct {
	// Name is the pattern's <name> (its file's name when it has none).
	Name                string
	Project, Repository string
	// Filename is the pattern file's name in the project (/source/<project>/_pattern/<file>).
	Filename    string
	BaseProject string
}

// publishedPatternDoc is what a published pattern search evaluates.
type publishedPatternDoc struct {
	XMLName     xml.Name  `xml:"published_pattern"`
	Name        string    `xml:"name,attr"`
	Project     string    `xml:"project,attr"`
	Repository  string    `xml:"repository,attr"`
	Filename    string    `xml:"filename,attr"`
	BaseProject string    `xml:"baseproject,attr,omitempty"`
	Summary     string    `xml:"summary,omitempty"`
	Description string    `xml:"description,omitempty"`
	Path        []pathDoc `xml:"path"`
}

// SearchPublishedPatterns answers /search/published/pattern/id: the patterns of the projects
// who may see, once for each of their repositories with a published tree, by project,
// repository and file name.
//
// Simplified: OBS's publisher writes a project's patterns into each repository it publishes
// and the backend searches those published files. The appliance's publisher writes RPMs and
// rpm-md metadata only, so this search answers the project's pattern files (PUT
// /source/<project>/_pattern/<file>) as they would be published with each published
// repository: the answer names the pattern file, and has no filepath and no type, since no
// published file exists for them (@filepath and @type match nothing).
func (s *Service) SearchPublishedPatterns(who buildstore.Person, match string, page Page) (Found[PublishedPattern], error) {
	q, err := compileIDSearch("published_pattern", match)
	if err != nil {
		return Found[PublishedPattern]{}, err
	}
	var all []PublishedPattern
	err = s.db.View(func(tx kv.Tx) error {
		sc := newSearchScope(tx, who, q.Plan())
		for _, pr := range buildstore.PublishedRepositories(tx) {
			project, repo := pr[0], pr[1]
			if !sc.allowsProject(project) || !sc.sees(project) {
				continue
			}
			patterns, err := buildstore.Patterns(tx, project)
			if err != nil || len(patterns) == 0 {
				continue
			}
			pathDocs, base := expandedPath(tx, project, repo)
			for _, pt := range patterns {
				name := xmlText(pt.Data, "name")
				if name == "" {
					name = strings.TrimSuffix(pt.Name, ".xml")
				}
				if !sc.allows(project, name) {
					continue
				}
				p := PublishedPattern{Name: name, Project: project, Repository: repo, Filename: pt.Name, BaseProject: base}
				ok, err := matches(q, publishedPatternDoc{Name: p.Name, Project: p.Project, Repository: p.Repository,
					Filename: p.Filename, BaseProject: p.BaseProject, Summary: xmlText(pt.Data, "summary"),
					Description: xmlText(pt.Data, "description"), Path: pathDocs})
				if err != nil {
					return err
				}
				if ok {
					all = append(all, p)
				}
			}
		}
		return nil
	})
	return pageOf(all, page), err
}
