package build

import (
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
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
	Name        string   `json:"name"`
	Rebuild     string   `json:"rebuild,omitempty"`
	Block       string   `json:"block,omitempty"`
	LinkedBuild string   `json:"linkedbuild,omitempty"`
	Paths       []Path   `json:"paths,omitempty"`
	Archs       []string `json:"archs,omitempty"`
}

// Project is a build-service project: its meta, as the API re-renders it.
type Project struct {
	Name         string       `json:"name"`
	Kind         string       `json:"kind,omitempty"`
	Title        string       `json:"title"`
	Description  string       `json:"description"`
	URL          string       `json:"url,omitempty"`
	Persons      []Role       `json:"persons,omitempty"`
	Groups       []Role       `json:"groups,omitempty"`
	Flags        []Flag       `json:"flags,omitempty"`
	Locked       bool         `json:"locked,omitempty"`
	Repositories []Repository `json:"repositories,omitempty"`
	// Config is the project's build configuration (_config, osc meta prjconf), kept in the
	// record because it is small text that lives and dies with the project.
	Config  string    `json:"config,omitempty"`
	Created time.Time `json:"created"`
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

// GetProject returns the project called name; the not-found message is the service's own.
func GetProject(tx *bbolt.Tx, name string) (Project, error) {
	p, err := store.Get[Project](tx, store.BuildProjects, []byte(name))
	if err != nil {
		return p, store.NotFoundf("Project not found: %s", name)
	}
	return p, nil
}

// PutProject stores a project (key: its name).
func PutProject(tx *bbolt.Tx, p Project) error {
	return store.Put(tx, store.BuildProjects, []byte(p.Name), p)
}

// Projects lists every project, by name.
func Projects(tx *bbolt.Tx) ([]Project, error) {
	var out []Project
	err := store.Each(tx, store.BuildProjects, nil, func(_ []byte, p Project) (bool, error) {
		out = append(out, p)
		return true, nil
	})
	return out, err
}

// DependentPaths names the other projects' repositories that build against project
// ("P/repo"), sorted: deleting project would break them.
func DependentPaths(tx *bbolt.Tx, project string) ([]string, error) {
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

// DeleteProject removes a project with all its packages, deleted ones included (deleted
// projects are not kept, so nothing could restore them). Other projects' repository paths to it
// are pointed at deleted/standard, as the real service does on a forced delete.
func DeleteProject(tx *bbolt.Tx, name string) error {
	live, err := Packages(tx, name)
	if err != nil {
		return err
	}
	deleted, err := DeletedPackages(tx, name)
	if err != nil {
		return err
	}
	for _, k := range append(live, deleted...) {
		if err := PurgePackage(tx, name, k.Name); err != nil {
			return err
		}
	}
	if err := store.Delete(tx, store.BuildProjects, []byte(name)); err != nil {
		return store.NotFoundf("Project not found: %s", name)
	}
	all, err := Projects(tx)
	for _, p := range all {
		if repointPaths(&p, name) {
			if err := PutProject(tx, p); err != nil {
				return err
			}
		}
	}
	return err
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
