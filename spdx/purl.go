package spdx

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// purl is the part of a package URL (https://github.com/package-url/purl-spec) the explorer
// uses: the type, to know whether the package is an RPM, and the arch qualifier.
type purl struct {
	Type string // lower-cased: "rpm", "deb", "cargo", …
	Arch string // the decoded arch qualifier, or ""
}

// parsePurl reads pkg:type/namespace/name@version?qualifiers#subpath. It checks only what it
// needs to trust the fields it returns: the scheme, a type, a name, and well-formed qualifiers
// (key=value pairs with valid percent-escapes). Values are decoded as in a path, not a query:
// the purl spec percent-encodes "+" (generate_sbom writes %2B), so a bare "+" stays a "+".
func parsePurl(s string) (purl, error) {
	rest, ok := cutPrefixFold(s, "pkg:")
	if !ok {
		return purl{}, errors.New(`no "pkg:" scheme`)
	}
	rest = strings.TrimLeft(rest, "/")
	rest, _, _ = strings.Cut(rest, "#")
	rest, query, _ := strings.Cut(rest, "?")
	typ, nameVersion, _ := strings.Cut(rest, "/")
	if typ == "" {
		return purl{}, errors.New("no type")
	}
	for _, c := range typ {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '+' || c == '-') {
			return purl{}, fmt.Errorf("type %q has a character other than letters, digits, '.', '+', '-'", typ)
		}
	}
	nameVersion = strings.TrimRight(nameVersion, "/")
	if name, _, _ := strings.Cut(nameVersion[strings.LastIndexByte(nameVersion, '/')+1:], "@"); name == "" {
		return purl{}, errors.New("no name")
	}
	p := purl{Type: strings.ToLower(typ)}
	for query != "" {
		var pair string
		pair, query, _ = strings.Cut(query, "&")
		if pair == "" {
			continue
		}
		key, value, ok := strings.Cut(pair, "=")
		if !ok || key == "" {
			return purl{}, fmt.Errorf("qualifier %q is not key=value", pair)
		}
		v, err := url.PathUnescape(value)
		if err != nil {
			return purl{}, fmt.Errorf("qualifier %s: %v", key, err)
		}
		if strings.EqualFold(key, "arch") {
			p.Arch = v
		}
	}
	return p, nil
}

// cutPrefixFold is strings.CutPrefix ignoring ASCII case, because purl schemes and types are
// case-insensitive.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}
