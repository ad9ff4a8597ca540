package buildsvc

import (
	"fmt"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildfarm/rpmout"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// The copying a release (and a project copy withbinaries) does: sources through the one commit
// path, binaries record by record with their files.

// releasePackage releases k into one target: its expanded sources, then its binaries of each
// architecture of the source repository (only req.Arch when given).
func releasePackage(tx *bbolt.Tx, who buildstore.Person, k buildstore.Package, st releaseStep, req ReleaseRequest, now time.Time) error {
	comment := req.Comment
	if comment == "" {
		comment = "Release from " + k.Project + " / " + k.Name
	}
	if err := releaseSources(tx, who, k, st.target.Name, comment, now); err != nil {
		return err
	}
	for _, arch := range st.from.Archs {
		if req.Arch != "" && arch != req.Arch {
			continue
		}
		from := buildstore.Where{Project: k.Project, Repository: st.from.Name, Arch: arch}
		to := buildstore.Where{Project: st.target.Name, Repository: st.to.Name, Arch: arch}
		if err := copyBinaries(tx, from, k.Name, to, k.Name, func(b buildstore.Binary) string { return setRelease(b, req.SetRelease) }, nil); err != nil {
			return err
		}
	}
	return nil
}

// releaseSources commits k's newest tree, expanded when k is a link, as a new revision of the
// same-named package of project (created on the way), unless that package's newest revision
// holds the same tree already (a release repeated makes no empty revision).
func releaseSources(tx *bbolt.Tx, who buildstore.Person, k buildstore.Package, project, comment string, now time.Time) error {
	v, err := ReadView(tx, who, k.Project, k.Name, "", true, "")
	if err != nil {
		return err
	}
	if v.Pending != nil {
		if err := buildstore.PutExpansion(tx, k.Project, k.Name, *v.Pending); err != nil {
			return err
		}
	}
	if err := ensurePackage(tx, who, project, k.Name, k, now); err != nil {
		return err
	}
	last, ok, err := buildstore.LatestRevision(tx, project, k.Name)
	if err != nil {
		return err
	}
	if ok && last.SrcMD5 == buildstore.SrcMD5(v.Tree.Files) {
		return nil
	}
	_, err = CommitTree(tx, project, k.Name, v.Tree.Files, who.Login, now, CommitOptions{Comment: comment})
	return err
}

// copyBinaries replaces the binaries of package toPkg in where to with those of fromPkg in
// from, each under the file name rename gives it (the record says the package toPkg); with
// sign, every RPM is signed again with it (copy with resign: the target's key).
func copyBinaries(tx *bbolt.Tx, from buildstore.Where, fromPkg string, to buildstore.Where, toPkg string, rename func(buildstore.Binary) string, sign rpmout.Signer) error {
	bins, err := buildstore.Binaries(tx, from, fromPkg)
	if err != nil {
		return err
	}
	if len(bins) == 0 {
		return nil // nothing built (yet): a release copies what there is
	}
	if err := buildstore.DeleteBinaries(tx, to, toPkg); err != nil {
		return err
	}
	for _, b := range bins {
		data := append([]byte(nil), buildstore.BinaryFile(tx, from, fromPkg, b.Filename)...)
		if sign != nil && rpmout.IsRPM(data) {
			var err error
			if data, err = rpmout.Sign(data, sign); err != nil {
				return fmt.Errorf("signing %s again: %w", b.Filename, err)
			}
			setDigests(&b, data)
		}
		b.Package, b.Filename = toPkg, rename(b)
		if err := buildstore.PutBinary(tx, to, b, data); err != nil {
			return err
		}
	}
	return nil
}

// setRelease is the released file name of b: with rel "" its own; else, for an RPM named
// name-version-release.arch.rpm, the release replaced by rel, or dropped when rel is "-"
// (name-version.arch.rpm). Files that are not RPMs keep their names.
func setRelease(b buildstore.Binary, rel string) string {
	old := b.Name + "-" + b.Version + "-" + b.Release + "." + b.Arch + ".rpm"
	if rel == "" || b.Name == "" || b.Filename != old {
		return b.Filename
	}
	if rel == "-" {
		return b.Name + "-" + b.Version + "." + b.Arch + ".rpm"
	}
	return b.Name + "-" + b.Version + "-" + rel + "." + b.Arch + ".rpm"
}

// validRelease checks a setrelease value: a release tag has no '-' or '/' (except "-" alone).
func validRelease(rel string) error {
	if rel == "" || rel == "-" {
		return nil
	}
	if strings.ContainsAny(rel, "-/ \t\n") {
		return BadRequest("invalid_parameter", "setrelease '%s' is not a release tag: it may not contain '-', '/' or blanks", rel)
	}
	return nil
}

// checkReleaseTarget is the meta rule of a repository's release target (OBS's project save):
// a known trigger, and an existing target repository (of another project, or of this very
// document).
func checkReleaseTarget(tx *bbolt.Tx, p buildstore.Project, r buildstore.Repository) error {
	t := r.ReleaseTarget
	if t == nil {
		return nil
	}
	if t.Trigger != "" && t.Trigger != "manual" && t.Trigger != "maintenance" {
		return Invalid("project", "releasetarget trigger must be 'manual' or 'maintenance', not '%s'", t.Trigger)
	}
	target, err := buildstore.GetProject(tx, t.Project)
	if t.Project == p.Name {
		target, err = p, nil
	}
	if _, ok := target.Repository(t.Repository); err != nil || !ok {
		return BadRequest("project_save_error", "Unknown target repository '%s/%s'", t.Project, t.Repository)
	}
	return nil
}
