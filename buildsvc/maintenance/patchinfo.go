package maintenance

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Patchinfos (cmd=createpatchinfo on a project, cmd=updatepatchinfo on a package), as OBS's
// Patchinfo model makes them: a package (default name "patchinfo") holding one file,
// _patchinfo (patchinfo.rng), which describes an update — category, rating, summary,
// description, packager and the issues it fixes.
//
// createpatchinfo makes the package (title "Patchinfo", description "Collected packages for
// update", build and publish enabled, useforbuild disabled) and writes a _patchinfo with who as
// packager, category recommended, rating low, the comment's first line as summary and the
// comment as description, then collects the issues as updatepatchinfo does. An existing
// package is refused (patchinfo_file_exists) unless force is given and it is a patchinfo.
//
// updatepatchinfo adds to the _patchinfo every issue the .changes files of the project's other
// packages mention (matched by the issue trackers' regular expressions; a tracker whose
// expression Go cannot compile is skipped) and makes the category security when one is a CVE;
// issues already listed stay as they are.
//
// The farm does not build a patchinfo: OBS builds it into the repository's updateinfo.xml;
// here it is "excluded" (farm_recipe.go), so it never fails and leaves no binaries.

// PatchinfoFile is the file that makes a package a patchinfo.
const PatchinfoFile = "_patchinfo"

// patchinfoIssue is an <issue tracker= id=>summary</issue>.
type patchinfoIssue struct {
	Tracker    string `xml:"tracker,attr"`
	ID         string `xml:"id,attr"`
	Documented string `xml:"documented,attr,omitempty"`
	Text       string `xml:",chardata"`
}

type patchinfoTarget struct {
	Project    string `xml:"project,attr"`
	Repository string `xml:"repository,attr,omitempty"`
}

// Patchinfo is the _patchinfo document (patchinfo.rng).
type Patchinfo struct {
	XMLName        xml.Name          `xml:"patchinfo"`
	Incident       string            `xml:"incident,attr,omitempty"`
	Version        string            `xml:"version,attr,omitempty"`
	ReleaseTargets []patchinfoTarget `xml:"releasetarget"`
	Packages       []string          `xml:"package"`
	Binaries       []string          `xml:"binary"`
	Issues         []patchinfoIssue  `xml:"issue"`
	Name           string            `xml:"name,omitempty"`
	Category       string            `xml:"category"`
	Rating         string            `xml:"rating"`
	Summary        string            `xml:"summary"`
	Description    string            `xml:"description"`
	Message        string            `xml:"message,omitempty"`
	Packager       string            `xml:"packager"`
	Stopped        string            `xml:"stopped,omitempty"`
	RebootNeeded   *struct{}         `xml:"reboot_needed"`
	ReloginNeeded  *struct{}         `xml:"relogin_needed"`
	ZyppRestart    *struct{}         `xml:"zypp_restart_needed"`
}

// PatchinfoCreated names the patchinfo package made.
type PatchinfoCreated struct {
	TargetProject, TargetPackage string
}

// CreatePatchinfo runs cmd=createpatchinfo on project for who (name "" is "patchinfo").
func (s *Service) CreatePatchinfo(who buildstore.Person, project, name, comment string, force bool) (PatchinfoCreated, error) {
	if name == "" {
		name = "patchinfo"
	}
	out := PatchinfoCreated{TargetProject: project, TargetPackage: name}
	if !buildstore.ValidPackageName(name) {
		return out, buildsvc.BadRequest("invalid_package_name", "invalid package name '%s'", name)
	}
	now := s.Clock().Now()
	err := s.Store().Write(func(tx kv.Tx) error {
		p, err := buildsvc.MaintainedProject(tx, who, project, "createpatchinfo", true)
		if err != nil {
			return err
		}
		if k, err := buildstore.GetPackage(tx, project, name); err == nil {
			switch {
			case !force:
				return buildsvc.BadRequest("patchinfo_file_exists", "%s/%s/_patchinfo exists already. Either use force=1 re-create the _patchinfo or use updatepatchinfo for updating.", project, name)
			case !isPatchinfo(tx, project, k.Name):
				return buildsvc.BadRequest("package_already_exists", "package %s is not a patchinfo", name)
			}
		} else {
			flags := []buildstore.Flag{{Name: "build", Status: "enable"}}
			if set, on := buildsvc.FlagState(p.Flags, "access"); !set || on {
				flags = append(flags, buildstore.Flag{Name: "publish", Status: "enable"})
			}
			flags = append(flags, buildstore.Flag{Name: "useforbuild", Status: "disable"})
			k := buildstore.Package{Project: project, Name: name, Title: "Patchinfo", Description: "Collected packages for update", Created: now, Flags: flags}
			if err := buildstore.PutPackage(tx, k); err != nil {
				return err
			}
			if err := buildsvc.RecordMeta(tx, k, who.Login, comment, now); err != nil {
				return err
			}
		}
		pi := Patchinfo{Packager: who.Login, Category: "recommended", Rating: "low", Description: comment}
		pi.Summary, _, _ = strings.Cut(strings.ReplaceAll(comment, "\r\n", "\n"), "\n")
		if p.Kind == "maintenance_incident" {
			pi.Incident = project[strings.LastIndex(project, ":")+1:]
		}
		return writePatchinfo(tx, who, p, name, pi, comment, now)
	})
	return out, err
}

// UpdatePatchinfo runs cmd=updatepatchinfo on project/pkg for who: the issues are collected
// again.
func (s *Service) UpdatePatchinfo(who buildstore.Person, project, pkg, comment string) error {
	now := s.Clock().Now()
	return s.Store().Write(func(tx kv.Tx) error {
		if err := buildsvc.Writable(tx, who, project, pkg, "cmd_execution_no_permission"); err != nil {
			return err
		}
		pi, ok, err := readPatchinfo(tx, project, pkg)
		if err != nil {
			return err
		}
		if !ok {
			return buildsvc.BadRequest("illegal_request", "package %s/%s is not a patchinfo: it has no _patchinfo", project, pkg)
		}
		p, _ := buildstore.GetProject(tx, project)
		return writePatchinfo(tx, who, p, pkg, pi, comment, now)
	})
}

// isPatchinfo reports whether project/pkg holds a _patchinfo.
func isPatchinfo(tx kv.Tx, project, pkg string) bool {
	_, ok, _ := readPatchinfo(tx, project, pkg)
	return ok
}

// readPatchinfo reads the _patchinfo of project/pkg's newest revision (ok false when none).
func readPatchinfo(tx kv.Tx, project, pkg string) (Patchinfo, bool, error) {
	var pi Patchinfo
	last, ok, err := buildstore.LatestRevision(tx, project, pkg)
	if err != nil || !ok {
		return pi, false, err
	}
	f, ok := last.File(PatchinfoFile)
	if !ok {
		return pi, false, nil
	}
	data, err := buildstore.GetBlob(tx, f.MD5)
	if err != nil {
		return pi, false, err
	}
	if err := xml.Unmarshal(data, &pi); err != nil {
		return pi, false, buildsvc.Invalid("patchinfo", "%v", err)
	}
	return pi, true, nil
}

// writePatchinfo collects the project's issues into pi and commits it as pkg's _patchinfo
// (with the package's other files).
func writePatchinfo(tx kv.Tx, who buildstore.Person, p buildstore.Project, pkg string, pi Patchinfo, comment string, now time.Time) error {
	if err := collectIssues(tx, p.Name, pkg, &pi); err != nil {
		return err
	}
	data, err := xml.MarshalIndent(pi, "", "  ")
	if err != nil {
		return err
	}
	// Go escapes a line break in text as &#xA;; the description reads better with its lines.
	data = bytes.ReplaceAll(data, []byte("&#xA;"), []byte("\n"))
	sum, err := buildstore.PutBlob(tx, append(data, '\n'))
	if err != nil {
		return err
	}
	var files []buildstore.FileEntry
	if last, ok, err := buildstore.LatestRevision(tx, p.Name, pkg); err != nil {
		return err
	} else if ok {
		for _, f := range last.Files {
			if f.Name != PatchinfoFile {
				files = append(files, f)
			}
		}
	}
	files = append(files, buildstore.FileEntry{Name: PatchinfoFile, MD5: sum})
	_, err = buildsvc.CommitTree(tx, p.Name, pkg, files, who.Login, now, buildsvc.CommitOptions{Comment: comment})
	return err
}

// collectIssues adds to pi the issues the .changes files of project's packages (but skip, the
// patchinfo) mention, in tracker then id order; a CVE makes the category security.
func collectIssues(tx kv.Tx, project, skip string, pi *Patchinfo) error {
	trackers, err := buildstore.Trackers(tx)
	if err != nil {
		return err
	}
	pkgs, err := buildstore.Packages(tx, project)
	if err != nil {
		return err
	}
	have := map[[2]string]bool{}
	for _, i := range pi.Issues {
		have[[2]string{i.Tracker, i.ID}] = true
	}
	var found []patchinfoIssue
	for _, k := range pkgs {
		if k.Name == skip {
			continue
		}
		last, ok, err := buildstore.LatestRevision(tx, project, k.Name)
		if err != nil || !ok {
			continue
		}
		for _, f := range last.Files {
			if !strings.HasSuffix(f.Name, ".changes") {
				continue
			}
			data, err := buildstore.GetBlob(tx, f.MD5)
			if err != nil {
				continue
			}
			for _, t := range trackers {
				re, err := regexp.Compile(t.Regex)
				if err != nil || t.Regex == "" {
					continue
				}
				for _, m := range re.FindAllStringSubmatch(string(data), -1) {
					id := m[0]
					if len(m) > 1 && m[1] != "" {
						id = m[1]
					}
					key := [2]string{t.Name, id}
					if have[key] {
						continue
					}
					have[key] = true
					found = append(found, patchinfoIssue{Tracker: t.Name, ID: id})
					if t.Kind == "cve" {
						pi.Category = "security"
					}
				}
			}
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].Tracker != found[j].Tracker {
			return found[i].Tracker < found[j].Tracker
		}
		return found[i].ID < found[j].ID
	})
	pi.Issues = append(pi.Issues, found...)
	return nil
}
