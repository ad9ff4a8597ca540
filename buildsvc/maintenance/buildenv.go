package maintenance

import (
	"encoding/xml"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// cmd=collectbuildenv (POST /source/P/K?cmd=collectbuildenv&oproject=O&opackage=OK), as the
// backend collects build environments for a maintenance update that must build the way the
// released package did: for each repository and architecture of P that O has too, where OK's
// last build there succeeded, K gets a file _buildenv.<repository>.<arch> — a <buildinfo>
// listing, as <bdep> elements, the binaries that build installed (name, version, release and
// arch, read from their file names) — all in one new revision.
//
// Who must be able to change K's sources and read O's (OK's sources protected: 403, O hidden:
// 404). oproject and opackage are required (400 missing_parameter); no successful build of OK
// in any shared repository is 404 not_found ("no build environment"), since there is nothing
// to commit. Left out: the header checksums (hdrmd5) the backend records, and the build
// environment's use by later builds (the farm does not pin versions).

type buildenvDep struct {
	Name    string `xml:"name,attr"`
	Version string `xml:"version,attr,omitempty"`
	Release string `xml:"release,attr,omitempty"`
	Arch    string `xml:"arch,attr,omitempty"`
}

type buildenvXML struct {
	XMLName    xml.Name      `xml:"buildinfo"`
	Project    string        `xml:"project,attr"`
	Repository string        `xml:"repository,attr"`
	Package    string        `xml:"package,attr"`
	Arch       string        `xml:"arch,attr"`
	Deps       []buildenvDep `xml:"bdep"`
}

// CollectBuildEnv runs cmd=collectbuildenv on project/pkg for who from oproject/opackage.
func (s *Service) CollectBuildEnv(who buildstore.Person, project, pkg, oproject, opackage, comment string) error {
	if oproject == "" || opackage == "" {
		return buildsvc.BadRequest("missing_parameter", "cmd=collectbuildenv needs the oproject and opackage parameters")
	}
	now := s.Clock().Now()
	return s.Store().Write(func(tx kv.Tx) error {
		if err := buildsvc.Writable(tx, who, project, pkg, "cmd_execution_no_permission"); err != nil {
			return err
		}
		op, err := buildsvc.ReadableProject(tx, who, oproject)
		if err != nil {
			return err
		}
		if _, _, err := buildsvc.LookupPackage(tx, oproject, opackage); err != nil {
			return err
		}
		if err := buildsvc.SourcesReadable(tx, who, oproject, opackage); err != nil {
			return err
		}
		p, _ := buildstore.GetProject(tx, project)
		last, _, err := buildstore.LatestRevision(tx, project, pkg)
		if err != nil {
			return err
		}
		var files []buildstore.FileEntry
		for _, f := range last.Files {
			if !strings.HasPrefix(f.Name, "_buildenv.") {
				files = append(files, f)
			}
		}
		found := 0
		for _, r := range p.Repositories {
			or, ok := op.Repository(r.Name)
			if !ok {
				continue
			}
			for _, arch := range r.Archs {
				st, err := buildstore.GetStatus(tx, buildstore.Where{Project: oproject, Repository: or.Name, Arch: arch}, opackage)
				if err != nil || st.Last != buildstore.CodeSucceeded {
					continue
				}
				env := buildenvXML{Project: oproject, Repository: or.Name, Package: opackage, Arch: arch}
				for _, f := range st.Install {
					env.Deps = append(env.Deps, depOfFile(f))
				}
				data, err := xml.MarshalIndent(env, "", "  ")
				if err != nil {
					return err
				}
				sum, err := buildstore.PutBlob(tx, append(data, '\n'))
				if err != nil {
					return err
				}
				files = append(files, buildstore.FileEntry{Name: "_buildenv." + r.Name + "." + arch, MD5: sum})
				found++
			}
		}
		if found == 0 {
			return fault.NotFound("not_found", "no build environment: %s/%s has no successful build in a repository of %s", oproject, opackage, project)
		}
		_, err = buildsvc.CommitTree(tx, project, pkg, files, who.Login, now, buildsvc.CommitOptions{Comment: comment})
		return err
	})
}

// depOfFile reads name, version, release and arch from an RPM file name
// (name-version-release.arch.rpm); other names are the name alone.
func depOfFile(file string) buildenvDep {
	base, ok := strings.CutSuffix(file, ".rpm")
	if !ok {
		return buildenvDep{Name: file}
	}
	dot := strings.LastIndex(base, ".")
	if dot < 0 {
		return buildenvDep{Name: file}
	}
	nvr, arch := base[:dot], base[dot+1:]
	r := strings.LastIndex(nvr, "-")
	if r < 0 {
		return buildenvDep{Name: nvr, Arch: arch}
	}
	v := strings.LastIndex(nvr[:r], "-")
	if v < 0 {
		return buildenvDep{Name: nvr[:r], Release: nvr[r+1:], Arch: arch}
	}
	return buildenvDep{Name: nvr[:v], Version: nvr[v+1 : r], Release: nvr[r+1:], Arch: arch}
}
