package buildstore

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Roles a person or group can hold on a project or package (project.rng's role list).
var Roles = []string{"maintainer", "bugowner", "reviewer", "downloader", "reader"}

// RoleMaintainer is the role that may change a project or package.
const RoleMaintainer = "maintainer"

// Role gives a person (by login) or a group (by title) a role on a project or package.
type Role struct {
	ID   string `json:"id"`
	Role string `json:"role"`
}

// Flag is one entry of a flag block (<build><disable repository="r" arch="a"/></build>): kept as
// entries, not as a computed table, so a meta re-renders exactly as it was written.
type Flag struct {
	Name       string `json:"name"`   // build, publish, debuginfo, useforbuild, binarydownload, sourceaccess, access
	Status     string `json:"status"` // enable or disable
	Repository string `json:"repository,omitempty"`
	Arch       string `json:"arch,omitempty"`
}

// SetFlag replaces the entry for f's (name, repository, arch) with f, or appends it: set_flag
// edits exactly one entry, so duplicates never pile up.
func SetFlag(flags []Flag, f Flag) []Flag {
	out := RemoveFlag(flags, f)
	return append(out, f)
}

// RemoveFlag drops every entry for f's (name, repository, arch), whatever its status.
func RemoveFlag(flags []Flag, f Flag) []Flag {
	var out []Flag
	for _, x := range flags {
		if x.Name != f.Name || x.Repository != f.Repository || x.Arch != f.Arch {
			out = append(out, x)
		}
	}
	return out
}

// Path is a repository's build dependency on another project's repository.
type Path struct {
	Project    string `json:"project"`
	Repository string `json:"repository"`
}

// Repository is a build target of a project: what it builds against and for which
// architectures.
type Repository struct {
	Name        string `json:"name"`
	Rebuild     string `json:"rebuild,omitempty"`
	Block       string `json:"block,omitempty"`
	LinkedBuild string `json:"linkedbuild,omitempty"`
	// ReleaseTarget is where cmd=release copies the repository's sources and binaries (nil:
	// none; the schema allows one).
	ReleaseTarget *ReleaseTarget `json:"releasetarget,omitempty"`
	Paths         []Path         `json:"paths,omitempty"`
	Archs         []string       `json:"archs,omitempty"`
}

// ReleaseTarget is a repository's <releasetarget project= repository= trigger=/>: the
// repository a release copies into, and what starts one ("manual": cmd=release; "maintenance":
// the maintenance release of an incident, which cmd=release also runs; "": no release).
type ReleaseTarget struct {
	Project    string `json:"project"`
	Repository string `json:"repository"`
	Trigger    string `json:"trigger,omitempty"`
}

// Link is a project link (<link project="X" vrevmode="…"/> in the meta): the project inherits
// X's packages, X's own links included, after its own.
type Link struct {
	Project string `json:"project"`
	// VRevMode is "", "extend" or "unextend": how inherited packages count their vrev.
	VRevMode string `json:"vrevmode,omitempty"`
}

// Project is a build-service project: its meta, as the API re-renders it.
type Project struct {
	Name        string `json:"name"`
	Kind        string `json:"kind,omitempty"`
	Title       string `json:"title"`
	Description string `json:"description"`
	// Links are the project links in meta order: the order in which inherited packages are
	// looked up.
	Links []Link `json:"links,omitempty"`
	URL   string `json:"url,omitempty"`
	// Devel names the project where this one is developed (<devel project="…"/>).
	Devel        string       `json:"devel,omitempty"`
	Persons      []Role       `json:"persons,omitempty"`
	Groups       []Role       `json:"groups,omitempty"`
	Flags        []Flag       `json:"flags,omitempty"`
	Locked       bool         `json:"locked,omitempty"`
	Repositories []Repository `json:"repositories,omitempty"`
	// Config is the project's build configuration (_config, osc meta prjconf), kept in the
	// record because it is small text that lives and dies with the project.
	Config  string    `json:"config,omitempty"`
	Created time.Time `json:"created"`
	// Deleted makes the record a tombstone, as for packages: the project is gone from listings
	// and lookups, but its meta, its packages with their histories, its signing key and its
	// patterns stay, so GET /source?deleted=1 lists it and cmd=undelete restores it.
	Deleted bool `json:"deleted,omitempty"`
}

// Repository returns the project's repository called name.
func (p Project) Repository(name string) (Repository, bool) {
	for _, r := range p.Repositories {
		if r.Name == name {
			return r, true
		}
	}
	return Repository{}, false
}

var (
	projectName = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.+:-]*$`)
	packageName = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9_.+-]*$`)
)

// MaxNameLength is the longest project or package name the real service takes.
const MaxNameLength = 200

// ValidProjectName applies the real service's project name rule: letters, digits and _.+:-,
// not starting with a punctuation mark, no "..", no empty ":" component, at most 200 bytes.
func ValidProjectName(name string) bool {
	return len(name) <= MaxNameLength && projectName.MatchString(name) && !strings.Contains(name, "..") &&
		!strings.Contains(name, "::") && !strings.HasSuffix(name, ":")
}

// ValidPackageName applies the package name rule: letters, digits and _.+-, not starting with
// "." "+" or "-" (so "_product" and "_patchinfo" pass, ".." does not), at most 200 bytes.
func ValidPackageName(name string) bool {
	return len(name) <= MaxNameLength && packageName.MatchString(name)
}

// GetProject returns the live project called name (not a tombstone); the not-found message is
// the service's own.
func GetProject(tx kv.Tx, name string) (Project, error) {
	p, err := store.Get[Project](tx, store.BuildProjects, []byte(name))
	if err != nil || p.Deleted {
		return Project{}, store.NotFoundf("Project not found: %s", name)
	}
	return p, nil
}

// CheckProject is GetProject for a caller that only needs to know the live project is there:
// the same not-found error, from the key and the tombstone mark, without decoding the record
// (a listing of 20,000 packages, or a request's existence check, need no meta).
func CheckProject(tx kv.Tx, name string) error {
	if b := tx.Bucket([]byte(store.BuildProjects)); b != nil {
		if raw := b.Get([]byte(name)); raw != nil && !bytes.Contains(raw, projectTombstone) {
			return nil
		}
	}
	return store.NotFoundf("Project not found: %s", name)
}

// projectTombstone is how a deleted project's record marks itself in its JSON. No field of a
// Project nested below it is called "deleted", and inside a string value a quote is escaped,
// so the mark cannot appear in a live project's record.
var projectTombstone = []byte(`"deleted":true`)

// GetDeletedProject returns the tombstone of a deleted project.
func GetDeletedProject(tx kv.Tx, name string) (Project, error) {
	p, err := store.Get[Project](tx, store.BuildProjects, []byte(name))
	if err != nil || !p.Deleted {
		return Project{}, store.NotFoundf("project '%s' is not deleted", name)
	}
	return p, nil
}

// PutProject stores a project (key: its name). Storing a live project over a tombstone starts
// afresh, as PutPackage does: the deleted project's packages with their histories, its signing
// key and its patterns are dropped, since a project created anew under an old name has no past.
func PutProject(tx kv.Tx, p Project) error {
	if !p.Deleted {
		if old, err := GetDeletedProject(tx, p.Name); err == nil {
			if err := purgeProjectContents(tx, old.Name); err != nil {
				return err
			}
		}
	}
	return putProjectRecord(tx, p)
}

// purgeProjectContents removes everything stored under a project but its record: packages
// (live and deleted) with histories and uploads, the signing key, the patterns.
func purgeProjectContents(tx kv.Tx, name string) error {
	names, err := allPackageNames(tx, name)
	if err != nil {
		return err
	}
	for _, k := range names {
		if err := PurgePackage(tx, name, k); err != nil {
			return err
		}
	}
	if err := DeleteSignKey(tx, name); err != nil {
		return err
	}
	return DeletePatterns(tx, name)
}

// allPackageNames lists every package record of a project, tombstones included.
func allPackageNames(tx kv.Tx, project string) ([]string, error) {
	live, err := PackageNames(tx, project, false)
	if err != nil {
		return nil, err
	}
	gone, err := PackageNames(tx, project, true)
	return append(live, gone...), err
}

// Projects lists every live project, by name.
func Projects(tx kv.Tx) ([]Project, error) {
	return projectsWhere(tx, false)
}

// DeletedProjects lists the tombstones of deleted projects, by name.
func DeletedProjects(tx kv.Tx) ([]Project, error) {
	return projectsWhere(tx, true)
}

func projectsWhere(tx kv.Tx, deleted bool) ([]Project, error) {
	var out []Project
	err := store.Each(tx, store.BuildProjects, nil, func(_ []byte, p Project) (bool, error) {
		if p.Deleted == deleted {
			out = append(out, p)
		}
		return true, nil
	})
	return out, err
}

// DependentPaths names the other projects' repositories that build against project
// ("P/repo"), sorted: deleting project would break them.
func DependentPaths(tx kv.Tx, project string) ([]string, error) {
	all, err := Projects(tx)
	var out []string
	for _, p := range all {
		for _, r := range p.Repositories {
			for _, path := range r.Paths {
				if path.Project == project && p.Name != project {
					out = append(out, p.Name+"/"+r.Name)
					break
				}
			}
		}
	}
	sort.Strings(out)
	return out, err
}

// DeleteProject turns a project into a tombstone. Its live packages become tombstones marked
// as deleted with the project (their pending uploads are dropped), so UndeleteProject brings
// back exactly those and leaves packages deleted before alone, as the real backend does. The
// project's and its packages' attribute values and comments are dropped. Other
// projects' repository paths to it are pointed at deleted/standard, as the real service does on
// a forced delete; an undelete does not point them back.
func DeleteProject(tx kv.Tx, name string) error {
	p, err := GetProject(tx, name)
	if err != nil {
		return err
	}
	live, err := Packages(tx, name)
	if err != nil {
		return err
	}
	for _, k := range live {
		if err := DropUpload(tx, name, k.Name); err != nil {
			return err
		}
		k.Deleted, k.DeletedWithProject = true, true
		if err := putPackageRecord(tx, k); err != nil {
			return err
		}
	}
	// Attribute values die with their container, as on the real service, where undelete
	// restores the meta and the packages but not the attributes.
	if err := DeleteAttributes(tx, name, ""); err != nil {
		return err
	}
	// So do the comments on the project and its packages.
	if err := deleteProjectComments(tx, name); err != nil {
		return err
	}
	// And the tags on them (store/buildstore/tags.go).
	if err := deleteProjectTags(tx, name); err != nil {
		return err
	}
	// And the messages on them (store/buildstore/messages.go).
	if err := deleteProjectMessages(tx, name); err != nil {
		return err
	}
	p.Deleted = true
	if err := putProjectRecord(tx, p); err != nil {
		return err
	}
	// Tombstones are repointed too, so an undeleted project never builds against a gone one.
	var changed []Project
	err = store.Each(tx, store.BuildProjects, nil, func(_ []byte, other Project) (bool, error) {
		if other.Name != name && repointPaths(&other, name) {
			changed = append(changed, other)
		}
		return true, nil
	})
	for _, other := range changed {
		if err := putProjectRecord(tx, other); err != nil {
			return err
		}
	}
	return err
}

// UndeleteProject clears a project's tombstone and returns the packages that were deleted with
// it; the caller restores each (package tombstone cleared, a restoring revision appended).
func UndeleteProject(tx kv.Tx, name string) ([]string, error) {
	p, err := GetDeletedProject(tx, name)
	if err != nil {
		return nil, err
	}
	gone, err := DeletedPackages(tx, name)
	if err != nil {
		return nil, err
	}
	var restore []string
	for _, k := range gone {
		if k.DeletedWithProject {
			restore = append(restore, k.Name)
		}
	}
	p.Deleted = false
	return restore, putProjectRecord(tx, p)
}

// repointPaths replaces p's paths to the project gone with deleted/standard.
func repointPaths(p *Project, gone string) bool {
	changed := false
	for i := range p.Repositories {
		for j, path := range p.Repositories[i].Paths {
			if path.Project == gone {
				p.Repositories[i].Paths[j] = Path{Project: "deleted", Repository: "standard"}
				changed = true
			}
		}
	}
	return changed
}

// LinkedPackage is one entry of an expanded package list: a package name and the project it
// comes from (the project itself or one it links to).
type LinkedPackage struct {
	Name    string
	Project string
}

// ExpandedPackages lists a project's packages followed by those it inherits through project
// links, depth first in link order as the real service walks them: a name already seen wins,
// a project is visited once (so link cycles end), a missing or deleted linked project is
// skipped. The result is sorted by name, case-insensitively, as the service answers it.
func ExpandedPackages(tx kv.Tx, project string) ([]LinkedPackage, error) {
	return ExpandedPackagesSkipping(tx, project, nil)
}

// ExpandedPackagesSkipping is ExpandedPackages where a linked project for which skip says
// true counts as missing (read protection hides it; the domain decides which).
func ExpandedPackagesSkipping(tx kv.Tx, project string, skip func(Project) bool) ([]LinkedPackage, error) {
	var out []LinkedPackage
	seen, visited := map[string]bool{}, map[string]bool{}
	var walk func(name string) error
	walk = func(name string) error {
		if visited[name] {
			return nil
		}
		visited[name] = true
		p, err := GetProject(tx, name)
		if err != nil || (name != project && skip != nil && skip(p)) {
			return nil
		}
		names, err := PackageNames(tx, name, false)
		if err != nil {
			return err
		}
		for _, k := range names {
			if !seen[k] {
				seen[k] = true
				out = append(out, LinkedPackage{Name: k, Project: name})
			}
		}
		for _, l := range p.Links {
			if err := walk(l.Project); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(project); err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := strings.ToLower(out[i].Name), strings.ToLower(out[j].Name)
		return a < b || (a == b && out[i].Name < out[j].Name)
	})
	return out, nil
}

// LinkingProjects names the live projects whose meta links to project (directly), sorted.
func LinkingProjects(tx kv.Tx, project string) ([]string, error) {
	all, err := Projects(tx)
	var out []string
	for _, p := range all {
		for _, l := range p.Links {
			if l.Project == project {
				out = append(out, p.Name)
				break
			}
		}
	}
	return out, err
}
