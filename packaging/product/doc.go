// Package product reads the product definition a build-service package holds: the file that
// says which product the farm composes — its name, version, vendor and summary, the
// architectures it is built for, the binary packages it ships and the repositories it takes
// them from — so the farm can decide whether a product build is unresolvable, blocked or
// possible, and so the SBOM it writes names the product as OBS would
// (Definition.ProductName: "Pocket-1.0-x86_64-Build1.1").
//
// # The format: productcompose
//
// The file is a subset of openSUSE's product-composer YAML ("*.productcompose", schema 0.1 and
// 0.2; openSUSE/product-composer's verifiers/composeschema.py and docs/build_description.adoc),
// not a kiwi product description (<image><instsource>…) nor OBS's _product XML. It is what OBS
// builds current products from (Leap 16, SLES 16: OBS's Build/ProductCompose.pm and the
// productcompose build type), while kiwi's instsource is the legacy product builder (kiwi-ng
// dropped it; OBS keeps a frozen fork, product-builder, for SLE 15) and _product is the
// larger source OBS converts into those kiwi files (mediasets, groups, urls, updates, …).
// It is also the simplest for a user to write: a dozen lines, with no element whose content
// must be repeated in attributes, as this example (testdata/pocket-1.0.productcompose) shows:
//
//	product_compose_schema: 0.2
//	vendor: Pocket
//	name: Pocket
//	version: 1.0
//	summary: Pocket 1.0
//	architectures: [x86_64, aarch64]
//	repositories: [Pocket:1.0/standard]
//	packagesets:
//	- packages: [pocket-base, pocket-cli, pocket-filesystem, pocket-release, pocket-repos]
//
// What is read, as product-composer reads it:
//
//   - product_compose_schema ("0.1" or "0.2"), vendor, name, version: required. Version must
//     start with a digit and hold no "-", so that the explorer splits the product name back
//     into its parts (spdx.ParseProductName); version_from_package is refused (write the
//     version). summary, product-type (base, module or extension) and milestone are optional.
//   - architectures: the product's architectures (OBS's and rpm's names, KnownArch).
//   - packagesets: named lists of binary package names (an entry without a name is "main"),
//     each optionally only for some architectures, including other sets with add. content
//     names the sets the product ships (default: main) and unpack the sets whose packages go
//     onto the medium unpacked; both are shipped. Sets are expanded, per architecture, exactly
//     as product-composer does — an entry whose architectures exclude an arch is an empty set
//     there, two entries with one name may not both apply to one arch, a cycle is an error —
//     and Definition.Packages is the result, each package with the architectures it ships on.
//     A package may carry a version constraint ("glibc > 2.38-9": <, <=, =, >=, > and an
//     [epoch:]version[-release]), kept in Package.Op and Package.Version.
//   - Patterns: productcompose has none of its own; a pattern is shipped as the binary package
//     that defines it (patterns-base-minimal), so it is a package name like any other and is
//     not expanded.
//
// One addition, repositories: a list of "project/repository" pairs the packages are taken
// from, in order. product-composer has no such key: OBS hands it the binaries of the product
// repository's path (the <path> elements of the project meta), as kiwi's instsource spelled
// them obs://project/repository. A definition that lists none leaves Repositories empty, and
// the farm then takes the repository's own path, as OBS does; product-composer ignores keys it
// does not know, so a file with repositories still builds there.
//
// Accepted and ignored, because they shape the medium and not what it ships nor its SBOM:
// build_options, source, debug, repodata, iso, scc, installcheck, bcntsynctag,
// product_directory_name, edition, update, description, set_updateinfo_from,
// set_updateinfo_id_prefix, block_updates_under_embargo, and a package set's supportstatus.
// Refused with an error that says so, because the farm builds one medium per architecture and
// does not compose sets by version ranges: flavors (with remove_build_options), a package set's
// flavors, sub and intersect, the __all__ set, and set names with architecture=/flavor=
// overrides; and a top-level packages list, which product-composer's schema ignores (put the
// packages in a package set). Any other key is an error, so a misspelt one is not silently
// dropped. YAML anchors, aliases and merge keys are refused too.
//
// # Bounds
//
// A definition is at most MaxSize bytes, nests at most MaxDepth levels, lists at most
// MaxPackages package entries, MaxPackageSets sets, MaxArchitectures architectures and
// MaxRepositories repositories, and its names are at most MaxNameLen bytes in OBS's name
// charset. Every error is an *Error naming the line, the element
// ("packagesets[1].packages[3]") and the problem, in words the build service can show as the
// package's build failure details.
package product
