package buildsvc

import (
	"crypto/md5"
	"encoding/hex"
	"sort"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildfarm/rpmout"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
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
func (s *Service) publishProject(project string) error {
	var repos []string
	err := s.db.View(func(tx *bbolt.Tx) error {
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
func (s *Service) publish(project, repo string, now time.Time) error {
	return s.db.Write(func(tx *bbolt.Tx) error {
		p, err := buildstore.GetProject(tx, project)
		if err != nil {
			return nil // gone meanwhile: the scheduler purges it
		}
		r, ok := p.Repository(repo)
		if !ok {
			return nil
		}
		pkgs, err := buildstore.Packages(tx, project)
		if err != nil {
			return err
		}
		flags := map[string][]buildstore.Flag{}
		for _, k := range pkgs {
			flags[k.Name] = k.Flags
		}
		var entries []rpmout.Entry
		files := map[string][]byte{}
		var sums []string
		finished := true
		var wheres []buildstore.Where
		for _, arch := range r.Archs {
			w := buildstore.Where{Project: project, Repository: repo, Arch: arch}
			wheres = append(wheres, w)
			if st, err := buildstore.GetRepoState(tx, w); err != nil || !repoDone(st.Code) {
				finished = false
			}
			bins, err := buildstore.Binaries(tx, w, "")
			if err != nil {
				return err
			}
			for _, b := range bins {
				k, live := flags[b.Package]
				if !live || !FlagEnabled(p.Flags, k, "publish", repo, arch, true) {
					continue
				}
				if b.Medium != "" { // a product build's file: laid out as its medium, not in rpm-md
					href := mediumPath(b)
					files[href] = append([]byte(nil), buildstore.BinaryFile(tx, w, b.Package, b.Filename)...)
					sums = append(sums, href+" "+b.SHA256)
					continue
				}
				if b.Name == "" {
					continue
				}
				dir := b.Arch
				if b.Arch == "src" || b.Arch == "nosrc" {
					dir = "src"
				}
				href := dir + "/" + b.Filename
				if _, dup := files[href]; dup {
					continue // a noarch or source RPM built on several archs is published once
				}
				data := append([]byte(nil), buildstore.BinaryFile(tx, w, b.Package, b.Filename)...)
				e, err := rpmout.NewEntry(href, binaryRPM(b), data, b.MTime)
				if err != nil {
					return err
				}
				files[href] = data
				entries = append(entries, e)
				sums = append(sums, href+" "+b.SHA256)
			}
		}
		if !finished || len(wheres) == 0 {
			return nil // another arch still builds: publish once all have finished
		}
		sort.Strings(sums)
		sum := md5.Sum([]byte(strings.Join(sums, "\n")))
		digest := hex.EncodeToString(sum[:])
		code := "published"
		if len(files) == 0 {
			code = "unpublished"
		}
		first, _ := buildstore.GetRepoState(tx, wheres[0])
		if first.PublishedDigest != digest {
			if err := buildstore.DeletePublished(tx, project, repo); err != nil {
				return err
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
			}
			if len(files) > 0 {
				for name, data := range files {
					if err := buildstore.PutPublished(tx, project, repo, name, data); err != nil {
						return err
					}
				}
			}
		}
		for _, w := range wheres {
			st, _ := buildstore.GetRepoState(tx, w)
			st.Code, st.PublishedDigest = code, digest
			if first.PublishedDigest != digest {
				st.Published = now
			}
			if err := buildstore.PutRepoState(tx, w, st); err != nil {
				return err
			}
		}
		return nil
	})
}

// binaryRPM is the RPM metadata a stored binary keeps, as the repository metadata needs it.
func binaryRPM(b buildstore.Binary) rpmout.RPM {
	r := rpmout.RPM{Name: b.Name, Epoch: b.Epoch, Version: b.Version, Release: b.Release, Arch: b.Arch,
		Summary: b.Summary, Description: b.Description, Provides: b.Provides, Requires: b.Requires, BuildTime: b.MTime}
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
	return b.Medium + "/repodata/" + b.Filename
}
