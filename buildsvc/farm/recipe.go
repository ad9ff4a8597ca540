package farm

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/maintenance"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
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
	// productName and product are the package's product definition (a *.productcompose
	// file), which a repository of build type productcompose builds (farm_product.go).
	productName string
	product     []byte
	broken      string
	// patchinfo marks a patchinfo (a _patchinfo file) or channel (a _channel file) package,
	// which the farm does not build (OBS makes updateinfo.xml of a patchinfo and aggregates a
	// channel's binaries): the planner calls it excluded.
	patchinfo bool
}

// loadSources reads the sources the farm builds for pkg of project.
func loadSources(tx kv.Tx, project, pkg string) sources {
	v, err := buildsvc.ResolveView(tx, project, pkg, "", true, "")
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
	_, patchinfo := v.Tree.File(maintenance.PatchinfoFile)
	_, channel := v.Tree.File(maintenance.ChannelFile)
	if patchinfo || channel {
		src.patchinfo = true
		return src
	}
	read := func(name string) []byte {
		f, _ := v.Tree.File(name)
		data, err := v.Content(tx, f.MD5)
		if err != nil {
			return nil
		}
		return append([]byte{}, data...) // an empty recipe is still one (that does not parse)
	}
	if name := recipeFile(pkg, v.Tree.Files, ".spec"); name != "" {
		src.specName, src.spec = name, read(name)
	}
	if name := recipeFile(pkg, v.Tree.Files, productSuffix); name != "" {
		src.productName, src.product = name, read(name)
	}
	if src.spec == nil && src.product == nil {
		src.broken = "no recipe file"
	}
	return src
}

// recipeType is the build type a package is built as in a repository of build type repoType
// (the configuration's Type:, "spec" when it names none): "spec" when the package has a spec
// file, "productcompose" when it has a product definition, "" when it has no recipe of that
// type — the package is then excluded there, as OBS excludes a package without a recipe of
// the repository's type (a distribution's spec packages in its product repository, its
// 000productcompose in the standard one).
func (src sources) recipeType(repoType string) string {
	switch {
	case repoType == productType && src.product != nil:
		return productType
	case repoType != productType && src.spec != nil:
		return "spec"
	}
	return ""
}

// recipeFile picks the recipe the backend builds among the files ending in suffix (".spec",
// ".productcompose"): <package><suffix> when there is one, else the only such file, else none
// (several and none named after the package is ambiguous).
func recipeFile(pkg string, files []buildstore.FileEntry, suffix string) string {
	var specs []string
	for _, f := range files {
		if strings.HasSuffix(f.Name, suffix) {
			if f.Name == pkg+suffix {
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
