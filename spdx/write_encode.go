package spdx

import (
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// obsEscape percent-encodes s as generate_sbom's urlencode does (control characters, space,
// <>;"#?&+=% and every byte of a non-ASCII character), and the bytes of extra too: a purl
// segment escapes "/" and "@", which generate_sbom leaves alone, so a hostile name cannot
// change the purl's structure.
func obsEscape(s, extra string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`<>;"#?&+=%`, c) >= 0 || strings.IndexByte(extra, c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// rpmPurl is generate_sbom's gen_purl for an RPM:
// pkg:rpm/<vendor>/<name>@<version>-<release>?epoch=…&arch=…&upstream=…&distro=…, the vendor
// being the supplier's first word lower-cased ("SUSE LLC <…>" → suse).
func rpmPurl(r *ShippedRPM, distro string) string {
	var b strings.Builder
	b.WriteString("pkg:rpm/")
	vendor := strings.TrimPrefix(strings.ToLower(r.Supplier), "obs://") // third-party OBS builds
	vendor, _, _ = strings.Cut(vendor, " ")
	for _, seg := range strings.Split(vendor, "/") {
		if seg != "" {
			b.WriteString(obsEscape(seg, "/@") + "/")
		}
	}
	b.WriteString(obsEscape(r.Name, "/@"))
	vr := r.Version
	if r.Release != "" {
		vr += "-" + r.Release
	}
	if vr != "" {
		b.WriteString("@" + obsEscape(vr, "/@"))
	}
	sep := "?"
	qualifier := func(key, value string) {
		if value != "" {
			b.WriteString(sep + key + "=" + obsEscape(value, ""))
			sep = "&"
		}
	}
	if r.Epoch != 0 {
		qualifier("epoch", strconv.FormatUint(uint64(r.Epoch), 10))
	}
	qualifier("arch", r.Arch)
	qualifier("upstream", r.SourceRPM)
	qualifier("distro", distro)
	return b.String()
}

// vcsLocator writes g as the RPM VCS tag OBS sets for scmsync packages,
// https://host/org/repo?trackingbranch=branch#commit, escaping the parts so that ParseVCS
// reads them back whatever they hold.
func vcsLocator(g GitRef) (string, error) {
	u, err := url.Parse(g.BaseURL)
	switch {
	case err != nil:
		return "", fmt.Errorf("base URL %q: %v", g.BaseURL, err)
	case u.Scheme == "" || u.Host == "":
		return "", fmt.Errorf("base URL %q has no scheme or host", g.BaseURL)
	case strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "":
		// The explorer takes the first path segment as the org, so there is no room for a path.
		return "", fmt.Errorf("base URL %q has more than a scheme and a host", g.BaseURL)
	case u.User != nil:
		return "", fmt.Errorf("base URL %q holds user information, which must not be published", u.Redacted())
	case g.Org == "" || g.Repo == "":
		return "", errors.New("no org or repository")
	case g.Commit != "" && (!isHex(g.Commit) || len(g.Commit) < minCommitHex || len(g.Commit) > 64):
		return "", fmt.Errorf("commit %q is not 8 to 64 hex digits", g.Commit)
	case strings.ContainsFunc(u.Host, isSpace):
		return "", fmt.Errorf("base URL %q has a space in its host", g.BaseURL)
	}
	loc := u.Scheme + "://" + u.Host + "/" + url.PathEscape(g.Org) + "/" + url.PathEscape(g.Repo)
	if g.Branch != "" {
		loc += "?trackingbranch=" + url.QueryEscape(g.Branch)
	}
	if g.Commit != "" {
		loc += "#" + strings.ToLower(g.Commit)
	}
	return loc, nil
}

func isSpace(r rune) bool { return unicode.IsSpace(r) }

// packageID is an RPM's SPDXID before uniqueID: SPDXRef-Package-rpm-<name>-<arch>, readable
// and stable across rebuilds (generate_sbom appends the RPM's signature MD5 instead, which
// changes with every build).
func packageID(r ShippedRPM) string {
	id := "SPDXRef-Package-rpm-" + idString(r.Name)
	if r.Arch != "" {
		id += "-" + idString(r.Arch)
	}
	return id
}

// idString replaces every character outside SPDX's idstring set (letters, digits, ".", "-")
// with "-", as generate_sbom does.
func idString(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-') {
			return r
		}
		return '-'
	}, s)
}

// uniqueID returns id, or id-2, id-3, … when taken (two versions of one package, or names
// that idString made alike), and marks it taken. Packages come sorted, so the numbers are
// the same on every run.
func uniqueID(id string, taken map[string]bool) string {
	unique := id
	for n := 2; taken[unique]; n++ {
		unique = id + "-" + strconv.Itoa(n)
	}
	taken[unique] = true
	return unique
}

// licenseRefs are the licenses of a document that are not SPDX license expressions, by their
// lower-cased text, each declared once in hasExtractedLicensingInfos.
type licenseRefs map[string]jsonExtracted

// expression returns what licenseConcluded says for the LICENSE tag text: NOASSERTION for
// none, the text when it is a license expression, else a LicenseRef- named after the text
// (generate_sbom's spdx_encode_unknown_license) that list declares.
func (l licenseRefs) expression(text string) string {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return noAssertion
	case isLicenseExpression(text):
		return text
	}
	key := strings.ToLower(text)
	if e, ok := l[key]; ok {
		return e.LicenseID
	}
	base := "LicenseRef-" + idString(strings.TrimSuffix(key, "+"))
	if strings.HasSuffix(key, "+") {
		base += "-plus"
	}
	id := base
	for n := 2; l.hasID(id); n++ { // texts that differ only in characters idString drops
		id = base + "-" + strconv.Itoa(n)
	}
	l[key] = jsonExtracted{LicenseID: id, ExtractedText: text}
	return id
}

func (l licenseRefs) hasID(id string) bool {
	for _, e := range l {
		if e.LicenseID == id {
			return true
		}
	}
	return false
}

// list is hasExtractedLicensingInfos, sorted by text as generate_sbom sorts it.
func (l licenseRefs) list() []jsonExtracted {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]jsonExtracted, 0, len(keys))
	for _, k := range keys {
		out = append(out, l[k])
	}
	return out
}

// isLicenseExpression reports whether s has the syntax of an SPDX license expression (SPDX
// 2.3 Annex D): license ids (optionally with "+") joined by AND, OR and WITH, in parentheses.
// A LicenseRef- is refused, as the caller's text cannot declare it. It does not check the ids
// against the SPDX license list; the LICENSE tags of openSUSE and of our specs are expressions.
func isLicenseExpression(s string) bool {
	p := &licenseParser{tokens: licenseTokens(s)}
	return p.or() && p.i == len(p.tokens)
}

// licenseTokens splits s into parentheses and the words between them.
func licenseTokens(s string) []string {
	var tokens []string
	for _, field := range strings.Fields(s) {
		for field != "" {
			i := strings.IndexAny(field, "()")
			switch {
			case i < 0:
				tokens, field = append(tokens, field), ""
			case i > 0:
				tokens, field = append(tokens, field[:i]), field[i:]
			default:
				tokens, field = append(tokens, field[:1]), field[1:]
			}
		}
	}
	return tokens
}

// licenseParser is a recursive-descent parser of a license expression's tokens.
type licenseParser struct {
	tokens []string
	i      int
}

func (p *licenseParser) next(want string) bool {
	if p.i < len(p.tokens) && p.tokens[p.i] == want {
		p.i++
		return true
	}
	return false
}

// or is and-expression ("OR" and-expression)*.
func (p *licenseParser) or() bool {
	if !p.and() {
		return false
	}
	for p.next("OR") {
		if !p.and() {
			return false
		}
	}
	return true
}

// and is with-expression ("AND" with-expression)*.
func (p *licenseParser) and() bool {
	if !p.with() {
		return false
	}
	for p.next("AND") {
		if !p.with() {
			return false
		}
	}
	return true
}

// with is a parenthesized expression, or a license id with an optional "WITH exception".
func (p *licenseParser) with() bool {
	if p.next("(") {
		return p.or() && p.next(")")
	}
	if !p.id(true) {
		return false
	}
	if p.next("WITH") {
		return p.id(false)
	}
	return true
}

// id takes one license (plus allowed) or exception identifier.
func (p *licenseParser) id(plus bool) bool {
	if p.i >= len(p.tokens) {
		return false
	}
	t := p.tokens[p.i]
	switch t {
	case "AND", "OR", "WITH", "(", ")":
		return false
	}
	if plus {
		t = strings.TrimSuffix(t, "+")
	}
	// A LicenseRef- must be declared in the document, which only expression() does.
	if t == "" || idString(t) != t || strings.HasPrefix(strings.ToLower(t), "licenseref-") {
		return false
	}
	p.i++
	return true
}
