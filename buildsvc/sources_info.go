package buildsvc

import (
	"bufio"
	"bytes"
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// ?view=info: the backend's sourceinfo of a package — which tree, which spec file, what it
// links to, and on request the name, version, release and subpackages read from the spec —
// and of every package of a project.

// SourceInfo is what the service tells of a package's tree.
type SourceInfo struct {
	Package string
	// Rev and VRev are the revision's numbers; 0 for a tree without a revision.
	Rev, VRev uint64
	// SrcMD5 is the tree described: a link's expanded tree, its own then in LSrcMD5.
	SrcMD5, LSrcMD5, VerifyMD5 string
	// Filename is the spec file; Error says why there is none ("no specfile", a link error).
	Filename, Error string
	// Linked is the link target; nil for a package that is not a link.
	Linked *buildstore.LinkedPackage
	// Name, Version, Release and Subpacks are read from the spec when asked (parse).
	Name, Version, Release string
	Subpacks               []string
}

// PackageInfo describes project/pkg at rev for who; parse reads the spec file too.
func (s *Service) PackageInfo(who buildstore.Person, project, pkg, rev string, parse bool) (SourceInfo, error) {
	var info SourceInfo
	err := s.db.View(func(tx kv.Tx) (err error) {
		if _, _, err := LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		info, err = sourceInfo(tx, who, project, pkg, rev, parse)
		return err
	})
	return info, err
}

// ProjectInfo describes the newest tree of every package of project, or of those named in
// packages, leaving out those whose sources who may not read.
func (s *Service) ProjectInfo(who buildstore.Person, project string, packages []string, parse bool) ([]SourceInfo, error) {
	var out []SourceInfo
	err := s.db.View(func(tx kv.Tx) error {
		out = nil
		if err := buildstore.CheckProject(tx, project); err != nil {
			return NotFoundAs(err, "unknown_project")
		}
		names, err := buildstore.PackageNames(tx, project, false)
		if err != nil {
			return err
		}
		for _, name := range names {
			if len(packages) > 0 && !slices.Contains(packages, name) {
				continue
			}
			info, err := sourceInfo(tx, who, project, name, "", parse)
			if errors.Is(err, store.ErrForbidden) {
				continue // sources this person may not read are left out
			}
			if err != nil {
				return err
			}
			out = append(out, info)
		}
		return nil
	})
	return out, err
}

// sourceInfo describes package pkg's tree: expanded when it is a link (a broken link gives
// the error instead), the spec file named after the package preferred.
func sourceInfo(tx kv.Tx, who buildstore.Person, project, pkg, rev string, parse bool) (SourceInfo, error) {
	info := SourceInfo{Package: pkg}
	v, err := ReadView(tx, who, project, pkg, rev, false, "")
	if err != nil {
		return info, err
	}
	info.SrcMD5 = v.Tree.SrcMD5
	if v.Tree.Rev > 0 {
		info.Rev, info.VRev = v.Tree.Rev, v.Tree.VRev
	}
	if v.Link != nil {
		info.Linked = &buildstore.LinkedPackage{Project: v.Link.Project, Name: v.Link.Package}
		if v.Link.Error != "" {
			info.Error = v.Link.Error
			return info, nil
		}
		if v, err = ReadView(tx, who, project, pkg, rev, true, ""); err != nil {
			return info, err
		}
		info.LSrcMD5, info.SrcMD5 = info.SrcMD5, v.Tree.SrcMD5
	}
	info.VerifyMD5 = v.Tree.SrcMD5
	spec, ok := v.Tree.File(pkg + ".spec")
	for _, f := range v.Tree.Files {
		if !ok && strings.HasSuffix(f.Name, ".spec") {
			spec, ok = f, true
		}
	}
	if !ok {
		info.Error = "no specfile"
		return info, nil
	}
	info.Filename = spec.Name
	if parse {
		data, err := v.Content(tx, spec.MD5)
		if err != nil {
			return info, err
		}
		info.Name, info.Version, info.Release, info.Subpacks = parseSpec(data)
	}
	return info, nil
}

var (
	subpackageLine = regexp.MustCompile(`^%package\s+(-n\s+)?(\S+)`)
	defineLine     = regexp.MustCompile(`^%(?:define|global)\s+(\w+)\s+(.*\S)`)
	macroRef       = regexp.MustCompile(`%\{\??(\w+)\}|%(\w+)`)
)

// parseSpec reads Name, Version and Release (default "0") and the subpackages a spec file
// declares (%package foo → <name>-foo; %package -n foo → foo). Macros the spec defines
// itself (%define, %global, and the name/version/release tags) are expanded; others stay as
// written — there is no rpm here to know them.
func parseSpec(spec []byte) (name, version, release string, subpacks []string) {
	macros := map[string]string{}
	expand := func(s string) string {
		for range 5 { // definitions may refer to each other; a few rounds settle them
			s = macroRef.ReplaceAllStringFunc(s, func(m string) string {
				key := macroRef.FindStringSubmatch(m)
				if v, ok := macros[key[1]+key[2]]; ok {
					return v
				}
				return m
			})
		}
		return s
	}
	sc := bufio.NewScanner(bytes.NewReader(spec))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var subs [][2]string
	for sc.Scan() {
		line := sc.Text()
		if m := defineLine.FindStringSubmatch(line); m != nil {
			macros[m[1]] = expand(m[2])
			continue
		}
		if m := subpackageLine.FindStringSubmatch(line); m != nil {
			subs = append(subs, [2]string{m[1], m[2]})
			continue
		}
		tag, value, ok := strings.Cut(line, ":")
		if !ok || len(subs) > 0 {
			continue
		}
		switch key := strings.ToLower(strings.TrimSpace(tag)); key {
		case "name", "version", "release":
			macros[key] = expand(strings.TrimSpace(value))
		}
	}
	name, version, release = macros["name"], macros["version"], macros["release"]
	if release == "" {
		release = "0"
	}
	if name != "" {
		subpacks = append(subpacks, name)
	}
	for _, s := range subs {
		if s[0] != "" {
			subpacks = append(subpacks, expand(s[1]))
		} else {
			subpacks = append(subpacks, name+"-"+expand(s[1]))
		}
	}
	return name, version, release, subpacks
}
