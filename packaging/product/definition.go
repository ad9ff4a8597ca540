package product

import (
	"fmt"
	"slices"
)

// Definition is a product definition as Parse reads it: what the farm composes and what the
// product's SBOM says about the product itself.
type Definition struct {
	Schema      string // product_compose_schema: "0.1" or "0.2"
	Vendor      string // who is responsible for the content ("Pocket"); the SBOM's supplier
	Name        string // the product name, the first part of ProductName ("Pocket")
	Version     string // the product version ("1.0"), starting with a digit, without "-"
	Summary     string // one line about the product; "" when not given
	ProductType string // "base", "module" or "extension"; "" when not given
	Milestone   string // the milestone OBS gives a release ("Beta1"); "" when not given

	// Architectures are the architectures the product is built for, in the file's order.
	Architectures []string
	// Packages are the binary packages the product ships, package sets expanded, sorted by
	// name; each appears once.
	Packages []Package
	// Repositories are the repositories the packages are taken from, in order, or nil when the
	// definition names none and the farm takes its repository's path.
	Repositories []Repository
}

// Package is one binary package a product ships.
type Package struct {
	Name string
	// Op and Version constrain the package's version as product-composer does ("glibc > 2.38-9"):
	// Op is "<", "<=", "=", ">=" or ">", Version "[epoch:]version[-release]" (a missing release
	// matches every release). Both are "" when any version will do.
	Op, Version string
	// Arches are the architectures the package ships on when a package set restricts it, in the
	// definition's order, or nil when it ships on every architecture of the product.
	Arches []string
	// Line is where the package is first listed, for the farm's messages.
	Line int
}

// Repository is one repository a product takes its packages from.
type Repository struct {
	Project    string
	Repository string
}

// String is "project/repository", as OBS writes a repository path.
func (r Repository) String() string { return r.Project + "/" + r.Repository }

// String is the package as the definition lists it: "name" or "name op version".
func (p Package) String() string {
	if p.Op == "" {
		return p.Name
	}
	return p.Name + " " + p.Op + " " + p.Version
}

// ShipsOn tells whether the package ships on arch.
func (p Package) ShipsOn(arch string) bool {
	return p.Arches == nil || slices.Contains(p.Arches, arch)
}

// PackagesFor returns the packages the product ships on arch, sorted by name; nil when arch
// is not one of the product's architectures.
func (d *Definition) PackagesFor(arch string) []Package {
	if !slices.Contains(d.Architectures, arch) {
		return nil
	}
	var out []Package
	for _, p := range d.Packages {
		if p.ShipsOn(arch) {
			out = append(out, p)
		}
	}
	return out
}

// ProductName is the product's full name for one build, as OBS names a product medium and
// the explorer lists it: "Name-Version-Arch-Build" ("Pocket-1.0-x86_64-Build1.1"). arch is one
// of the product's architectures (or several joined with "-", for a medium that holds them
// all, as "aarch64-x86_64"), build a build label (BuildLabel). The explorer's
// spdx.ParseProductName splits such a name back into exactly these parts, because Parse
// requires a version that starts with a digit and holds no "-", and ValidBuild and KnownArch
// hold for the other two.
func (d *Definition) ProductName(arch, build string) string {
	return d.Name + "-" + d.Version + "-" + arch + "-" + build
}

// BuildLabel is the build part of a product name as OBS numbers builds: "Build" and the
// check-in counter and the rebuild counter joined with "." ("Build1.1" for the first build of
// the first source revision).
func BuildLabel(checkin, rebuild int) string {
	return fmt.Sprintf("Build%d.%d", checkin, rebuild)
}
