package search

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/antchfx/xmlquery"
	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Candidates of a search: the records its plan's equalities (xpath.Query.Plan) allow, read
// from what the store already keys, so that osc's lookups after every co, ci and up read the
// requests of one package instead of all. Every candidate is still evaluated; a search whose
// plan has no equality the store answers exactly streams every record.

// requestIndexes are the request index kinds (buildstore.IndexKey) that answer an equality of
// a request search exactly: the request's document has the key with the value if and only if
// the index lists the request under it. The index keeps the values OBS compares ignoring case
// in lower case (buildstore.IndexKey), so it answers an equality in any case (Eq.Fold).
var requestIndexes = map[string]string{
	"state/@name":            buildstore.IndexState,
	"state/@who":             buildstore.IndexStateWho,
	"history/@who":           buildstore.IndexHistoryWho,
	"@creator":               buildstore.IndexCreator,
	"action/@type":           buildstore.IndexType,
	"action/target/@project": buildstore.IndexTarget,
	"action/source/@project": buildstore.IndexSource,
	"review/@by_user":        buildstore.IndexReviewUser,
}

// usable reports whether every equality of term has an index in kinds that answers it: an
// exact one (values with a NUL cannot be index keys; no record holds one), which an equality
// that ignores case (Eq.Fold) may use only when folds says so.
func usable(term []xpath.Eq, kinds map[string]string, folds bool) bool {
	for _, eq := range term {
		if kinds[eq.Key] == "" || strings.ContainsRune(eq.Value, 0) || eq.Fold && !folds {
			return false
		}
	}
	return len(term) > 0
}

// requestCandidates are the ids, ascending, that the usable terms of plan allow (each term's
// index entries together, intersected across terms); ok is false when no term is usable.
func requestCandidates(tx kv.Tx, plan [][]xpath.Eq) (ids []uint64, ok bool, err error) {
	for _, term := range plan {
		if !usable(term, requestIndexes, true) {
			continue
		}
		var union []uint64
		for _, eq := range term {
			got, err := buildstore.RequestIDs(tx, buildstore.IndexKey(requestIndexes[eq.Key], eq.Value))
			if err != nil {
				return nil, false, err
			}
			union = append(union, got...)
		}
		slices.Sort(union)
		union = slices.Compact(union)
		if ok {
			union = slices.DeleteFunc(union, func(id uint64) bool { _, found := slices.BinarySearch(ids, id); return !found })
		}
		ids, ok = union, true
	}
	return ids, ok, nil
}

// plannedValues are the values of key that a matching record must have, when one term of plan
// is equalities on key alone (a package search's @project, a project search's @name); ok is
// false when no such term exists.
func plannedValues(plan [][]xpath.Eq, key string) (values []string, ok bool) {
	for _, term := range plan {
		if !usable(term, map[string]string{key: key}, false) {
			continue
		}
		var these []string
		for _, eq := range term {
			these = append(these, eq.Value)
		}
		slices.Sort(these)
		these = slices.Compact(these)
		if ok {
			these = slices.DeleteFunc(these, func(v string) bool { return !slices.Contains(values, v) })
		}
		values, ok = these, true
	}
	return values, ok
}

// Cheaper than a document: what a candidate's key and stored bytes already say.

// Verbatim keys: the document's value at the key is a string field of the stored record,
// copied as it is (requestdoc.Render, metadoc.FromPackage, metadoc.FromProject), so a record
// whose document has the value holds its JSON string in its stored bytes.
var (
	requestVerbatim = keySet("@creator", "state/@name", "state/@who", "action/@type",
		"action/target/@project", "action/target/@package", "action/source/@project",
		"action/source/@package", "review/@by_user", "review/@by_group", "review/@by_project",
		"review/@by_package", "review/@state", "history/@who")
	packageVerbatim = keySet("@name", "@project", "devel/@project", "devel/@package",
		"person/@userid", "person/@role", "group/@groupid", "group/@role")
	projectVerbatim = keySet("@name", "person/@userid", "person/@role", "group/@groupid", "group/@role")
)

func keySet(keys ...string) map[string]string {
	m := map[string]string{}
	for _, k := range keys {
		m[k] = k
	}
	return m
}

// byteFilter tests a candidate's stored JSON against the plan's terms whose every equality is
// on a verbatim key: a document matches only if each such term has an equality whose value
// (JSON-quoted; in any case for an equality that ignores case) is somewhere in the record's
// bytes. A pass proves nothing (the bytes may be another field's); a failure proves the
// document does not match, without decoding it. One filter serves one search (it keeps a
// buffer).
type byteFilter struct {
	terms   [][]needle
	lowered []byte // the record being tested, in lower case (lowerASCII), once a needle asks
}

// needle is a JSON-quoted value the filter looks for; one that ignores case is looked for as
// written, then in lower case in the record in lower case. The verbatim keys hold names and
// logins, which are ASCII (ValidProjectName, ValidLogin), so no other byte folds to one of
// theirs.
type needle struct {
	quoted []byte
	lower  []byte // nil for a needle that heeds case
}

// newByteFilter takes the terms of plan it can test. A value is tested only when encoding/json
// writes it as it is between quotes (printable ASCII but for the characters it escapes).
func newByteFilter(plan [][]xpath.Eq, verbatim map[string]string) *byteFilter {
	f := &byteFilter{}
	for _, term := range plan {
		if !usable(term, verbatim, true) {
			continue
		}
		var needles []needle
		for _, eq := range term {
			if !plainJSON(eq.Value) {
				needles = nil
				break
			}
			n := needle{quoted: []byte(`"` + eq.Value + `"`)}
			if eq.Fold {
				n.lower = bytes.ToLower(n.quoted)
			}
			// rq list -U asks for one login in two places; a needle that ignores case stands
			// for one that heeds it
			if i := slices.IndexFunc(needles, func(have needle) bool { return bytes.Equal(have.quoted, n.quoted) }); i < 0 {
				needles = append(needles, n)
			} else if n.lower != nil {
				needles[i] = n
			}
		}
		if needles != nil {
			f.terms = append(f.terms, needles)
		}
	}
	return f
}

func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return s != ""
}

// pass reports whether raw may be a match's record.
func (f *byteFilter) pass(raw []byte) bool {
	lowered := false
	for _, needles := range f.terms {
		found := false
		for _, n := range needles {
			if quoted(raw, n.quoted) {
				found = true
				break
			}
			if n.lower != nil {
				if !lowered {
					f.lowered, lowered = lowerASCII(f.lowered, raw), true
				}
				if quoted(f.lowered, n.lower) {
					found = true
					break
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// keyDoc is a document of a root element with some attributes only, reused for every
// candidate: a predicate that reads nothing else (xpath.Query.ReadsOnly) answers on it what it
// answers on the record's whole document, without the record being decoded.
type keyDoc struct{ doc, el *xmlquery.Node }

func newKeyDoc(root string, attrs ...string) keyDoc {
	d := keyDoc{doc: &xmlquery.Node{Type: xmlquery.DocumentNode}, el: &xmlquery.Node{Type: xmlquery.ElementNode, Data: root}}
	for _, a := range attrs {
		d.el.Attr = append(d.el.Attr, xmlquery.Attr{Name: xml.Name{Local: a}})
	}
	xmlquery.AddChild(d.doc, d.el)
	return d
}

// with sets the attributes' values, in newKeyDoc's order, and answers the document.
func (d keyDoc) with(values ...string) *xmlquery.Node {
	for i, v := range values {
		d.el.Attr[i].Value = v
	}
	return d.doc
}

// projectGate says whether the packages of a project may be listed to who: the project lives
// and is not hidden from who; asked once per project of a search.
type projectGate struct {
	tx   kv.Tx
	who  buildstore.Person
	seen map[string]bool
}

func newProjectGate(tx kv.Tx, who buildstore.Person) *projectGate {
	return &projectGate{tx: tx, who: who, seen: map[string]bool{}}
}

func (g *projectGate) open(project string) bool {
	ok, known := g.seen[project]
	if !known {
		ok = buildstore.ProjectLive(g.tx, project) && (g.who.IsAdmin() || !buildsvc.ProjectHiddenFrom(g.tx, g.who, project))
		g.seen[project] = ok
	}
	return ok
}

// holderKeys are the keys of a package or project document the role index answers: a
// document has person/@userid u (group/@groupid g) only if the index lists u (g) in it.
var holderKeys = keySet("person/@userid", "group/@groupid")

// holderPlaces are the places the first term of plan on holderKeys alone allows, by project
// and package; ok is false when there is no such term. A group's title compares ignoring case
// (OBS's groups.title is a *_ci column): such an equality reads the places of every group the
// role index names in any case of it.
func holderPlaces(tx kv.Tx, plan [][]xpath.Eq) (places []buildstore.RolePlace, ok bool, err error) {
	for _, term := range plan {
		if !usable(term, holderKeys, true) || slices.ContainsFunc(term, func(eq xpath.Eq) bool {
			return eq.Key == "person/@userid" && strings.Contains(eq.Value, ":") // a group's holder
		}) {
			continue
		}
		for _, eq := range term {
			holders := []string{eq.Value}
			if eq.Key == "group/@groupid" {
				if holders, err = buildstore.GroupHolders(tx, eq.Value, eq.Fold); err != nil {
					return nil, false, err
				}
			}
			for _, holder := range holders {
				got, err := buildstore.HolderPlaces(tx, holder)
				if err != nil {
					return nil, false, err
				}
				places = append(places, got...)
			}
		}
		slices.SortFunc(places, comparePlaces)
		return slices.Compact(places), true, nil
	}
	return nil, false, nil
}

func comparePlaces(a, b buildstore.RolePlace) int {
	if c := strings.Compare(a.Project, b.Project); c != 0 {
		return c
	}
	return strings.Compare(a.Package, b.Package)
}

// eachPackageCandidate calls fn with the packages plan allows, by project and name: those of
// the projects (and names) its @project (and @name) equalities name, or of the places the role
// index gives for a person or group, or else every package, by one cursor. Tombstones may be
// among them (buildstore.Tombstone).
func eachPackageCandidate(tx kv.Tx, q *xpath.Query, plan [][]xpath.Eq, fn func(project, name string, raw []byte) (bool, error)) error {
	projects, byProject := plannedValues(plan, "@project")
	names, byName := plannedValues(plan, "@name")
	if byProject {
		for _, prj := range projects {
			if !byName {
				if err := buildstore.EachRawPackage(tx, buildstore.PackagePrefix(prj), fn); err != nil {
					return err
				}
				continue
			}
			for _, name := range names {
				if raw := buildstore.RawPackage(tx, prj, name); raw != nil {
					if more, err := fn(prj, name, raw); err != nil || !more {
						return err
					}
				}
			}
		}
		return nil
	}
	places, byHolder, err := holderPlaces(tx, plan)
	if err != nil || !byHolder {
		if prefix, ok := q.Prefix("@project"); ok && err == nil {
			return buildstore.EachRawPackage(tx, []byte(prefix), fn)
		}
		return errors.Join(err, buildstore.EachRawPackage(tx, nil, fn))
	}
	for _, pl := range places {
		if pl.Package == "" || byName && !slices.Contains(names, pl.Package) {
			continue
		}
		if raw := buildstore.RawPackage(tx, pl.Project, pl.Package); raw != nil {
			if more, err := fn(pl.Project, pl.Package, raw); err != nil || !more {
				return err
			}
		}
	}
	return nil
}

// eachProjectCandidate calls fn with the live projects plan allows, by name: those its @name
// equalities name, or the places of a person or group, or else every project, by one cursor.
func eachProjectCandidate(tx kv.Tx, q *xpath.Query, plan [][]xpath.Eq, fn func(name string, raw []byte) (bool, error)) error {
	var names []string
	if byName, ok := plannedValues(plan, "@name"); ok {
		names = byName
	} else {
		places, byHolder, err := holderPlaces(tx, plan)
		if err != nil || !byHolder {
			if prefix, ok := q.Prefix("@name"); ok && err == nil {
				return buildstore.EachRawProjectUnder(tx, []byte(prefix), fn)
			}
			return errors.Join(err, buildstore.EachRawProject(tx, fn))
		}
		for _, pl := range places {
			if pl.Package == "" {
				names = append(names, pl.Project)
			}
		}
	}
	for _, name := range names {
		if raw := buildstore.RawProject(tx, name); raw != nil {
			if more, err := fn(name, raw); err != nil || !more {
				return err
			}
		}
	}
	return nil
}

// quoted reports whether raw holds n (a value between quotes). It looks for the value and its
// closing quote first: JSON is full of quotes, and a search that starts from each of them is
// several times slower than one that starts from the value's first byte.
func quoted(raw, n []byte) bool {
	tail := n[1:]
	for i := 1; i < len(raw); {
		j := bytes.Index(raw[i:], tail)
		if j < 0 {
			return false
		}
		if raw[i+j-1] == '"' {
			return true
		}
		i += j + 1
	}
	return false
}

// lowerASCII writes src with its ASCII letters in lower case into dst's array (grown when
// short), eight bytes at a time: a byte's high bit marks, after two additions that cannot carry
// into the next byte, whether it lies in 'A'..'Z'; that bit moved to 0x20 lowers it. Bytes
// beyond ASCII are copied as they are.
func lowerASCII(dst, src []byte) []byte {
	dst = slices.Grow(dst[:0], len(src))[:len(src)]
	const hi, lo7 = 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	i := 0
	for ; i+8 <= len(src); i += 8 {
		w := binary.LittleEndian.Uint64(src[i:])
		h := w & lo7
		atLeastA := h + 0x3f3f3f3f3f3f3f3f // 0x80 - 'A'
		pastZ := h + 0x2525252525252525    // 0x80 - 'Z' - 1
		upper := atLeastA &^ pastZ &^ w & hi
		binary.LittleEndian.PutUint64(dst[i:], w|upper>>2)
	}
	for ; i < len(src); i++ {
		c := src[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst[i] = c
	}
	return dst
}
