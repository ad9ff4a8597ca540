// Package metadoc is the build service's project and package meta documents (project.rng,
// package.rng): their XML shape and the mapping to and from the store's records. It sits
// below both the HTTP layer, which parses PUT bodies and renders GETs with it, and the domain
// (buildsvc), which stores a package's rendered meta in the meta history — one shape for
// both, so an old meta reads back exactly as GET …/_meta showed it then.
//
// The documents keep the element order the build service renders (project.rng, package.rng).
// The same types parse a PUT body: pointers tell "absent" from "empty", which the schema's
// required title and description need. Elements the appliance does not keep yet (remoteurl,
// repository download and hostsystem, maintenance) are dropped.
package metadoc

import (
	"encoding/xml"
	"sort"
	"strings"

	"github.com/pocketforge/pocketforge/store/buildstore"
)

type roleXML struct {
	ID   string `xml:"userid,attr"`
	Role string `xml:"role,attr"`
}

type groupRoleXML struct {
	ID   string `xml:"groupid,attr"`
	Role string `xml:"role,attr"`
}

// flagEntryXML is <enable …/> or <disable …/>; XMLName carries which.
type flagEntryXML struct {
	XMLName    xml.Name
	Repository string `xml:"repository,attr,omitempty"`
	Arch       string `xml:"arch,attr,omitempty"`
}

type flagBlockXML struct {
	Entries []flagEntryXML `xml:",any"`
}

type pathXML struct {
	Project    string `xml:"project,attr"`
	Repository string `xml:"repository,attr"`
}

type releaseTargetXML struct {
	Project    string `xml:"project,attr"`
	Repository string `xml:"repository,attr"`
	Trigger    string `xml:"trigger,attr,omitempty"`
}

type repositoryXML struct {
	Name          string            `xml:"name,attr"`
	Rebuild       string            `xml:"rebuild,attr,omitempty"`
	Block         string            `xml:"block,attr,omitempty"`
	LinkedBuild   string            `xml:"linkedbuild,attr,omitempty"`
	ReleaseTarget *releaseTargetXML `xml:"releasetarget"`
	Paths         []pathXML         `xml:"path"`
	Archs         []string          `xml:"arch"`
}

// flagBlocks are the flag elements of both metas, in render order.
type flagBlocks struct {
	Build          *flagBlockXML `xml:"build"`
	Publish        *flagBlockXML `xml:"publish"`
	Debuginfo      *flagBlockXML `xml:"debuginfo"`
	Useforbuild    *flagBlockXML `xml:"useforbuild"`
	Binarydownload *flagBlockXML `xml:"binarydownload"`
	Sourceaccess   *flagBlockXML `xml:"sourceaccess"`
	Access         *flagBlockXML `xml:"access"`
}

// projectLinkXML is a project link: <link project="X" vrevmode?="extend|unextend"/>.
type projectLinkXML struct {
	Project  *string `xml:"project,attr"`
	VRevMode string  `xml:"vrevmode,attr,omitempty"`
}

// projectDevelXML is the project meta's <devel project="X"/> (a package meta's also names a
// package: develXML).
type projectDevelXML struct {
	Project *string `xml:"project,attr"`
}

// Project is the project meta document.
type Project struct {
	XMLName     xml.Name         `xml:"project"`
	Name        *string          `xml:"name,attr"`
	Kind        string           `xml:"kind,attr,omitempty"`
	Title       *string          `xml:"title"`
	Description *string          `xml:"description"`
	Links       []projectLinkXML `xml:"link"`
	URL         string           `xml:"url,omitempty"`
	Devel       *projectDevelXML `xml:"devel"`
	Persons     []roleXML        `xml:"person"`
	Groups      []groupRoleXML   `xml:"group"`
	Lock        *flagBlockXML    `xml:"lock"`
	flagBlocks
	Repositories []repositoryXML `xml:"repository"`
}

type develXML struct {
	Project string `xml:"project,attr,omitempty"`
	Package string `xml:"package,attr,omitempty"`
}

// Package is the package meta document.
type Package struct {
	XMLName     xml.Name       `xml:"package"`
	Name        *string        `xml:"name,attr"`
	Project     *string        `xml:"project,attr"`
	Title       *string        `xml:"title"`
	Description *string        `xml:"description"`
	SCMSync     string         `xml:"scmsync,omitempty"` // OBS renders it after the description
	Devel       *develXML      `xml:"devel"`
	Persons     []roleXML      `xml:"person"`
	Groups      []groupRoleXML `xml:"group"`
	Lock        *flagBlockXML  `xml:"lock"`
	flagBlocks
	URL string `xml:"url,omitempty"`
}

// blocks lists the flag blocks by flag name, so both directions walk them the same way.
func (f *flagBlocks) blocks() []struct {
	name string
	ptr  **flagBlockXML
} {
	return []struct {
		name string
		ptr  **flagBlockXML
	}{{"build", &f.Build}, {"publish", &f.Publish}, {"debuginfo", &f.Debuginfo}, {"useforbuild", &f.Useforbuild},
		{"binarydownload", &f.Binarydownload}, {"sourceaccess", &f.Sourceaccess}, {"access", &f.Access}}
}

// flags flattens the blocks into records.
func (f *flagBlocks) flags() []buildstore.Flag {
	var out []buildstore.Flag
	for _, b := range f.blocks() {
		if *b.ptr == nil {
			continue
		}
		for _, e := range (*b.ptr).Entries {
			out = append(out, buildstore.Flag{Name: b.name, Status: e.XMLName.Local, Repository: e.Repository, Arch: e.Arch})
		}
	}
	return out
}

// setFlags groups records back into blocks.
func (f *flagBlocks) setFlags(flags []buildstore.Flag) {
	for _, b := range f.blocks() {
		for _, fl := range flags {
			if fl.Name != b.name {
				continue
			}
			if *b.ptr == nil {
				*b.ptr = &flagBlockXML{}
			}
			(*b.ptr).Entries = append((*b.ptr).Entries, flagEntryXML{XMLName: xml.Name{Local: fl.Status}, Repository: fl.Repository, Arch: fl.Arch})
		}
	}
}

// locked reads <lock><enable/></lock> (the last entry wins).
func locked(b *flagBlockXML) bool {
	return b != nil && len(b.Entries) > 0 && b.Entries[len(b.Entries)-1].XMLName.Local == "enable"
}

func lockBlock(on bool) *flagBlockXML {
	if !on {
		return nil
	}
	return &flagBlockXML{Entries: []flagEntryXML{{XMLName: xml.Name{Local: "enable"}}}}
}

func rolesFrom(in []roleXML) []buildstore.Role {
	return convert(in, func(r roleXML) buildstore.Role { return buildstore.Role(r) })
}

func groupRolesFrom(in []groupRoleXML) []buildstore.Role {
	return convert(in, func(r groupRoleXML) buildstore.Role { return buildstore.Role(r) })
}

func rolesXML(in []buildstore.Role) ([]roleXML, []groupRoleXML) {
	return convert(in, func(r buildstore.Role) roleXML { return roleXML(r) }), convert(in, func(r buildstore.Role) groupRoleXML { return groupRoleXML(r) })
}

func convert[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, x := range in {
		out[i] = f(x)
	}
	return out
}

func str(s string) *string { return &s }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// FromProject is the document of a project record, canonical: repositories sorted by name
// descending, as the build service renders them.
func FromProject(p buildstore.Project) Project {
	persons, _ := rolesXML(p.Persons)
	_, groups := rolesXML(p.Groups)
	d := Project{Name: str(p.Name), Kind: p.Kind, Title: str(p.Title), Description: str(p.Description), URL: p.URL,
		Persons: persons, Groups: groups, Lock: lockBlock(p.Locked),
		Links: convert(p.Links, func(l buildstore.Link) projectLinkXML {
			return projectLinkXML{Project: str(l.Project), VRevMode: l.VRevMode}
		})}
	if p.Devel != "" {
		d.Devel = &projectDevelXML{Project: str(p.Devel)}
	}
	d.setFlags(p.Flags)
	repos := append([]buildstore.Repository(nil), p.Repositories...)
	sort.SliceStable(repos, func(i, j int) bool { return repos[i].Name > repos[j].Name })
	for _, r := range repos {
		x := repositoryXML{Name: r.Name, Rebuild: r.Rebuild, Block: r.Block,
			LinkedBuild: r.LinkedBuild, Paths: convert(r.Paths, func(p buildstore.Path) pathXML { return pathXML(p) }), Archs: r.Archs}
		if t := r.ReleaseTarget; t != nil {
			x.ReleaseTarget = &releaseTargetXML{Project: t.Project, Repository: t.Repository, Trigger: t.Trigger}
		}
		d.Repositories = append(d.Repositories, x)
	}
	return d
}

// Record turns a parsed (and validated) document into the record.
func (d Project) Record() buildstore.Project {
	p := buildstore.Project{Name: deref(d.Name), Kind: d.Kind, Title: deref(d.Title), Description: deref(d.Description), URL: d.URL,
		Persons: rolesFrom(d.Persons), Groups: groupRolesFrom(d.Groups), Flags: d.flags(), Locked: locked(d.Lock),
		Links: convert(d.Links, func(l projectLinkXML) buildstore.Link {
			return buildstore.Link{Project: deref(l.Project), VRevMode: l.VRevMode}
		})}
	if d.Devel != nil {
		p.Devel = deref(d.Devel.Project)
	}
	for _, r := range d.Repositories {
		rec := buildstore.Repository{Name: r.Name, Rebuild: r.Rebuild, Block: r.Block,
			LinkedBuild: r.LinkedBuild, Paths: convert(r.Paths, func(p pathXML) buildstore.Path { return buildstore.Path(p) }), Archs: r.Archs}
		if t := r.ReleaseTarget; t != nil {
			rec.ReleaseTarget = &buildstore.ReleaseTarget{Project: t.Project, Repository: t.Repository, Trigger: t.Trigger}
		}
		p.Repositories = append(p.Repositories, rec)
	}
	return p
}

// FromPackage is the canonical document of a package record.
func FromPackage(k buildstore.Package) Package {
	persons, _ := rolesXML(k.Persons)
	_, groups := rolesXML(k.Groups)
	d := Package{Name: str(k.Name), Project: str(k.Project), Title: str(k.Title), Description: str(k.Description),
		Persons: persons, Groups: groups, Lock: lockBlock(k.Locked), URL: k.URL, SCMSync: k.SCMSync}
	if k.Devel != nil {
		d.Devel = &develXML{Project: k.Devel.Project, Package: k.Devel.Package}
	}
	d.setFlags(k.Flags)
	return d
}

// Record turns a parsed (and validated) document into the record.
func (d Package) Record() buildstore.Package {
	k := buildstore.Package{Project: deref(d.Project), Name: deref(d.Name), Title: deref(d.Title), Description: deref(d.Description),
		Persons: rolesFrom(d.Persons), Groups: groupRolesFrom(d.Groups), Flags: d.flags(), Locked: locked(d.Lock), URL: d.URL,
		SCMSync: strings.TrimSpace(d.SCMSync)}
	if d.Devel != nil {
		k.Devel = &buildstore.Devel{Project: d.Devel.Project, Package: d.Devel.Package}
	}
	return k
}

// DevelWithoutProject reports a <devel> element without a project attribute, which the record
// cannot show (its devel is then empty) and the meta check refuses.
func (d Project) DevelWithoutProject() bool { return d.Devel != nil && deref(d.Devel.Project) == "" }

// RenderPackage is the package's meta as GET …/_meta answers it (indented, a final newline):
// the meta history keeps these bytes.
func RenderPackage(k buildstore.Package) []byte {
	return append(AppendPackage(make([]byte, 0, 512), k, 0), '\n')
}
