package product

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// setEntry is one entry of packagesets.
type setEntry struct {
	name   string
	line   int
	where  string
	arches []string // nil: every architecture
	pkgs   []pkgEntry
	add    []ref
}

// pkgEntry is one item of a package set's packages.
type pkgEntry struct {
	name, op, version string
	line              int
	where             string
}

// ref names a package set from content, unpack or add.
type ref struct {
	name  string
	line  int
	where string
}

// refusedSetKeys are package-set keys the farm does not support, with why.
var refusedSetKeys = map[string]string{
	"flavors":   "flavors are not supported: the farm builds the product once for each of its architectures",
	"sub":       "sub is not supported: list the packages to ship",
	"intersect": "intersect is not supported: list the packages to ship",
}

// packageSets reads the packagesets list.
func packageSets(n *yaml.Node, where string) ([]*setEntry, *Error) {
	items, err := list(n, where)
	if err != nil {
		return nil, err
	}
	if len(items) > MaxPackageSets {
		return nil, errorf(n.Line, where, "lists %d package sets; at most %d are allowed", len(items), MaxPackageSets)
	}
	var out []*setEntry
	total := 0
	for i, it := range items {
		w := index(where, i)
		if it.Kind != yaml.MappingNode {
			return nil, errorf(it.Line, w, "a package set must be a mapping (name:, packages: …), not %s", kindName(it))
		}
		ps, err := pairs(it, w)
		if err != nil {
			return nil, err
		}
		e := &setEntry{name: "main", line: it.Line, where: w}
		for _, p := range ps {
			pw := join(w, p.key)
			switch p.key {
			case "name":
				e.name, err = setName(p.value, pw)
			case "architectures":
				e.arches, err = arches(p.value, pw)
				if err == nil && e.arches == nil {
					err = errorf(p.value.Line, pw, "is empty: leave architectures out for a set of every architecture")
				}
			case "packages":
				e.pkgs, err = packages(p.value, pw, &total)
			case "add":
				e.add, err = refs(p.value, pw)
			case "supportstatus":
				_, err = scalar(p.value, pw)
			default:
				if why, ok := refusedSetKeys[p.key]; ok {
					return nil, errorf(p.line, pw, "%s", why)
				}
				return nil, errorf(p.line, w, "unknown package set key %s", quote(p.key))
			}
			if err != nil {
				return nil, err
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// setName reads a package set's name. product-composer also reads "name architecture=a
// flavor=f" where a set is named; the farm does not.
func setName(n *yaml.Node, where string) (string, *Error) {
	s, err := scalar(n, where)
	if err != nil {
		return "", err
	}
	if s == "__all__" {
		return "", errorf(n.Line, where, "the __all__ package set (every package available) is not supported: list the packages to ship")
	}
	if strings.ContainsAny(s, " \t") {
		return "", errorf(n.Line, where, "%s: package set names with architecture= or flavor= overrides are not supported", quote(s))
	}
	if e := checkName("package set", s); e != nil {
		return "", errorf(n.Line, where, "%v", e)
	}
	return s, nil
}

// refs reads a list of package set names (content, unpack, add).
func refs(n *yaml.Node, where string) ([]ref, *Error) {
	items, err := list(n, where)
	if err != nil {
		return nil, err
	}
	if len(items) > MaxPackageSets {
		return nil, errorf(n.Line, where, "names %d package sets; at most %d are allowed", len(items), MaxPackageSets)
	}
	var out []ref
	for i, it := range items {
		w := index(where, i)
		s, err := setName(it, w)
		if err != nil {
			return nil, err
		}
		out = append(out, ref{name: s, line: it.Line, where: w})
	}
	return out, nil
}

// pkgSpec is product-composer's package selector (core/PkgSelect.py): a name, then optionally
// an operator and an [epoch:]version[-release], spaces ignored.
var pkgSpec = regexp.MustCompile(`^([^<>=]*)([<>=]=?)(.*)$`)

// packages reads a package set's packages: valid names, each once in the list, and counts
// them against MaxPackages.
func packages(n *yaml.Node, where string, total *int) ([]pkgEntry, *Error) {
	items, err := list(n, where)
	if err != nil {
		return nil, err
	}
	if *total += len(items); *total > MaxPackages {
		return nil, errorf(n.Line, where, "the package sets list more than %d packages", MaxPackages)
	}
	var out []pkgEntry
	first := map[string]int{}
	for i, it := range items {
		w := index(where, i)
		s, err := scalar(it, w)
		if err != nil {
			return nil, err
		}
		p, perr := parsePackage(s)
		if perr != nil {
			return nil, errorf(it.Line, w, "%v", perr)
		}
		p.line, p.where = it.Line, w
		if l, ok := first[p.name]; ok {
			return nil, errorf(it.Line, w, "%s is listed twice (first on line %d)", p.name, l)
		}
		first[p.name] = it.Line
		out = append(out, p)
	}
	return out, nil
}

func parsePackage(s string) (pkgEntry, error) {
	if len(s) > MaxNameLen+140 {
		return pkgEntry{}, fmt.Errorf("%s is too long for a package and its version", quote(s))
	}
	compact := strings.Join(strings.Fields(s), "")
	m := pkgSpec.FindStringSubmatch(compact)
	if m == nil {
		if err := CheckPackage(compact); err != nil {
			return pkgEntry{}, err
		}
		return pkgEntry{name: compact}, nil
	}
	name, op, evr := m[1], m[2], m[3]
	if err := CheckPackage(name); err != nil {
		return pkgEntry{}, err
	}
	if op == "==" {
		op = "="
	}
	if err := checkEVR(evr); err != nil {
		return pkgEntry{}, fmt.Errorf("%s: %v", name, err)
	}
	return pkgEntry{name: name, op: op, version: evr}, nil
}

// expand computes what the product ships, as product-composer does for each architecture
// (utils/rpmutils.py, create_package_set_cached): the entries that apply to the arch, the
// entry sets (content and unpack) and what they add, recursively; then it merges the
// architectures into Definition.Packages.
func expand(d *Definition, sets []*setEntry, entry []ref) *Error {
	type shipped struct {
		pkg    pkgEntry
		arches []string
	}
	byName := map[string]*shipped{}
	known := map[string]bool{}
	for _, e := range sets {
		known[e.name] = true
	}
	for _, arch := range d.Architectures {
		raw := map[string]*setEntry{}
		for _, e := range sets {
			if e.arches != nil && !slices.Contains(e.arches, arch) {
				continue
			}
			if prev := raw[e.name]; prev != nil {
				return errorf(e.line, e.where, "package set %q is already defined for %s on line %d", e.name, arch, prev.line)
			}
			raw[e.name] = e
		}
		got := map[string]pkgEntry{}
		state := map[string]int{} // 1: being expanded, 2: done
		var visit func(r ref, chain []string) *Error
		visit = func(r ref, chain []string) *Error {
			if !known[r.name] {
				if r.line == 0 {
					return errorf(0, r.where, "package set %q does not exist: name one package set main (a set without a name is main) or list the sets to ship in content", r.name)
				}
				return errorf(r.line, r.where, "package set %q does not exist", r.name)
			}
			switch state[r.name] {
			case 1:
				return errorf(r.line, r.where, "package set %q includes itself (%s → %s)", r.name, strings.Join(chain, " → "), r.name)
			case 2:
				return nil
			}
			state[r.name] = 1
			if e := raw[r.name]; e != nil {
				for _, p := range e.pkgs {
					if q, ok := got[p.name]; ok && (q.op != p.op || q.version != p.version) {
						return errorf(p.line, p.where, "%s is also listed with another version constraint on line %d; give one", p.name, q.line)
					} else if !ok {
						got[p.name] = p
					}
				}
				for _, a := range e.add {
					if err := visit(a, append(chain, r.name)); err != nil {
						return err
					}
				}
			}
			state[r.name] = 2
			return nil
		}
		for _, r := range entry {
			if err := visit(r, nil); err != nil {
				return err
			}
		}
		if len(got) == 0 {
			return errorf(0, "packagesets", "the product ships no packages on %s", arch)
		}
		for name, p := range got {
			s := byName[name]
			if s == nil {
				s = &shipped{pkg: p}
				byName[name] = s
			} else if s.pkg.op != p.op || s.pkg.version != p.version {
				return errorf(p.line, p.where, "%s is listed with another version constraint for %s than on line %d; give one", name, arch, s.pkg.line)
			}
			s.arches = append(s.arches, arch)
		}
	}
	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s := byName[name]
		p := Package{Name: name, Op: s.pkg.op, Version: s.pkg.version, Line: s.pkg.line}
		if len(s.arches) < len(d.Architectures) {
			p.Arches = s.arches
		}
		d.Packages = append(d.Packages, p)
	}
	return nil
}
