package product

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// ignoredKeys are productcompose keys that shape the medium (its layout, ISO headers, source
// and debug media, update info, SCC data), not what it ships nor its SBOM: accepted, not read.
var ignoredKeys = map[string]bool{
	"build_options": true, "source": true, "debug": true, "repodata": true, "iso": true,
	"scc": true, "installcheck": true, "bcntsynctag": true, "product_directory_name": true,
	"edition": true, "update": true, "description": true, "set_updateinfo_from": true,
	"set_updateinfo_id_prefix": true, "block_updates_under_embargo": true,
}

// refusedKeys are productcompose keys the farm does not support, with what to do instead.
var refusedKeys = map[string]string{
	"flavors":              "flavors are not supported: the farm builds the product once for each of its architectures",
	"remove_build_options": "remove_build_options belongs to flavors, which are not supported",
	"version_from_package": "version_from_package is not supported: give the version",
	"packages":             "a top-level packages list is ignored by product-composer: put the packages in a package set (packagesets: - packages: […])",
}

// required are the keys every definition has, with why.
var required = []struct{ key, why string }{
	{"product_compose_schema", "give the productcompose schema version, 0.1 or 0.2"},
	{"vendor", "the SBOM names the vendor as the packages' supplier"},
	{"name", "every product needs a name"},
	{"version", "every product needs a version"},
	{"architectures", "list the architectures the product is built for"},
	{"packagesets", "list the packages the product ships in a package set"},
}

// readDefinition reads the top-level mapping.
func readDefinition(root *yaml.Node) (*Definition, *Error) {
	ps, err := pairs(root, "")
	if err != nil {
		return nil, err
	}
	d := &Definition{}
	var sets []*setEntry
	var content, unpack []ref
	seen := map[string]bool{}
	for _, p := range ps {
		seen[p.key] = true
		v := p.value
		switch p.key {
		case "product_compose_schema":
			d.Schema, err = scalar(v, p.key)
			if err == nil && d.Schema != "0.1" && d.Schema != "0.2" {
				err = errorf(v.Line, p.key, "unsupported schema version %s: product-composer reads 0.1 and 0.2", quote(d.Schema))
			}
		case "vendor":
			d.Vendor, err = text(v, p.key)
		case "name":
			d.Name, err = checked(v, p.key, CheckName)
		case "version":
			d.Version, err = checked(v, p.key, CheckVersion)
		case "summary":
			d.Summary, err = text(v, p.key)
		case "product-type":
			d.ProductType, err = scalar(v, p.key)
			if err == nil && d.ProductType != "base" && d.ProductType != "module" && d.ProductType != "extension" {
				err = errorf(v.Line, p.key, "%s is not base, module or extension", quote(d.ProductType))
			}
		case "milestone":
			d.Milestone, err = checked(v, p.key, checkMilestone)
		case "architectures":
			d.Architectures, err = arches(v, p.key)
			if err == nil && len(d.Architectures) == 0 {
				err = errorf(v.Line, p.key, "is empty: %s", required[4].why)
			}
		case "repositories":
			d.Repositories, err = repositories(v, p.key)
		case "content":
			content, err = refs(v, p.key)
		case "unpack":
			unpack, err = refs(v, p.key)
		case "packagesets":
			sets, err = packageSets(v, p.key)
		default:
			if ignoredKeys[p.key] {
				continue
			}
			if why, ok := refusedKeys[p.key]; ok {
				return nil, errorf(p.line, p.key, "%s", why)
			}
			return nil, errorf(p.line, "", "unknown key %s", quote(p.key))
		}
		if err != nil {
			return nil, err
		}
	}
	for _, r := range required {
		if !seen[r.key] {
			return nil, errorf(0, r.key, "missing: %s", r.why)
		}
	}
	if !seen["content"] {
		content = []ref{{name: "main", where: "content"}}
	}
	if err := expand(d, sets, append(content, unpack...)); err != nil {
		return nil, err
	}
	return d, nil
}

func text(n *yaml.Node, where string) (string, *Error) {
	s, err := scalar(n, where)
	if err != nil {
		return "", err
	}
	if e := checkText(s); e != nil {
		return "", errorf(n.Line, where, "%v", e)
	}
	return s, nil
}

func checked(n *yaml.Node, where string, check func(string) error) (string, *Error) {
	s, err := scalar(n, where)
	if err != nil {
		return "", err
	}
	if e := check(s); e != nil {
		return "", errorf(n.Line, where, "%v", e)
	}
	return s, nil
}

// checkMilestone checks a milestone ("Beta1", "RC2"): letters, digits, ".", "_", "+" and "~".
func checkMilestone(m string) error {
	if len(m) > 64 {
		return fmt.Errorf("%s is longer than 64 bytes", quote(m))
	}
	for i := 0; i < len(m); i++ {
		if c := m[i]; !isWord(c) && c != '.' && c != '+' && c != '~' {
			return fmt.Errorf("%s is not a valid milestone: %s is not allowed", quote(m), char(c))
		}
	}
	return nil
}

// repositories reads "project/repository" pairs: valid names, each once.
func repositories(n *yaml.Node, where string) ([]Repository, *Error) {
	items, err := list(n, where)
	if err != nil {
		return nil, err
	}
	if len(items) > MaxRepositories {
		return nil, errorf(n.Line, where, "lists %d repositories; at most %d are allowed", len(items), MaxRepositories)
	}
	var out []Repository
	for i, it := range items {
		w := index(where, i)
		s, err := scalar(it, w)
		if err != nil {
			return nil, err
		}
		prj, repo, ok := strings.Cut(s, "/")
		if !ok || strings.Contains(repo, "/") {
			return nil, errorf(it.Line, w, "%s is not project/repository (as Pocket:1.0/standard)", quote(s))
		}
		if e := CheckProject(prj); e != nil {
			return nil, errorf(it.Line, w, "%v", e)
		}
		if e := CheckRepository(repo); e != nil {
			return nil, errorf(it.Line, w, "%v", e)
		}
		r := Repository{Project: prj, Repository: repo}
		if slices.Contains(out, r) {
			return nil, errorf(it.Line, w, "%s is listed twice", r)
		}
		out = append(out, r)
	}
	return out, nil
}
