package farm

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/internal/signkey"
	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Publishing. When a repository has finished building on an architecture, its binaries are
// published — if the publish flag allows it for the package, repository and arch — into the
// project's published tree: binary RPMs under <arch>/ (noarch ones under noarch/), source RPMs
// under src/, and rpm-md metadata (repodata/) over all of them, which a package manager reads.
// The tree of a repository is rewritten whole from the binaries of all its architectures, and
// only when what would be published differs from what was (a digest kept in the repository
// state), so a pass that changes nothing publishes nothing. The repository code goes from
// finished to published (or unpublished, when the flags publish nothing).

// publishProject publishes each repository of project whose architectures have all finished
// (the scheduler calls it after storing a pass); a repository whose binaries are those it
// published last is left as it is.
func (s *Farm) publishProject(project string) error {
	var repos []string
	err := s.db.View(func(tx kv.Tx) error {
		p, err := buildstore.GetProject(tx, project)
		for _, r := range p.Repositories {
			repos = append(repos, r.Name)
		}
		return err
	})
	if err != nil {
		return nil // gone: nothing to publish
	}
	now := s.clk.Now()
	for _, r := range repos {
		if err := s.publish(project, r, now); err != nil {
			return err
		}
	}
	return nil
}

// repoDone reports whether a repository code means its where has nothing left to build.
func repoDone(code string) bool {
	return code == "finished" || code == "published" || code == "unpublished"
}

// publish rewrites the published tree of project's repository repo from its wheres' binaries.
// What would be published is first worked out in a read transaction (publication: binaries'
// metadata and digests, no file read): a repository still building, or one whose tree and codes
// are already what they would become, costs no write transaction (no commit, no fsync) and no
// RPM read — the scheduler calls this after every pass, and a pass over 1,000 packages spent a
// third of its time reading and parsing every RPM of a repository that was not finished.
func (s *Farm) publish(project, repo string, now time.Time) error {
	var todo bool
	if err := s.db.View(func(tx kv.Tx) error {
		pub, err := newPublication(tx, project, repo)
		todo = pub != nil && pub.changes(tx)
		return err
	}); err != nil || !todo {
		return err
	}
	files := -1
	err := s.db.Write(func(tx kv.Tx) error {
		files = -1 // a group commit may run fn again
		pub, err := newPublication(tx, project, repo)
		if pub == nil || err != nil {
			return err
		}
		signer, err := buildsvc.ProjectSigner(tx, project)
		if err != nil {
			return err
		}
		files = len(pub.files)
		return pub.write(tx, signer, now)
	})
	if err == nil && files >= 0 {
		s.log.Info("published", "project", project, "repository", repo, "binaries", files)
	}
	return err
}

// publication is what a finished repository publishes: the binaries the publish flags let
// through (each where's, a noarch or source RPM built on several archs once) and the digest of
// their paths and checksums.
type publication struct {
	project, repo string
	wheres        []buildstore.Where
	files         []pubBinary
	digest        string
}

// pubBinary is one binary of a publication and where it goes in the tree.
type pubBinary struct {
	w    buildstore.Where
	b    buildstore.Binary
	href string
	rpm  bool // listed in the repository's rpm-md metadata (a package, a product medium's included)
}

// newPublication works out the publication of project's repository repo from what tx holds;
// nil when the project or repository is gone or an architecture still builds.
func newPublication(tx kv.Tx, project, repo string) (*publication, error) {
	p, err := buildstore.GetProject(tx, project)
	if err != nil {
		return nil, nil // gone meanwhile: the scheduler purges it
	}
	r, ok := p.Repository(repo)
	if !ok || len(r.Archs) == 0 {
		return nil, nil
	}
	pub := &publication{project: project, repo: repo}
	for _, arch := range r.Archs {
		w := buildstore.Where{Project: project, Repository: repo, Arch: arch}
		if st, err := buildstore.GetRepoState(tx, w); err != nil || !repoDone(st.Code) {
			return nil, nil // another arch still builds: publish once all have finished
		}
		pub.wheres = append(pub.wheres, w)
	}
	pkgs, err := buildstore.Packages(tx, project)
	if err != nil {
		return nil, err
	}
	flags := map[string][]buildstore.Flag{}
	for _, k := range pkgs {
		flags[k.Name] = k.Flags
	}
	seen := map[string]bool{}
	listed := map[string]bool{} // product medium packages the repository's rpm-md lists
	built := map[string]bool{}  // name.arch of the packages built here
	var sums []string
	for _, w := range pub.wheres {
		bins, err := buildstore.Binaries(tx, w, "")
		if err != nil {
			return nil, err
		}
		// what was built first, then the binaries imported into the repository (the base a
		// distribution's repository offers its builds: issue 34, so that what is published
		// installs), except a name something built here replaces
		sort.SliceStable(bins, func(i, j int) bool {
			return bins[i].Package != RepositoryPackage && bins[j].Package == RepositoryPackage
		})
		for _, b := range bins {
			if b.Package == RepositoryPackage {
				if b.Name == "" || built[b.Name+"."+b.Arch] || !FlagEnabled(p.Flags, nil, "publish", repo, w.Arch, true) {
					continue
				}
			} else if k, live := flags[b.Package]; !live || !FlagEnabled(p.Flags, k, "publish", repo, w.Arch, true) {
				continue
			} else {
				built[b.Name+"."+b.Arch] = true
			}
			f := pubBinary{w: w, b: b}
			switch {
			case b.Medium != "": // a product build's file: laid out as its medium
				f.href = mediumPath(b)
				// its packages are also listed by the repository's own rpm-md, once each (a
				// noarch one ships in every arch's medium), so the repository's URL is one a
				// package manager installs the product from (issue 34)
				if strings.HasSuffix(b.Filename, ".rpm") && !listed[b.Filename] {
					f.rpm, listed[b.Filename] = true, true
				}
			case b.Name == "":
				continue
			default:
				dir := b.Arch
				if b.Arch == "src" || b.Arch == "nosrc" {
					dir = "src"
				}
				f.href, f.rpm = dir+"/"+b.Filename, true
				if seen[f.href] {
					continue // a noarch or source RPM built on several archs is published once
				}
			}
			seen[f.href] = true
			pub.files = append(pub.files, f)
			sums = append(sums, f.href+" "+b.SHA256)
		}
	}
	sort.Strings(sums)
	sum := md5.Sum([]byte(strings.Join(sums, "\n")))
	pub.digest = hex.EncodeToString(sum[:])
	return pub, nil
}

// code is the repository code the publication leaves.
func (pub *publication) code() string {
	if len(pub.files) == 0 {
		return "unpublished"
	}
	return "published"
}

// changes reports whether writing pub would change anything: the tree (its digest) or a code.
func (pub *publication) changes(tx kv.Tx) bool {
	for _, w := range pub.wheres {
		st, _ := buildstore.GetRepoState(tx, w)
		if st.PublishedDigest != pub.digest || st.Code != pub.code() {
			return true
		}
	}
	return false
}

// write rewrites the published tree when its digest changed (reading the binaries' files and
// writing rpm-md over them, signed by signer when there is one) and sets every where's code and
// digest.
func (pub *publication) write(tx kv.Tx, signer *signkey.Signer, now time.Time) error {
	first, _ := buildstore.GetRepoState(tx, pub.wheres[0])
	if first.PublishedDigest != pub.digest {
		if err := buildstore.DeletePublished(tx, pub.project, pub.repo); err != nil {
			return err
		}
		var entries []rpmout.Entry
		files := map[string][]byte{}
		for _, f := range pub.files {
			data := append([]byte(nil), buildstore.BinaryFile(tx, f.w, f.b.Package, f.b.Filename)...)
			if f.b.Package == RepositoryPackage && !rpmout.IsRPM(data) {
				continue // an import that is no package file (an Admin's upload, a test's stand-in)
			}
			if f.rpm && signer != nil && !rpmout.Signed(data) { // an imported base package
				var err error
				if data, err = rpmout.Sign(data, func(m io.Reader) ([]byte, error) { return signer.Sign(m, now) }); err != nil {
					return fmt.Errorf("signing %s: %w", f.href, err)
				}
			}
			files[f.href] = data
			if !f.rpm {
				continue
			}
			e, err := rpmout.NewEntry(f.href, binaryRPM(f.b), data, f.b.MTime)
			if err != nil {
				return err
			}
			entries = append(entries, e)
		}
		if len(entries) > 0 {
			sort.Slice(entries, func(i, j int) bool { return entries[i].Href < entries[j].Href })
			meta, err := rpmout.Repodata(entries, now)
			if err != nil {
				return err
			}
			for name, data := range meta {
				files[name] = data
			}
			if err := buildsvc.SignRepomd(tx, pub.project, signer, files, "repodata/repomd.xml", now); err != nil {
				return err
			}
		}
		for name, data := range files {
			if err := buildstore.PutPublished(tx, pub.project, pub.repo, name, data); err != nil {
				return err
			}
		}
	}
	for _, w := range pub.wheres {
		st, _ := buildstore.GetRepoState(tx, w)
		st.Code, st.PublishedDigest = pub.code(), pub.digest
		if first.PublishedDigest != pub.digest {
			st.Published = now
		}
		if err := buildstore.PutRepoState(tx, w, st); err != nil {
			return err
		}
	}
	return nil
}

// binaryRPM is the RPM metadata a stored binary keeps, as the repository metadata needs it.
func binaryRPM(b buildstore.Binary) rpmout.RPM {
	r := rpmout.RPM{Name: b.Name, Epoch: b.Epoch, Version: b.Version, Release: b.Release, Arch: b.Arch,
		Summary: b.Summary, Description: b.Description, Provides: buildsvc.SpecDeps(b.Provides), Requires: buildsvc.SpecDeps(b.Requires), BuildTime: b.MTime}
	for _, f := range b.Files {
		r.Files = append(r.Files, rpmout.File{Path: f})
	}
	return r
}

// mediumPath is where a product build's file is published: under its medium's directory,
// the SBOM beside the rpm-md directory — <medium>/<medium>.spdx.json, <medium>/repodata/….
func mediumPath(b buildstore.Binary) string {
	if strings.HasSuffix(b.Filename, ".spdx.json") {
		return b.Medium + "/" + b.Filename
	}
	if strings.HasSuffix(b.Filename, ".rpm") { // a shipped package, where the medium's metadata says
		dir := b.Arch
		if dir == "src" || dir == "nosrc" {
			dir = "src"
		}
		return b.Medium + "/" + dir + "/" + b.Filename
	}
	return b.Medium + "/repodata/" + b.Filename
}
