package farm

import (
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The copying a release (and a project copy withbinaries) does: sources through the one commit
// path, binaries record by record with their files.

// releasePackage releases k into one target: its expanded sources, then its binaries of each
// architecture of the source repository (only req.Arch when given).
func releasePackage(tx kv.Tx, who buildstore.Person, k buildstore.Package, st releaseStep, req ReleaseRequest, now time.Time) error {
	comment := req.Comment
	if comment == "" {
		comment = "Release from " + k.Project + " / " + k.Name
	}
	if err := buildsvc.ReleaseSources(tx, who, k, st.target.Name, comment, now); err != nil {
		return err
	}
	for _, arch := range st.from.Archs {
		if req.Arch != "" && arch != req.Arch {
			continue
		}
		from := buildstore.Where{Project: k.Project, Repository: st.from.Name, Arch: arch}
		to := buildstore.Where{Project: st.target.Name, Repository: st.to.Name, Arch: arch}
		if err := buildsvc.CopyBinaries(tx, from, k.Name, to, k.Name, func(b buildstore.Binary) string { return setRelease(b, req.SetRelease) }, nil); err != nil {
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
		return buildsvc.BadRequest("invalid_parameter", "setrelease '%s' is not a release tag: it may not contain '-', '/' or blanks", rel)
	}
	return nil
}
