package search

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// BenchmarkSearchPublishedByName: a published binary search for @name='<name>' over 100,000
// published binaries (250 projects × 100 packages × x86_64, aarch64, source and -doc RPMs,
// with their farm binaries; each name published by ~12 projects) read from the published
// name index, vs the walk of every published tree the search did before it ("raw" here is
// that walk: x-raw below 1 is the index's gain).
func BenchmarkSearchPublishedByName(b *testing.B) {
	db, err := store.Open(filepath.Join(b.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	const projects, packages, names = 250, 100, 2000
	archs := []string{"x86_64", "aarch64"}
	for i := range projects {
		project := fmt.Sprintf("bench:%03d", i)
		err := db.Write(func(tx kv.Tx) error {
			if err := buildstore.PutProject(tx, buildstore.Project{Name: project,
				Repositories: []buildstore.Repository{{Name: "standard", Archs: archs}}}); err != nil {
				return err
			}
			for j := range packages {
				pkg := fmt.Sprintf("pkg%04d", (i*packages+j*7)%names)
				for _, f := range []struct{ name, arch, where string }{
					{pkg, "x86_64", "x86_64"}, {pkg, "aarch64", "aarch64"}, {pkg, "src", "x86_64"}, {pkg + "-doc", "noarch", "x86_64"},
				} {
					file := fmt.Sprintf("%s-1.%d-%d.1.%s.rpm", f.name, i%7, j, f.arch)
					bin := buildstore.Binary{Package: pkg, Filename: file, Name: f.name, Version: fmt.Sprintf("1.%d", i%7),
						Release: fmt.Sprintf("%d.1", j), Arch: f.arch}
					if err := buildstore.PutBinary(tx, buildstore.Where{Project: project, Repository: "standard", Arch: f.where}, bin, nil); err != nil {
						return err
					}
					if err := buildstore.PutPublished(tx, project, "standard", f.arch+"/"+file, []byte("rpm")); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	indexed := New(buildsvc.New(db, clock.Real{}, nil, buildsvc.Options{}), db)
	scanned := New(buildsvc.New(db, clock.Real{}, nil, buildsvc.Options{}), db)
	scanned.scanPublished = true
	search := func(s *Service, i int) {
		found, err := s.SearchPublishedBinaries(buildstore.Person{}, fmt.Sprintf("@name='pkg%04d'", (i*13)%names), Page{})
		if err != nil || found.Matches == 0 {
			b.Fatalf("%d matches, %v", found.Matches, err)
		}
	}
	bench.Compare(b, 1, func(i int) { search(indexed, i) }, func(i int) { search(scanned, i) })
}
