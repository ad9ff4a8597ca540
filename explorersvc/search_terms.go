package explorersvc

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// The rules a search term must meet; a term that breaks one is invalid (the API's 400), never
// a slow or surprising search.

// maxTerm is the longest search term taken, in bytes.
const maxTerm = 256

// cleanTerm drops q's surrounding spaces and checks it: valid UTF-8, at most maxTerm bytes,
// (when min > 0) at least min characters, no NUL.
func cleanTerm(q string, min int) (string, error) {
	q = strings.TrimSpace(q)
	switch {
	case !utf8.ValidString(q):
		return "", invalid("search term is not valid UTF-8")
	case len(q) > maxTerm:
		return "", invalid("search term is longer than 256 bytes")
	case min > 0 && utf8.RuneCountInString(q) < min:
		return "", invalid("search term must be at least 2 characters")
	case strings.ContainsRune(q, 0):
		return "", invalid("search term contains a NUL character")
	}
	// The term keys the answer cache and stays in the answers it keeps, which outlive the
	// request; a term read from a query string views a buffer the next request reuses.
	return strings.Clone(q), nil
}

// VCSQuery is a parsed git search term: a commit prefix, or a repository with its organization
// and branch when given.
type VCSQuery struct{ Org, Repo, Branch, Commit string }

var (
	commitTerm = regexp.MustCompile(`^[0-9a-fA-F]{8,64}$`)
	namePart   = regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`)
	branchPart = regexp.MustCompile(`^[A-Za-z0-9_.+/-]+$`)
)

// ParseVCS reads the four forms: a commit (8 to 64 hex characters, a prefix), org/repo@branch,
// repo@branch and repo; "#" may stand for "@" (a percent-encoded @ is decoded already).
func ParseVCS(q string) (VCSQuery, error) {
	if commitTerm.MatchString(q) {
		return VCSQuery{Commit: strings.ToLower(q)}, nil
	}
	q = strings.Replace(q, "#", "@", 1)
	left, branch, hasBranch := strings.Cut(q, "@")
	if hasBranch && (branch == "" || !branchPart.MatchString(branch)) {
		return VCSQuery{}, invalid("a branch must follow @ (org/repo@branch, repo@branch)")
	}
	var v VCSQuery
	v.Branch = branch
	if org, repo, ok := strings.Cut(left, "/"); ok {
		v.Org, v.Repo = org, repo
		if !namePart.MatchString(org) {
			return VCSQuery{}, invalid("the organization in org/repo@branch is missing or not a name")
		}
	} else {
		v.Repo = left
	}
	if !namePart.MatchString(v.Repo) {
		return VCSQuery{}, invalid("search term must be org/repo@branch, repo@branch, repo or a commit of at least 8 hex characters")
	}
	return v, nil
}
