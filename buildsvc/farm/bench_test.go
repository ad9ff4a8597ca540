package farm

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// benchFarm is the scheduler benchmark world: 1,000 packages with specs and binaries
// in one repository and arch (dev/standard/x86_64), in 100 dependency chains of depth 10 (p0
// of a chain needs only the base, each next one BuildRequires the one before), over a base
// repository with the compiler toolchain.
func benchFarm(b *testing.B) (*Farm, *store.DB) {
	b.Helper()
	db, err := store.Open(filepath.Join(b.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	clk := clock.NewFixed(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	svc := New(buildsvc.New(db, clk, nil, buildsvc.Options{}), db, clk, nil, Options{Workers: 4, BuildTime: 10 * time.Second})
	err = db.Write(func(tx kv.Tx) error {
		base := buildstore.Project{Name: "base", Repositories: []buildstore.Repository{{Name: "standard", Archs: []string{"x86_64"}}}}
		dev := buildstore.Project{Name: "dev", Repositories: []buildstore.Repository{{Name: "standard", Archs: []string{"x86_64"},
			Paths: []buildstore.Path{{Project: "base", Repository: "standard"}}}}}
		for _, p := range []buildstore.Project{base, dev} {
			if err := buildstore.PutProject(tx, p); err != nil {
				return err
			}
		}
		bw := buildstore.Where{Project: "base", Repository: "standard", Arch: "x86_64"}
		for _, name := range []string{"gcc", "make", "glibc", "rpm-build", "bash", "coreutils", "binutils", "cpp"} {
			bin := buildstore.Binary{Package: "_repository", Filename: name + "-1.0-1.1.x86_64.rpm", Name: name, Version: "1.0", Release: "1.1", Arch: "x86_64"}
			if err := buildstore.PutBinary(tx, bw, bin, benchRPM(b, bin)); err != nil {
				return err
			}
		}
		w := buildstore.Where{Project: "dev", Repository: "standard", Arch: "x86_64"}
		for i := range 1000 {
			name := fmt.Sprintf("p%04d", i)
			extra := ""
			if i%10 != 0 {
				extra = fmt.Sprintf("BuildRequires: p%04d", i-1)
			}
			if err := buildstore.PutPackage(tx, buildstore.Package{Project: "dev", Name: name}); err != nil {
				return err
			}
			sum, err := buildstore.PutBlob(tx, []byte(spec(name, extra)))
			if err != nil {
				return err
			}
			if _, err := buildsvc.CommitRevision(tx, "dev", name, []buildstore.FileEntry{{Name: name + ".spec", MD5: sum}}, buildstore.Revision{User: "alice"}, clk.Now()); err != nil {
				return err
			}
			bin := buildstore.Binary{Package: name, Filename: name + "-1.0-1.1.x86_64.rpm", Name: name, Version: "1.0", Release: "1.1", Arch: "x86_64"}
			if err := buildstore.PutBinary(tx, w, bin, benchRPM(b, bin)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	// The first pass decides every package (the chains' heads scheduled, the rest blocked);
	// the timed passes recalculate that state, as a pass after any change does.
	if err := svc.SchedulePending(); err != nil {
		b.Fatal(err)
	}
	return svc, db
}

// benchRPM is a real RPM file for bin (publishing reads them).
func benchRPM(b *testing.B, bin buildstore.Binary) []byte {
	var buf bytes.Buffer
	r := rpmout.RPM{Name: bin.Name, Version: bin.Version, Release: bin.Release, Arch: bin.Arch, Summary: bin.Name, License: "MIT",
		Files: []rpmout.File{{Path: "/usr/bin/" + bin.Name, Body: []byte("#!/bin/sh\n")}}}
	if err := rpmout.Write(&buf, r); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// rawFarmRead reads, without decoding, what a pass over dev reads of its own records: the
// statuses and binaries of its where, its package records and their revisions.
func rawFarmRead(tx kv.Tx) int {
	n := 0
	for _, r := range []struct{ bucket, prefix string }{
		{store.BuildFarmStatus, "dev\x00standard\x00x86_64\x00"},
		{store.BuildFarmBinaries, "dev\x00standard\x00x86_64\x00"},
		{store.BuildPackages, "dev\x00"},
		{store.BuildRevisions, "dev\x00"},
	} {
		c := tx.Bucket([]byte(r.bucket)).Cursor()
		p := []byte(r.prefix)
		for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
			n += len(v)
		}
	}
	return n
}

// BenchmarkSchedulePass: one full scheduler pass over 1,000 packages in one repository with
// dependency chains of depth 10 (issue 14's budget: 200 ms), against a raw bbolt read of the
// same records. "pass" is what the farm's clock job runs (SchedulePending on the queued
// project: the planner's read transaction, the write of every status, publishing's check);
// "planner" is the planner alone in its read transaction.
func BenchmarkSchedulePass(b *testing.B) {
	svc, db := benchFarm(b)
	raw := func(int) {
		db.View(func(tx kv.Tx) error {
			if rawFarmRead(tx) == 0 {
				b.Fatal("the raw read found nothing")
			}
			return nil
		})
	}
	b.Run("pass", func(b *testing.B) {
		bench.Compare(b, 1, func(int) {
			if err := db.Write(func(tx kv.Tx) error { return buildstore.MarkDirty(tx, "dev") }); err != nil {
				b.Fatal(err)
			}
			if err := svc.SchedulePending(); err != nil {
				b.Fatal(err)
			}
		}, raw)
	})
	b.Run("planner", func(b *testing.B) {
		bench.Compare(b, 1, func(int) {
			db.View(func(tx kv.Tx) error {
				p, err := buildstore.GetProject(tx, "dev")
				if err != nil {
					b.Fatal(err)
				}
				pl := newPlanner(tx, p, svc.clk.Now())
				pl.specs, pl.decoded = &svc.specs, svc.statuses
				plans, err := pl.plan()
				if err != nil || len(plans) != 1 || len(plans[0].statuses) != 1000 {
					b.Fatalf("the plan: %d wheres, %v", len(plans), err)
				}
				return nil
			})
		}, raw)
	})
}
