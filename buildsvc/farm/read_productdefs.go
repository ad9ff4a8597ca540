package farm

import (
	"bytes"
	"sort"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/packaging/product"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The products a project's sources define (GET /source/P?view=productlist and
// verboseproductlist, GET /source/P/K?view=products): each *.productcompose file of a package's
// newest revision is one product, read with the farm's own parser (packaging/product). A file
// that does not parse defines none (the farm's build of it fails and says why).

// ProductDefinition is one product as OBS lists it.
type ProductDefinition struct {
	Name, Version string
	// BaseVersion and PatchLevel split Version at its first dot ("11.1": 11 and 1), as OBS
	// lists a product's service pack; PatchLevel is "0" for a version without one.
	BaseVersion, PatchLevel string
	// Release is "0": a productcompose file carries none (OBS's default).
	Release string
	// CPE is cpe:/o:vendor:name:version for a base product (or one of no type), cpe:/a:… for a
	// module or extension, lower case, as OBS derives it.
	CPE string
	// Project and Package are where the product is defined (the origin).
	Project, Package string
	// MTime is the definition file's.
	MTime int64
}

// ProjectProducts lists the products project's packages define, by name and origin; with
// expand, also those of the packages its project links bring (as ?expand=1 lists them). Packages
// whose sources who may not read are left out.
func (s *Farm) ProjectProducts(who buildstore.Person, project string, expand bool) ([]ProductDefinition, error) {
	var pkgs []buildstore.LinkedPackage
	if expand {
		var err error
		if pkgs, err = s.ExpandedPackages(who, project); err != nil {
			return nil, err
		}
	} else {
		names, err := s.Packages(who, project, false)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			pkgs = append(pkgs, buildstore.LinkedPackage{Project: project, Name: n})
		}
	}
	var out []ProductDefinition
	err := s.db.View(func(tx kv.Tx) error {
		for _, k := range pkgs {
			defs, err := packageProducts(tx, who, k.Project, k.Name)
			if err != nil {
				continue // sources hidden from who, or gone meanwhile
			}
			out = append(out, defs...)
		}
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, err
}

// PackageProducts lists the products project/pkg defines; name keeps only that product's.
func (s *Farm) PackageProducts(who buildstore.Person, project, pkg, name string) (out []ProductDefinition, err error) {
	err = s.db.View(func(tx kv.Tx) error {
		out, err = packageProducts(tx, who, project, pkg)
		return err
	})
	if name != "" {
		kept := out[:0]
		for _, d := range out {
			if d.Name == name {
				kept = append(kept, d)
			}
		}
		out = kept
	}
	return out, err
}

// packageProducts reads the products of project/pkg's newest revision, as who may read it.
func packageProducts(tx kv.Tx, who buildstore.Person, project, pkg string) ([]ProductDefinition, error) {
	if _, _, err := buildsvc.LookupVisiblePackage(tx, who, project, pkg); err != nil {
		return nil, err
	}
	v, err := buildsvc.ReadView(tx, who, project, pkg, "", false, "")
	if err != nil {
		return nil, err
	}
	var out []ProductDefinition
	for _, f := range v.Tree.Files {
		if !strings.HasSuffix(f.Name, ".productcompose") {
			continue
		}
		data, err := v.Content(tx, f.MD5)
		if err != nil {
			return nil, err
		}
		d, err := product.Parse(bytes.NewReader(data))
		if err != nil {
			continue
		}
		out = append(out, productDefinition(d, project, pkg, f.MTime))
	}
	return out, nil
}

// productDefinition is d as OBS lists a product.
func productDefinition(d *product.Definition, project, pkg string, mtime int64) ProductDefinition {
	base, patch, ok := strings.Cut(d.Version, ".")
	if !ok {
		patch = "0"
	}
	part := "o"
	if d.ProductType == "module" || d.ProductType == "extension" {
		part = "a"
	}
	cpe := "cpe:/" + part + ":" + strings.ToLower(d.Vendor) + ":" + strings.ToLower(d.Name) + ":" + d.Version
	return ProductDefinition{Name: d.Name, Version: d.Version, BaseVersion: base, PatchLevel: patch, Release: "0", CPE: cpe,
		Project: project, Package: pkg, MTime: mtime}
}
