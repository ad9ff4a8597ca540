package buildsvc

import (
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The content rules of a meta write, and who may write what.

// Architectures are the architecture names the service knows (/architectures lists them; a
// repository or flag naming another is refused).
var Architectures = []string{
	"aarch64", "aarch64_ilp32", "armv4l", "armv5el", "armv5tel", "armv6hl", "armv6l", "armv7hl", "armv7l",
	"hppa", "i386", "i486", "i586", "i686", "ia64", "local", "loongarch64", "m68k", "mips", "mips64", "mipsel",
	"ppc", "ppc64", "ppc64le", "ppc64p7", "riscv64", "s390", "s390x", "sparc", "sparc64", "sparc64v",
	"sparcv8", "sparcv9", "sparcv9v", "x86_64",
}

// CheckRoles: known roles, existing persons and groups.
func CheckRoles(tx kv.Tx, kind string, persons, groups []buildstore.Role) error {
	for _, r := range append(append([]buildstore.Role(nil), persons...), groups...) {
		if !slices.Contains(buildstore.Roles, r.Role) {
			return Invalid(kind, "unknown role '%s' (one of %s)", r.Role, strings.Join(buildstore.Roles, ", "))
		}
	}
	for _, r := range persons {
		if _, err := buildstore.GetPerson(tx, r.ID); err != nil {
			return Invalid(kind, "%v", err)
		}
	}
	for _, r := range groups {
		if _, err := buildstore.GetGroup(tx, r.ID); err != nil {
			return Invalid(kind, "%v", err)
		}
	}
	return nil
}

// CheckFlags: enable or disable, and a known architecture when one is named.
func CheckFlags(kind string, flags []buildstore.Flag) error {
	for _, f := range flags {
		if f.Status != "enable" && f.Status != "disable" {
			return Invalid(kind, "<%s> takes <enable/> and <disable/>, not <%s/>", f.Name, f.Status)
		}
		if f.Arch != "" && !slices.Contains(Architectures, f.Arch) {
			return Invalid(kind, "unknown architecture '%s'", f.Arch)
		}
	}
	return nil
}

// CheckRepositories: named, unique, known architectures, and every path names an existing
// repository (of another project, or of this very document).
func CheckRepositories(tx kv.Tx, p buildstore.Project) error {
	seen := map[string]bool{}
	for _, r := range p.Repositories {
		if r.Name == "" || seen[r.Name] {
			return Invalid("project", "repository names must be present and unique ('%s')", r.Name)
		}
		seen[r.Name] = true
		for _, a := range r.Archs {
			if !slices.Contains(Architectures, a) {
				return Invalid("project", "unknown architecture '%s' in repository '%s'", a, r.Name)
			}
		}
		for _, path := range r.Paths {
			target, err := buildstore.GetProject(tx, path.Project)
			if path.Project == p.Name {
				target, err = p, nil
			}
			if _, ok := target.Repository(path.Repository); err != nil || !ok {
				return Invalid("project", "unable to walk on path '%s/%s' of repository '%s': no such project repository",
					path.Project, path.Repository, r.Name)
			}
		}
		if err := checkReleaseTarget(tx, p, r); err != nil {
			return err
		}
	}
	return nil
}

// CheckProject runs every content rule on a project record.
func CheckProject(tx kv.Tx, p buildstore.Project) error {
	if err := CheckRoles(tx, "project", p.Persons, p.Groups); err != nil {
		return err
	}
	if err := CheckFlags("project", p.Flags); err != nil {
		return err
	}
	return CheckRepositories(tx, p)
}

// Maintains reports whether who may change a record with these roles: Admin, a maintainer, or
// a member of a maintainer group.
func Maintains(tx kv.Tx, who buildstore.Person, persons, groups []buildstore.Role) bool {
	if who.IsAdmin() || slices.Contains(persons, buildstore.Role{ID: who.Login, Role: buildstore.RoleMaintainer}) {
		return true
	}
	for _, r := range groups {
		if r.Role != buildstore.RoleMaintainer {
			continue
		}
		if g, err := buildstore.GetGroup(tx, r.ID); err == nil && (slices.Contains(g.Members, who.Login) || slices.Contains(g.Maintainers, who.Login)) {
			return true
		}
	}
	return false
}

// MayCreateProject: Admin creates anything; a person creates home:<login> and below it, and
// below the nearest existing ancestor project it maintains. Top-level projects are Admin's.
func MayCreateProject(tx kv.Tx, who buildstore.Person, name string) bool {
	home := "home:" + who.Login
	if who.IsAdmin() || name == home || strings.HasPrefix(name, home+":") {
		return true
	}
	for parent := name; strings.Contains(parent, ":"); {
		parent = parent[:strings.LastIndex(parent, ":")]
		if p, err := buildstore.GetProject(tx, parent); err == nil {
			return Maintains(tx, who, p.Persons, p.Groups)
		}
	}
	return false
}

// checkReleaseTarget is the meta rule of a repository's release target (OBS's project save):
// a known trigger, and an existing target repository (of another project, or of this very
// document).
func checkReleaseTarget(tx kv.Tx, p buildstore.Project, r buildstore.Repository) error {
	t := r.ReleaseTarget
	if t == nil {
		return nil
	}
	if t.Trigger != "" && t.Trigger != "manual" && t.Trigger != "maintenance" {
		return Invalid("project", "releasetarget trigger must be 'manual' or 'maintenance', not '%s'", t.Trigger)
	}
	target, err := buildstore.GetProject(tx, t.Project)
	if t.Project == p.Name {
		target, err = p, nil
	}
	if _, ok := target.Repository(t.Repository); err != nil || !ok {
		return BadRequest("project_save_error", "Unknown target repository '%s/%s'", t.Project, t.Repository)
	}
	return nil
}
