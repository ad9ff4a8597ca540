package explorersvc

import (
	"context"
	"errors"
	"io/fs"
)

// Backend is what the explorer asks of a build service: which projects it may follow, their
// build results, the service's configuration, and whether anything changed since it last
// looked. The appliance's own build service answers in process (explorersvc/buildlink.Backend, over buildsvc's
// domain functions and read protection); a remote build service reached over HTTP
// (--explorer-backend, explorersvc/remote.Backend) implements the same four methods from
// GET /source, /build/<p>/_result and /configuration, so the cache and the routes above it
// never know which one they talk to. Products and ProductFiles are the product media the
// build service built and published, which the explorer imports (products_follow.go). The values are plain data, no buildsvc types, for that
// reason.
type Backend interface {
	// Projects names the live projects the backend's identity may read: a project with access
	// restrictions hidden from it is not among them, so the explorer never follows it.
	Projects(ctx context.Context) ([]string, error)
	// Results is a project's build results as GET /build/<project>/_result shows them (every
	// repository and arch, every package's status). A project that is unknown or hidden from
	// the backend's identity answers an error that is ErrNoProject.
	Results(ctx context.Context, project string) (ProjectResults, error)
	// Configuration is the service's configuration document (GET /configuration).
	Configuration(ctx context.Context) (BackendConfig, error)
	// Changes is a mark that moves whenever the build service may have changed state: the
	// cache refreshes only when it differs from the mark its last refresh was taken at, so an
	// idle farm costs one call per tick and no project reads. It must be read before the reads
	// it stands for (a change during the refresh then moves it again and is caught next
	// time). A remote backend that cannot tell returns a mark that moves every poll interval.
	Changes(ctx context.Context) (uint64, error)
	// Binaries are the published binaries whose binary package name is exactly name (OBS's
	// GET /search/published/binary/id?match=@name='<name>'), of the projects the backend's
	// identity may read: a project with access restrictions hidden from it adds none.
	Binaries(ctx context.Context, name string) ([]Binary, error)
	// Products are the product media published in project (a product build's SBOM and rpm-md
	// file lists, OBS's repository "product" of a package such as 000productcompose), for
	// the backend's identity: a project hidden from it has none. A backend that cannot list
	// them answers none (nil, nil), and the explorer then follows no product of it.
	Products(ctx context.Context, project string) ([]ProductMedium, error)
	// ProductFiles are the files of a medium Products listed: <Name>.spdx.json at the root and
	// the rpm-md repodata/ beside it (none when the product ships no file lists).
	ProductFiles(ctx context.Context, m ProductMedium) (fs.FS, error)
}

// ProductMedium is one product medium a build service published: where it was built and
// published (project, repository, arch and package, as a build result names them), the
// product's full name (Pocket-1.0-x86_64-Build1.1, the name of its SBOM file and of the
// product the explorer files it under) and a digest of its files that changes whenever
// they do, so an unchanged medium is not read again.
type ProductMedium struct {
	Project, Repository, Arch, Package string
	Name                               string
	Digest                             string
}

// ErrNoProject is what Backend.Results answers (wrapped) for a project that does not exist
// or is hidden from the backend's identity: the cache drops it instead of keeping an old copy.
var ErrNoProject = errors.New("no such project")

// ProjectResults is one project's build results: one RepoResult per repository and arch, in
// the project meta's order.
type ProjectResults struct {
	Project string
	Results []RepoResult
	// Version identifies these exact results within the process: the cache gives every new
	// content of a project a number no other results of any cache hold, and BuildResults keeps
	// it only on a whole (unfiltered) answer, so a caller may keep what it derives from such an
	// answer by (Project, Version). 0 (from a backend, or a filtered answer): not to be kept.
	Version uint64
}

// RepoResult is one <result> of a result list: a repository and arch with its state and the
// statuses of its packages, by package name.
type RepoResult struct {
	Repository, Arch string
	// Code is the repository's state (published, building, blocked, unknown, …); OBS writes it
	// twice, as code and state.
	Code    string
	Details string
	// Dirty says the scheduler has not recalculated the repository since its last change.
	Dirty    bool
	Statuses []PackageStatus
}

// PackageStatus is one package's build status in a repository and arch.
type PackageStatus struct {
	Package, Code, Details string
}

// BackendConfig is the build service's configuration as the explorer passes it on
// (GET /api/backend-config). Schedulers are the architectures it builds for; Settings are the
// other elements of OBS's configuration.rng the service has, in that schema's order, as text
// (an XML-to-JSON conversion has no other type for them).
type BackendConfig struct {
	Schedulers []string
	Settings   []Setting
}

// Setting is one element of the configuration document.
type Setting struct {
	Name, Value string
}

// Binary is one published binary (an RPM or source RPM of a published repository), as a
// published binary search answers it.
type Binary struct {
	// Name is the binary package's name (bash); Filename the file's (bash-5.2-1.1.x86_64.rpm).
	Name, Filename string
	// Package is the build-service package that built it ("" when the backend no longer
	// knows).
	Package                                     string
	Project, Repository, Arch, Version, Release string
	// Path is the file's path under the backend's download_url, segments URL-escaped
	// (Pocket:1.0/standard/x86_64/pocket-cli-1.0-1.1.x86_64.rpm for the appliance's /published).
	Path string
	// SourceURL is the package's git repository when the backend knows it synchronizes the
	// package from git (OBS's scmsync); "" when it does not say.
	SourceURL string
}
