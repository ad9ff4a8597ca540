package farm

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"sort"
	"strings"
	"testing/fstest"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// ProductMedium is one product medium the farm has published (farm_product.go): the
// directory <Name>/ of a repository's published tree holding <Name>.spdx.json and repodata/.
// It is what the explorer follows to import farm-built products.
type ProductMedium struct {
	Project, Repository string
	Arch                string // the product's architecture, from its name
	Package             string // the product package that built it; "" when its binaries are gone
	Name                string // the product's full name, "Pocket-1.0-x86_64-Build1.1"
	// Digest is a SHA-256 over the medium's published files (paths and contents): it changes
	// whenever one of them does, and only then.
	Digest string
}

// PublishedProducts lists the product media published in project's repositories, by
// repository and name, as who may see them: a project hidden from who is 404 unknown_project,
// as every read of the farm answers it.
func (s *Farm) PublishedProducts(who buildstore.Person, project string) ([]ProductMedium, error) {
	var out []ProductMedium
	err := s.db.View(func(tx kv.Tx) error {
		p, err := buildsvc.ReadableProject(tx, who, project)
		if err != nil {
			return err
		}
		for _, r := range p.Repositories {
			media := map[string][]string{} // medium → its "path sha256" lines
			for _, e := range buildstore.PublishedFiles(tx, project, r.Name, "") {
				medium, _, ok := strings.Cut(e.Path, "/")
				if !ok || !strings.HasSuffix(e.Path, "/"+medium+".spdx.json") && !strings.HasPrefix(e.Path, medium+"/repodata/") {
					continue
				}
				sum := sha256.Sum256(buildstore.PublishedFile(tx, project, r.Name, e.Path))
				media[medium] = append(media[medium], e.Path+" "+hex.EncodeToString(sum[:]))
			}
			names := make([]string, 0, len(media))
			for m, lines := range media {
				if hasLinePrefix(lines, m+"/"+m+".spdx.json ") {
					names = append(names, m)
				}
			}
			sort.Strings(names)
			for _, m := range names {
				sort.Strings(media[m])
				sum := sha256.Sum256([]byte(strings.Join(media[m], "\n")))
				_, _, arch, _ := spdx.ParseProductName(m)
				out = append(out, ProductMedium{Project: project, Repository: r.Name, Arch: arch,
					Package: mediumPackage(tx, buildstore.Where{Project: project, Repository: r.Name, Arch: arch}, m),
					Name:    m, Digest: hex.EncodeToString(sum[:])})
			}
		}
		return nil
	})
	return out, err
}

// hasLinePrefix reports whether a line of lines starts with prefix.
func hasLinePrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// mediumPackage is the package whose binaries in w make up medium m ("" when none does).
func mediumPackage(tx kv.Tx, w buildstore.Where, m string) string {
	bins, _ := buildstore.Binaries(tx, w, "")
	for _, b := range bins {
		if b.Medium == m {
			return b.Package
		}
	}
	return ""
}

// ProductFiles returns the published files of medium m, as who may read them, rooted at the
// medium: <Name>.spdx.json and repodata/…, the layout the explorer's importer reads. A medium
// that is not (or no longer) published is 404 unknown_product.
func (s *Farm) ProductFiles(who buildstore.Person, m ProductMedium) (fs.FS, error) {
	out := fstest.MapFS{}
	err := s.db.View(func(tx kv.Tx) error {
		if _, err := buildsvc.ReadableProject(tx, who, m.Project); err != nil {
			return err
		}
		if m.Name == "" || strings.ContainsAny(m.Name, "/") {
			return fault.NotFound("unknown_product", "Unknown product medium '%s'", m.Name)
		}
		for _, e := range buildstore.PublishedFiles(tx, m.Project, m.Repository, m.Name) {
			rel := strings.TrimPrefix(e.Path, m.Name+"/")
			if rel != m.Name+".spdx.json" && !strings.HasPrefix(rel, "repodata/") {
				continue
			}
			out[rel] = &fstest.MapFile{Data: append([]byte(nil), buildstore.PublishedFile(tx, m.Project, m.Repository, e.Path)...), Mode: 0o644}
		}
		if out[m.Name+".spdx.json"] == nil {
			return fault.NotFound("unknown_product", "Product medium '%s' is not published in %s/%s", m.Name, m.Project, m.Repository)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
