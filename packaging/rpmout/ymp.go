package rpmout

import (
	"encoding/xml"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// OneClickNS is the namespace of the one-click-install (ymp) document.
const OneClickNS = "http://opensuse.org/Standards/One_Click_Install"

// Metapackage is the ymp document GET /published/<project>/<repository>/<arch>/<binary>?view=ymp
// answers: the repositories a user must add to install the binary, and the binary. The types
// are plain structs with encoding/xml tags; the caller renders them (xml.MarshalIndent), with
// the same element order and attributes as the OBS backend's ymp.
type Metapackage struct {
	XMLName xml.Name   `xml:"metapackage"`
	XMLNSOS string     `xml:"xmlns:os,attr"`
	XMLNS   string     `xml:"xmlns,attr"`
	Groups  []YMPGroup `xml:"group"`
}

// YMPGroup is one set of repositories and software; one per ympdist publish flag, else one
// without a distversion.
type YMPGroup struct {
	Recommended  string          `xml:"recommended,attr,omitempty"`
	DistVersion  string          `xml:"distversion,attr,omitempty"`
	Repositories YMPRepositories `xml:"repositories"`
	Software     YMPSoftware     `xml:"software"`
}

// YMPRepositories wraps the repository list so that an empty list still renders
// <repositories></repositories>, as OBS does.
type YMPRepositories struct {
	Repository []YMPRepository `xml:"repository"`
}

// YMPRepository is one repository to add: recommended is "true" for all but the last of the
// path (the base distribution the user already has), and for a path of one.
type YMPRepository struct {
	Recommended string `xml:"recommended,attr"`
	Name        string `xml:"name"`        // the project name
	Summary     string `xml:"summary"`     // the project title
	Description string `xml:"description"` // the project description
	URL         string `xml:"url"`
}

// YMPSoftware wraps the item list.
type YMPSoftware struct {
	Item []YMPItem `xml:"item"`
}

// YMPItem is the binary to install.
type YMPItem struct {
	Name        string `xml:"name"`
	Summary     string `xml:"summary"`
	Description string `xml:"description"`
}

// YMPInput is what the ymp of one binary is made from.
type YMPInput struct {
	// Binary is the package name (BinaryName turns a file name into it); Summary and
	// Description are its header's, "" meaning "The <name> package" as OBS says when it
	// cannot read the binary.
	Binary, Summary, Description string
	// Path is the binary's repository followed by the repositories on its path, expanded
	// and in order, as OBS walks them.
	Path []YMPPathEntry
	// DistVersions are the repository's "ympdist:<name>" publish flags, one group each;
	// usually none.
	DistVersions []string
}

// YMPPathEntry is one repository on the path, with its project's title and description.
type YMPPathEntry struct {
	Project, Repository string
	Title, Description  string
	// URL is where the repository is published (RepositoryURL builds OBS's download
	// layout from a base URL). An entry without a URL is left out, as OBS leaves out a
	// repository it has no download URL for.
	URL string
}

// YMP builds the one-click-install document of a binary.
func YMP(in YMPInput) Metapackage {
	var repos []YMPRepository
	seen := map[[2]string]bool{}
	for i, p := range in.Path {
		key := [2]string{p.Project, p.Repository}
		if seen[key] {
			continue
		}
		seen[key] = true
		if p.URL == "" {
			continue
		}
		recommended := "false"
		if i < len(in.Path)-1 || len(repos) == 0 {
			recommended = "true"
		}
		repos = append(repos, YMPRepository{
			Recommended: recommended, Name: p.Project, Summary: p.Title, Description: p.Description, URL: p.URL,
		})
	}
	item := YMPItem{Name: in.Binary, Summary: in.Summary, Description: in.Description}
	if item.Summary == "" {
		item.Summary = "The " + in.Binary + " package"
	}
	if item.Description == "" {
		item.Description = "The " + in.Binary + " package"
	}
	group := YMPGroup{Repositories: YMPRepositories{repos}, Software: YMPSoftware{[]YMPItem{item}}}
	doc := Metapackage{XMLNSOS: OneClickNS, XMLNS: OneClickNS}
	seenDist := map[string]bool{}
	for _, d := range in.DistVersions {
		if !seenDist[d] {
			seenDist[d] = true
			g := group
			g.DistVersion = d
			doc.Groups = append(doc.Groups, g)
		}
	}
	if len(doc.Groups) == 0 {
		doc.Groups = []YMPGroup{group}
	}
	return doc
}

// RepositoryURL is a repository's URL on an OBS-style download server: base, then the project
// with every ":" followed by "/" (home:alice → home:/alice), then the repository, with a final
// slash, e.g. https://download.example.org/repositories/home:/alice/openSUSE_Tumbleweed/.
// Path segments are escaped; ":" and "/" from the mapping stay as they are.
func RepositoryURL(base, project, repository string) string {
	parts := strings.Split(project, ":")
	for i := range parts {
		parts[i] = url.PathEscape(parts[i])
	}
	return strings.TrimRight(base, "/") + "/" + strings.Join(parts, ":/") + "/" + url.PathEscape(repository) + "/"
}

// The file name shapes OBS reads a binary name from: name-version-release.arch.rpm,
// name_version_arch.deb, or name.rpm/name.deb.
var (
	rpmFileRE   = regexp.MustCompile(`(?:^|/)([^/]+)-[^-]+-[^-]+\.[a-zA-Z][^/.\-]*\.rpm$`)
	debFileRE   = regexp.MustCompile(`(?:^|/)([^/]+)_[^/]*_[^/]*\.deb$`)
	plainFileRE = regexp.MustCompile(`(?:^|/)([^/]+)\.(?:rpm|deb)$`)
)

// BinaryName is the package name in the binary part of a ymp URL, which may be a file name
// ("foo-devel-1.0-1.1.x86_64.rpm" → "foo-devel") or already a name ("foo-devel").
func BinaryName(binary string) string {
	for _, re := range []*regexp.Regexp{rpmFileRE, debFileRE, plainFileRE} {
		if m := re.FindStringSubmatch(binary); m != nil {
			return m[1]
		}
	}
	if binary == "" {
		return ""
	}
	return path.Base(binary)
}
