// Package spdx reads the data the repository explorer indexes: product SBOMs as the build
// service's generate_sbom writes them (SPDX 2.3 JSON, and SPDX 3.0 JSON-LD), and the RPM file
// lists of rpm-md repositories (repomd.xml → primary.xml[.gz] + filelists.xml[.gz]); and it
// writes product SBOMs in generate_sbom's shape (WriteDocument), for the farm's products. It is pure:
// it imports nothing of ours, does no I/O beyond the readers and file systems it is given, and
// turns every malformed input into an error that names the file and the problem.
package spdx

// Product is one product SBOM: the product named by the document (its root package), and the
// RPM packages it ships.
type Product struct {
	// FullName is the root package's (or the document's) name, e.g.
	// "Pocket-1.0-x86_64-Build1.1"; Name, Version, Arch and BuildNumber are parsed from it
	// (ParseProductName).
	FullName    string
	Name        string
	Version     string
	Arch        string
	BuildNumber string
	// DistURL is the root package's obs-disturl reference, if any.
	DistURL  string
	Packages []Package
}

// Package is one RPM of a product.
type Package struct {
	Name     string // packages[].name
	Arch     string // the purl qualifier arch ("" when the purl has none)
	Version  string // versionInfo without an epoch: "5.2.37-1.1"
	Filename string // name-version.arch.rpm, the RPM file name ("" when arch or version is unknown)
	// VCSURL, VCSOrg, VCSRepo, TrackingBranch and CommitHash come from the vcs reference
	// (ParseVCS); all "" for a package without one.
	VCSURL         string
	VCSOrg         string
	VCSRepo        string
	TrackingBranch string
	CommitHash     string
	DistURL        string // the obs-disturl reference, or ""
}

// VCS is a parsed vcs reference locator.
type VCS struct {
	URL    string // scheme, host and path, no query or fragment
	Org    string // first path segment
	Repo   string // last path segment, without a trailing ".git"
	Branch string // the trackingbranch query parameter, or a fragment that is not a commit
	Commit string // a fragment of at least 8 hex characters, lower-cased
}

// RPM is one package of an rpm-md repository with its file list.
type RPM struct {
	Filename string // the basename of primary's location/@href
	Name     string
	Arch     string
	Version  string // ver-rel, without epoch
	Files    []string
}
