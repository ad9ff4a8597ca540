package farm

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// BenchmarkProductBuild: what a product job's end costs over the scheduler benchmark's world —
// a product shipping all 1,000 packages of dev/standard: composing it from the store, reading
// each RPM's header, writing the SBOM and the rpm-md, storing them (one write transaction) —
// against the raw layers doing the same writing alone (spdx.WriteDocument and rpmout.Repodata
// over inputs read beforehand). The product's composition in the scheduler's pass is timed
// too ("judge"), against a raw bbolt read of the binaries it looks at.
func BenchmarkProductBuild(b *testing.B) {
	svc, db := benchFarm(b)
	w, st, compose := benchProduct(b, svc, db)
	// The raw layers' inputs: every shipped RPM's metadata and file, read once.
	var sbom spdx.ProductSBOM
	var entries []rpmout.Entry
	db.View(func(tx kv.Tx) error {
		for _, sb := range compose(tx).shipped {
			from := buildstore.Where{Project: sb.Project, Repository: sb.Repository, Arch: "x86_64"}
			stored, _ := buildstore.GetBinary(tx, from, sb.Package, sb.Filename)
			data := append([]byte(nil), buildstore.BinaryFile(tx, from, sb.Package, sb.Filename)...)
			sbom.Packages = append(sbom.Packages, shippedRPM(stored, data))
			e, err := rpmout.NewEntry("x86_64/"+stored.Filename, binaryRPM(stored), data, stored.MTime)
			if err != nil {
				b.Fatal(err)
			}
			entries = append(entries, e)
		}
		return nil
	})
	sbom.Name, sbom.Version, sbom.Arch, sbom.Build, sbom.Created, sbom.Tool = "Dev", "1.0", "x86_64", "Build1.1", svc.clk.Now(), sbomTool
	raw := func(int) {
		var doc bytes.Buffer
		if err := spdx.WriteDocument(&doc, sbom); err != nil {
			b.Fatal(err)
		}
		if _, err := rpmout.Repodata(entries, svc.clk.Now()); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("finish", func(b *testing.B) {
		bench.Compare(b, 1, func(int) {
			err := db.Write(func(tx kv.Tx) error {
				return svc.storeProductBinaries(tx, w, st, compose(tx), svc.clk.Now())
			})
			if err != nil {
				b.Fatal(err)
			}
		}, raw)
	})
	b.Run("judge", func(b *testing.B) {
		bench.Compare(b, 1, func(int) {
			db.View(func(tx kv.Tx) error {
				compose(tx)
				return nil
			})
		}, func(int) {
			db.View(func(tx kv.Tx) error {
				if rawFarmRead(tx) == 0 {
					b.Fatal("the raw read found nothing")
				}
				return nil
			})
		})
	})
}

// benchProduct adds to a benchFarm world a product (dev/product, x86_64) shipping its 1,000
// packages, and returns its where, its build status and its composition.
func benchProduct(b *testing.B, svc *Farm, db *store.DB) (buildstore.Where, buildstore.BuildStatus, func(tx kv.Tx) composition) {
	var names []string
	for i := range 1000 {
		names = append(names, fmt.Sprintf("p%04d", i))
	}
	def := "product_compose_schema: 0.2\nvendor: Dev\nname: Dev\nversion: 1.0\narchitectures: [x86_64]\npackagesets:\n- packages: [" + strings.Join(names, ", ") + "]\n"
	w := buildstore.Where{Project: "dev", Repository: "product", Arch: "x86_64"}
	err := db.Write(func(tx kv.Tx) error {
		p, err := buildstore.GetProject(tx, "dev")
		if err != nil {
			return err
		}
		p.Config = productConfig
		p.Repositories = append(p.Repositories, buildstore.Repository{Name: "product", Archs: []string{"x86_64"},
			Paths: []buildstore.Path{{Project: "dev", Repository: "standard"}}})
		if err := buildstore.PutProject(tx, p); err != nil {
			return err
		}
		if err := buildstore.PutPackage(tx, buildstore.Package{Project: "dev", Name: "000product"}); err != nil {
			return err
		}
		sum, err := buildstore.PutBlob(tx, []byte(def))
		if err != nil {
			return err
		}
		_, err = buildsvc.CommitRevision(tx, "dev", "000product", []buildstore.FileEntry{{Name: "dev.productcompose", MD5: sum}}, buildstore.Revision{User: "alice"}, svc.clk.Now())
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	st := buildstore.BuildStatus{Package: "000product", SrcMD5: "0123456789abcdef0123456789abcdef", VRev: 1, Bcnt: 1}
	compose := func(tx kv.Tx) composition {
		src := loadSources(tx, "dev", "000product")
		chain, _ := buildsvc.RepoChain(tx, "dev", "product")
		c, why := composeAt(tx, w, src, chain)
		if why != "" || len(c.shipped) != 1000 {
			b.Fatalf("composition: %q, %d shipped", why, len(c.shipped))
		}
		return c
	}
	return w, st, compose
}
