package search

import (
	"encoding/xml"
	"regexp"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// ReleasedBinary is one binary in a release target, as /search/released/binary[/id] shows it
// (OBS's BinaryRelease).
type ReleasedBinary struct {
	// Project and Repository are the release target's.
	Project, Repository                 string
	Name, Epoch, Version, Release, Arch string
	// Package is the target's package that holds it (publish/@package).
	Package string
	// DistURL is the DISTURL the farm stamped into the RPM: where and from which sources it
	// was built.
	DistURL string
}

// releasedBinaryDoc is what a released binary search evaluates: OBS's columns that the
// appliance has values for.
type releasedBinaryDoc struct {
	XMLName    xml.Name      `xml:"released_binary"`
	Name       string        `xml:"name,attr"`
	Epoch      string        `xml:"epoch,attr,omitempty"`
	Version    string        `xml:"version,attr"`
	Release    string        `xml:"release,attr"`
	Arch       string        `xml:"arch,attr"`
	DistURL    string        `xml:"disturl,omitempty"`
	Repository repositoryDoc `xml:"repository"`
	Publish    publishDoc    `xml:"publish"`
	// Modify and Obsolete are there without a time: every binary here is current, as OBS's
	// rows with no modify or obsolete time are (`obsolete[not(@time)]` holds).
	Modify   struct{} `xml:"modify"`
	Obsolete struct{} `xml:"obsolete"`
}

type repositoryDoc struct {
	Project string `xml:"project,attr"`
	Name    string `xml:"name,attr"`
}

type publishDoc struct {
	Package string `xml:"package,attr"`
}

// SearchReleasedBinaries answers /search/released/binary[/id]: the RPMs (source RPMs too) in
// the repositories that are the release target of some repository (<releasetarget/> in a
// project meta), of the projects who may see, by target project, repository, name and arch.
//
// Simplified: OBS keeps a binary_releases table, a row per binary each release put into a
// target, kept when a later release removes or replaces the binary (obsolete/@time,
// modify/@time), with the release time, the operation (added, modified), support status,
// update info and the products the target is an update repository of. The appliance's release
// (release_cmd.go) keeps no such record: what a release target holds is simply the binaries
// cmd=release copied into it. So this search answers the binaries a release target holds
// now — the removed ones are gone — and the keys without a value here (supportstatus,
// operation, updateinfo/…, modify/@time, obsolete/@time, publish/@time, updatefor/…,
// product/…, @medium) match nothing. A release target's binaries that were built there
// rather than released (a target that builds) are listed too. OBS does not refuse a predicate
// without @name or @disturl (its xpath engine and search controller have no such rule); the
// seed's advice to give one is about the size of OBS's table, and the appliance takes any.
// namesBinary finds a released binary's @name or disturl in a predicate (not as the end of a
// path such as repository/@name): the seed asks every released binary search for one of
// them, which keeps it from listing every binary ever released. OBS itself does not refuse such
// a search; the seed's rule wins.
var namesBinary = regexp.MustCompile(`(^|[^/\w@])(@name|@disturl|disturl)\b`)

func (s *Service) SearchReleasedBinaries(who buildstore.Person, match string, idOnly bool, page Page) (Found[ReleasedBinary], error) {
	q, err := compileSearch("released_binary", match, idOnly)
	if err != nil {
		return Found[ReleasedBinary]{}, err
	}
	if !namesBinary.MatchString(xpath.Unwrap(strings.TrimSpace(match))) {
		return Found[ReleasedBinary]{}, buildsvc.BadRequest("illegal_xpath_error", "a released binary search needs @name or @disturl in its predicate, not only '%s'", match)
	}
	var all []ReleasedBinary
	err = s.db.View(func(tx kv.Tx) error {
		sc := newSearchScope(tx, who, nil)
		names, byName := plannedValues(q.Plan(), "@name")
		seen := map[string]bool{}
		targets, err := releaseTargets(tx)
		if err != nil {
			return err
		}
		for _, t := range targets {
			if !sc.sees(t.Project) {
				continue
			}
			p, _ := buildstore.GetProject(tx, t.Project)
			r, _ := p.Repository(t.Repository)
			for _, arch := range r.Archs {
				w := buildstore.Where{Project: t.Project, Repository: t.Repository, Arch: arch}
				bins, err := buildstore.Binaries(tx, w, "")
				if err != nil {
					return err
				}
				for _, b := range bins {
					if b.Name == "" || byName && !slices.Contains(names, b.Name) {
						continue
					}
					rb := ReleasedBinary{Project: t.Project, Repository: t.Repository, Name: b.Name, Epoch: b.Epoch,
						Version: b.Version, Release: b.Release, Arch: b.Arch, Package: b.Package}
					if _, _, rel, _, ok := buildsvc.SplitRPMName(b.Filename); ok {
						rb.Release = rel // as the release named it (setrelease renames the file only)
					}
					if seen[rb.key()] {
						continue // a noarch or source RPM built on several archs is one binary
					}
					seen[rb.key()] = true
					if rpm, err := rpmout.ReadHeader(buildstore.BinaryFile(tx, w, b.Package, b.Filename)); err == nil {
						rb.DistURL = rpm.DistURL
					}
					ok, err := matches(q, releasedBinaryDoc{Name: rb.Name, Epoch: rb.Epoch, Version: rb.Version,
						Release: rb.Release, Arch: rb.Arch, DistURL: rb.DistURL,
						Repository: repositoryDoc{Project: rb.Project, Name: rb.Repository}, Publish: publishDoc{Package: rb.Package}})
					if err != nil {
						return err
					}
					if ok {
						all = append(all, rb)
					}
				}
			}
		}
		return nil
	})
	slices.SortStableFunc(all, func(a, b ReleasedBinary) int {
		return strings.Compare(a.Project+"\x00"+a.Repository+"\x00"+a.Name+"\x00"+a.Arch,
			b.Project+"\x00"+b.Repository+"\x00"+b.Name+"\x00"+b.Arch)
	})
	return pageOf(all, page), err
}

// key identifies a binary of a target: a noarch or source RPM built on several architectures
// is one.
func (a ReleasedBinary) key() string {
	return strings.Join([]string{a.Project, a.Repository, a.Name, a.Epoch, a.Version, a.Release, a.Arch}, "\x00")
}

// releaseTargets are the repositories some repository names as its release target, by
// project and repository.
func releaseTargets(tx kv.Tx) ([]buildstore.Path, error) {
	projects, err := buildstore.Projects(tx)
	if err != nil {
		return nil, err
	}
	var out []buildstore.Path
	for _, p := range projects {
		for _, r := range p.Repositories {
			if t := r.ReleaseTarget; t != nil {
				out = append(out, buildstore.Path{Project: t.Project, Repository: t.Repository})
			}
		}
	}
	slices.SortFunc(out, func(a, b buildstore.Path) int {
		return strings.Compare(a.Project+"\x00"+a.Repository, b.Project+"\x00"+b.Repository)
	})
	return slices.Compact(out), nil
}
