package explorerweb

import (
	"net/url"
	"strings"

	"github.com/pocketforge/pocketforge/explorersvc"
)

// The rows the pages draw, with what the pages ask of them: a git reference in one line
// and a link only where there is a web address to follow.

// entry is a package the explorer found in a product.
type entry struct{ explorersvc.Entry }

// entriesOf wraps list.
func entriesOf(list []explorersvc.Entry) []entry {
	out := make([]entry, len(list))
	for i := range list {
		out[i] = entry{list[i]}
	}
	return out
}

// GitRef is the entry's git reference as the git search reads it (org/repo@branch), "" when
// it has none.
func (e entry) GitRef() string {
	pk := &e.Package
	if pk.VCSRepo == "" && pk.VCSURL == "" {
		return ""
	}
	ref := pk.VCSRepo
	if pk.VCSOrg != "" {
		ref = pk.VCSOrg + "/" + ref
	}
	if ref == "" {
		ref = pk.VCSURL
	}
	if pk.TrackingBranch != "" {
		ref += "@" + pk.TrackingBranch
	}
	return ref
}

// GitHref is the git repository's web address, "" when its URL is not one a browser opens.
func (e entry) GitHref() string { return webURL(e.Package.VCSURL) }

// ShortCommit is the first 12 characters of the commit the entry was built from.
func (e entry) ShortCommit() string { return short(e.Package.CommitHash) }

// fileRow is one package that ships a file a file search found.
type fileRow struct {
	Path, RPM string
	entry
}

// filesOf flattens a file search's answer to one row per file and package.
func filesOf(results []explorersvc.FileResult) []fileRow {
	var out []fileRow
	for _, r := range results {
		for _, e := range r.Entries {
			out = append(out, fileRow{Path: r.Path, RPM: r.RPM, entry: entry{e}})
		}
	}
	return out
}

// binary is a published binary a binary search found.
type binary struct{ explorersvc.BinaryResult }

// binariesOf lists the binaries with a git source first, as the API's answer does.
func binariesOf(found explorersvc.BinariesFound) []binary {
	out := make([]binary, 0, len(found.WithSCM)+len(found.WithoutSCM))
	for _, list := range [][]explorersvc.BinaryResult{found.WithSCM, found.WithoutSCM} {
		for _, r := range list {
			out = append(out, binary{r})
		}
	}
	return out
}

// Download is the binary's download address when a browser can open it.
func (b binary) Download() string { return webURL(b.DownloadURL) }

// Source is the binary's git source's web address, "" for none.
func (b binary) Source() string { return webURL(b.SourceURL) }

// GitRef is the binary's git source as org/repo ("" for none).
func (b binary) GitRef() string {
	if b.GitRepo == "" {
		return b.SourceURL
	}
	return b.GitOrg + "/" + b.GitRepo
}

// webURL is raw when it is an http or https address, else "" (a git@ or file address is
// shown as text, never linked).
func webURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return raw
}

// short is a commit hash cut to 12 characters, enough to tell commits apart on a page.
func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// searchHref is the search page's address for kind and q (the bare tab when q is blank).
func searchHref(kind, q string) string {
	if q = strings.TrimSpace(q); q == "" {
		return "/explorer?kind=" + kind
	}
	return "/explorer?kind=" + kind + "&q=" + url.QueryEscape(q)
}

// packageHref is the package page of name.
func packageHref(name string) string { return "/explorer/packages/" + url.PathEscape(name) }
