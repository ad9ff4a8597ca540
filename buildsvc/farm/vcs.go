package farm

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"

	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// PackageVCS is the VCS tag the farm would stamp into a build of pkg of project now: its
// scmsync's repository and branch at the commit its current (expanded, for a link) source
// revision stands for — "" when the package has no scmsync naming a repository, or no
// sources to expand. The demo world's git model derives the source host's branch heads from
// it, so they are the commits the farm's RPMs and product SBOMs name; the farm itself calls
// vcsTag with the srcmd5 of the job it builds, which is this one while nothing changed since.
// No read protection: it runs inside a caller's transaction, as the farm and fixtures do.
func PackageVCS(tx kv.Tx, project, pkg string) string {
	k, err := buildstore.GetPackage(tx, project, pkg)
	if err != nil || k.SCMSync == "" {
		return ""
	}
	src := loadSources(tx, project, pkg)
	if src.srcmd5 == "" {
		return ""
	}
	return vcsTag(k.SCMSync, src.srcmd5)
}

// vcsTag is the RPM VCS tag the farm stamps into what a package with <scmsync> builds, as OBS
// does for git-managed packages (explorer-notes §3.1: <server>/<org>/<repo>?trackingbranch=
// <branch>#<commit>), so a product's SBOM names each package's git reference.
//
// The appliance hosts no git and fetches nothing: a package's sources are its revisions in
// the build service, as ever. The branch is scmsync's (?trackingbranch= or a fragment that is
// no commit); the commit is scmsync's when its fragment is one (a pinned commit), else the
// commit the source revision stands for — a SHA-256 (the object format src.opensuse.org uses)
// of the repository and the revision's srcmd5, so every new revision is a new commit and the
// same revision always the same one. "" when scmsync names no repository.
func vcsTag(scmsync, srcmd5 string) string {
	v, ok := spdx.ParseVCS(scmsync)
	if !ok {
		return ""
	}
	commit := v.Commit
	if commit == "" {
		sum := sha256.Sum256([]byte(v.URL + "\n" + srcmd5))
		commit = hex.EncodeToString(sum[:])
	}
	tag := v.URL
	if v.Branch != "" {
		tag += "?trackingbranch=" + url.QueryEscape(v.Branch)
	}
	return tag + "#" + commit
}

// gitRef is the SBOM's git reference of an RPM VCS tag, nil when the tag names none.
func gitRef(tag string) *spdx.GitRef {
	v, ok := spdx.ParseVCS(tag)
	if !ok || v.Commit == "" {
		return nil
	}
	u, err := url.Parse(v.URL)
	if err != nil {
		return nil
	}
	return &spdx.GitRef{BaseURL: u.Scheme + "://" + u.Host, Org: v.Org, Repo: v.Repo, Branch: v.Branch, Commit: v.Commit}
}
