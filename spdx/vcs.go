package spdx

import (
	"net/url"
	"strings"
)

// minCommitHex is the shortest fragment taken as a commit: the explorer's vcs-search accepts
// commit prefixes of 8 hex characters, so a shorter fragment could never be searched as one.
const minCommitHex = 8

// ParseVCS reads the locator of an SBOM's vcs reference (the RPM VCS tag), e.g.
// "https://src.opensuse.org/pool/bash?trackingbranch=factory#<commit>", into the fields the
// explorer searches by. The fragment is a commit when it is at least 8 hex characters (hosts
// with SHA-256 object format give 64, others 40); anything else there is a branch or tag (OBS
// product repositories write "…?subdir=…#16.0"), used as Branch when no trackingbranch says
// otherwise. Queries other than trackingbranch (subdir) are ignored, and user information is
// dropped from URL so credentials never reach the index. ok is false when the locator has no
// scheme, no host or an empty path, because then no repository can be named.
func ParseVCS(locator string) (VCS, bool) {
	u, err := url.Parse(strings.TrimSpace(locator))
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" {
		return VCS{}, false
	}
	// Split the escaped path, so an escaped "/" (%2F) stays inside its segment, and keep URL
	// escaped as it was written; Org and Repo are names, so they are unescaped.
	p := strings.Trim(u.EscapedPath(), "/")
	if p == "" {
		return VCS{}, false
	}
	first, _, _ := strings.Cut(p, "/")
	org, err1 := url.PathUnescape(first)
	repo, err2 := url.PathUnescape(p[strings.LastIndexByte(p, '/')+1:])
	v := VCS{URL: u.Scheme + "://" + u.Host + "/" + p, Org: org, Repo: strings.TrimSuffix(repo, ".git")}
	if err1 != nil || err2 != nil || v.Org == "" || v.Repo == "" {
		return VCS{}, false
	}
	// ParseQuery keeps the pairs it could read even when another pair is malformed.
	query, _ := url.ParseQuery(u.RawQuery)
	v.Branch = query.Get("trackingbranch")
	switch frag := u.Fragment; {
	case isHex(frag) && len(frag) >= minCommitHex:
		v.Commit = strings.ToLower(frag)
	case frag != "" && v.Branch == "":
		v.Branch = frag
	}
	return v, true
}

// isHex reports whether s is non-empty and made of hex digits only.
func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
