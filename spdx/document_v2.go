package spdx

import (
	"errors"
	"fmt"
	"strings"
)

// documentSPDXID is the SPDXID every SPDX 2 document has.
const documentSPDXID = "SPDXRef-DOCUMENT"

// readPackage2 reads packages[i], taking the fields packageFrom maps and skipping the rest
// (licenses, checksums, supplier, …) without keeping them.
func (p *docParser) readPackage2(i int) error {
	l := p.lx
	if c := l.peek(); c != '{' {
		l.wrongType("the package", c, "an object")
		return nil
	}
	var id, name, version string
	var refs packageRefs
	var skip bool
	for n := 0; l.nextMember(&n); {
		switch string(l.key) {
		case "SPDXID":
			id = l.text("SPDXID")
		case "name":
			name = l.text("name")
		case "versionInfo":
			version = l.text("versionInfo")
		case "sourceInfo":
			// The value is read before the ||: a short-circuit would leave it unread and the
			// reader out of step with the document.
			pseudo := isRepositoryPseudo(string(l.textBytes("sourceInfo")))
			skip = skip || pseudo
		case "primaryPackagePurpose":
			os := isOperatingSystem(string(l.textBytes("primaryPackagePurpose")))
			skip = skip || os
		case "externalRefs":
			p.readRefs2(&refs)
		default:
			l.skip()
		}
	}
	if l.err != nil {
		return nil
	}
	pkg, err := packageFrom(name, version, refs)
	if err != nil {
		return fmt.Errorf("%s: packages[%d]: %v", p.source, i, err)
	}
	if id == rootSPDXID {
		p.sawRoot = true
	}
	meta := packageMeta{id: id, skip: skip}
	return p.addPackage("packages", i, pkg, meta)
}

// readRefs2 reads a package's externalRefs: purl, vcs and obs-disturl for generate_sbom.
func (p *docParser) readRefs2(refs *packageRefs) {
	l := p.lx
	switch c := l.peek(); c {
	case 'n':
		l.literal("null")
		return
	case '[':
	default:
		l.wrongType("externalRefs", c, "an array")
		return
	}
	for n := 0; l.nextElem(&n); {
		if c := l.peek(); c != '{' {
			l.wrongType(fmt.Sprintf("externalRefs[%d]", n-1), c, "an object")
			return
		}
		var typ refType
		var locator string
		for m := 0; l.nextMember(&m); {
			switch string(l.key) {
			case "referenceType":
				typ = refTypeOf(l.textBytes("referenceType"))
			case "referenceLocator":
				locator = l.text("referenceLocator")
			default:
				l.skip()
			}
		}
		switch typ {
		case refPurl:
			refs.setPurl(locator)
		case refVCS:
			refs.setVCS(locator)
		case refDistURL:
			refs.setDistURL(locator)
		}
	}
}

// refType is a referenceType the explorer reads.
type refType int

const (
	refOther refType = iota
	refPurl
	refVCS
	refDistURL
)

// refTypeOf classifies a referenceType without allocating, as it runs for every reference.
func refTypeOf(b []byte) refType {
	switch {
	case strings.EqualFold(string(b), "purl"):
		return refPurl
	case strings.EqualFold(string(b), "vcs"):
		return refVCS
	case strings.EqualFold(string(b), "obs-disturl"):
		return refDistURL
	}
	return refOther
}

// readRelationship2 reads relationships[i], keeping what the document says it describes.
func (p *docParser) readRelationship2(int) error {
	l := p.lx
	if c := l.peek(); c != '{' {
		l.wrongType("the relationship", c, "an object")
		return nil
	}
	var from, to, typ string
	for n := 0; l.nextMember(&n); {
		switch string(l.key) {
		case "spdxElementId":
			from = l.text("spdxElementId")
		case "relatedSpdxElement":
			to = l.text("relatedSpdxElement")
		case "relationshipType":
			typ = l.text("relationshipType")
		default:
			l.skip()
		}
	}
	switch {
	case strings.EqualFold(typ, "DESCRIBES") && from == documentSPDXID:
		p.addCandidates(to)
	case strings.EqualFold(typ, "DESCRIBED_BY") && to == documentSPDXID:
		p.addCandidates(from)
	}
	return nil
}

// packageRefs are the locators of one package's references; the first of each type wins.
type packageRefs struct {
	purl, vcs, distURL string
}

func (r *packageRefs) setPurl(s string) {
	if r.purl == "" {
		r.purl = s
	}
}

func (r *packageRefs) setVCS(s string) {
	if r.vcs == "" {
		r.vcs = s
	}
}

func (r *packageRefs) setDistURL(s string) {
	if r.distURL == "" {
		r.distURL = s
	}
}

// packageFrom maps one SBOM package onto the explorer's Package (explorer-notes §3.2), the
// same for SPDX 2 and 3:
//   - Name is the package name; a package without one cannot be searched and is an error.
//   - Arch is the purl's arch qualifier; a purl that does not parse is an error, because the
//     arch and file name would silently go missing otherwise.
//   - Version is versionInfo without an "epoch:" prefix, as RPM file names carry none.
//   - Filename is name-version.arch.rpm, only for rpm purls with both parts known: a .rpm name
//     for a cargo crate or a Debian package would be invented.
//   - the VCS fields come from ParseVCS; a locator it cannot read leaves them empty rather than
//     failing the product, since the package itself is still valid.
//   - DistURL is the obs-disturl locator as written.
func packageFrom(name, version string, refs packageRefs) (Package, error) {
	if name == "" {
		return Package{}, errors.New("no name")
	}
	pkg := Package{Name: name, Version: dropEpoch(version), DistURL: refs.distURL}
	if refs.purl != "" {
		pu, err := parsePurl(refs.purl)
		if err != nil {
			return Package{}, fmt.Errorf("%s: purl %q: %v", name, refs.purl, err)
		}
		pkg.Arch = pu.Arch
		if pu.Type == "rpm" && pkg.Arch != "" && pkg.Version != "" {
			pkg.Filename = name + "-" + pkg.Version + "." + pkg.Arch + ".rpm"
		}
	}
	if v, ok := ParseVCS(refs.vcs); ok {
		pkg.VCSURL, pkg.VCSOrg, pkg.VCSRepo = v.URL, v.Org, v.Repo
		pkg.TrackingBranch, pkg.CommitHash = v.Branch, v.Commit
	}
	return pkg, nil
}

// dropEpoch removes an "N:" epoch prefix from an RPM version.
func dropEpoch(v string) string {
	i := strings.IndexByte(v, ':')
	if i <= 0 {
		return v
	}
	for _, c := range v[:i] {
		if c < '0' || c > '9' {
			return v
		}
	}
	return v[i+1:]
}

// isRepositoryPseudo reports whether sourceInfo marks generate_sbom's rpm-md "repository"
// package, which stands for the repository metadata (its version is the primary.xml checksum),
// not for an RPM.
func isRepositoryPseudo(sourceInfo string) bool {
	return sourceInfo == "acquired package info from repomd.xml"
}

// isOperatingSystem reports whether a primary purpose is operating system: OPERATING-SYSTEM in
// SPDX 2, operatingSystem in SPDX 3. Such entries describe the base system of an image.
func isOperatingSystem(purpose string) bool {
	const want = "operatingsystem"
	j := 0
	for i := 0; i < len(purpose); i++ {
		c := purpose[i]
		if c == '-' || c == '_' {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if j >= len(want) || c != want[j] {
			return false
		}
		j++
	}
	return j == len(want)
}
