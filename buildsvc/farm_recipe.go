package buildsvc

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// sources is what a build starts from: a package's newest tree, expanded when it is a link,
// and its build recipe (the spec file). broken says, in the backend's words, why there is
// nothing to build: the link does not expand, no file was ever committed, or there is no
// recipe file.
type sources struct {
	rev, srcmd5 string
	vrev        uint64
	version     string
	specName    string
	spec        []byte
	broken      string
	// patchinfo marks a patchinfo (a _patchinfo file) or channel (a _channel file) package,
	// which the farm does not build (OBS makes updateinfo.xml of a patchinfo and aggregates a
	// channel's binaries): the planner calls it excluded.
	patchinfo bool
}

// loadSources reads the sources the farm builds for pkg of project.
func loadSources(tx *bbolt.Tx, project, pkg string) sources {
	v, err := ResolveView(tx, project, pkg, "", true, "")
	if err != nil {
		return sources{broken: strings.TrimSpace(err.Error())}
	}
	src := sources{srcmd5: v.Tree.SrcMD5, vrev: v.Tree.VRev, version: v.Tree.Version}
	if v.Tree.Rev > 0 {
		src.rev = strconv.FormatUint(v.Tree.Rev, 10)
	}
	if len(v.Tree.Files) == 0 {
		src.broken = "no source uploaded"
		return src
	}
	_, patchinfo := v.Tree.File(PatchinfoFile)
	_, channel := v.Tree.File(ChannelFile)
	if patchinfo || channel {
		src.patchinfo = true
		return src
	}
	name := recipeFile(pkg, v.Tree.Files)
	if name == "" {
		src.broken = "no recipe file"
		return src
	}
	f, _ := v.Tree.File(name)
	data, err := v.Content(tx, f.MD5)
	if err != nil {
		src.broken = "no recipe file"
		return src
	}
	src.specName, src.spec = name, append([]byte(nil), data...)
	return src
}

// recipeFile picks the spec file the backend builds: <package>.spec when there is one, else the
// only .spec file, else none (several specs and none named after the package is ambiguous).
func recipeFile(pkg string, files []buildstore.FileEntry) string {
	var specs []string
	for _, f := range files {
		if strings.HasSuffix(f.Name, ".spec") {
			if f.Name == pkg+".spec" {
				return f.Name
			}
			specs = append(specs, f.Name)
		}
	}
	if len(specs) == 1 {
		return specs[0]
	}
	sort.Strings(specs)
	return ""
}
