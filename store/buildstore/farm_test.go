package buildstore

import (
	"bytes"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store/kv"
)

// TestFarmDirtyQueue: every write of a project, package or revision queues the project for the
// scheduler; a ticket read before a later change does not take it off the queue.
func TestFarmDirtyQueue(t *testing.T) {
	db := openTest(t)
	now := time.Unix(1_700_000_000, 0)
	dirty := func() (names []string, tickets []uint64) {
		db.View(func(tx kv.Tx) (err error) { names, tickets, err = DirtyProjects(tx); return })
		return
	}
	must(t, db, func(tx kv.Tx) error { return PutProject(tx, Project{Name: "p"}) })
	names, tickets := dirty()
	if len(names) != 1 || names[0] != "p" {
		t.Fatalf("after PutProject the queue is %v", names)
	}
	must(t, db, func(tx kv.Tx) error { return ClearDirty(tx, "p", tickets[0]) })
	if names, _ := dirty(); len(names) != 0 {
		t.Fatalf("after ClearDirty the queue is %v", names)
	}

	steps := []struct {
		name  string
		write func(tx kv.Tx) error
	}{
		{"PutPackage", func(tx kv.Tx) error { return PutPackage(tx, Package{Project: "p", Name: "k"}) }},
		{"Commit", func(tx kv.Tx) error {
			sum, err := PutBlob(tx, []byte("Name: k\nVersion: 1\n"))
			if err != nil {
				return err
			}
			_, err = AppendRevision(tx, "p", "k", []FileEntry{{Name: "k.spec", MD5: sum}}, Revision{User: "u"}, now)
			return err
		}},
		{"DeletePackage", func(tx kv.Tx) error { return DeletePackage(tx, "p", "k") }},
		{"UndeletePackage", func(tx kv.Tx) error { return UndeletePackage(tx, "p", "k") }},
		{"PurgePackage", func(tx kv.Tx) error { return PurgePackage(tx, "p", "k") }},
		{"DeleteProject", func(tx kv.Tx) error { return DeleteProject(tx, "p") }},
	}
	for _, s := range steps {
		must(t, db, s.write)
		names, tickets := dirty()
		if len(names) != 1 || names[0] != "p" {
			t.Fatalf("after %s the queue is %v", s.name, names)
		}
		// A change after the ticket was read keeps the project queued.
		must(t, db, func(tx kv.Tx) error { return MarkDirty(tx, "p") })
		must(t, db, func(tx kv.Tx) error { return ClearDirty(tx, "p", tickets[0]) })
		if names, _ := dirty(); len(names) != 1 {
			t.Fatalf("%s: a stale ticket took the project off the queue", s.name)
		}
		_, tickets = dirty()
		must(t, db, func(tx kv.Tx) error { return ClearDirty(tx, "p", tickets[0]) })
	}
}

// TestFarmRecords: statuses, binaries with their files, logs and histories are kept per where
// and package, listed in order, and dropped per package, per where and per project.
func TestFarmRecords(t *testing.T) {
	db := openTest(t)
	now := time.Unix(1_700_000_000, 0).UTC()
	x86 := Where{Project: "p", Repository: "r", Arch: "x86_64"}
	arm := Where{Project: "p", Repository: "r", Arch: "aarch64"}
	other := Where{Project: "p2", Repository: "r", Arch: "x86_64"}
	must(t, db, func(tx kv.Tx) error {
		for _, w := range []Where{x86, arm, other} {
			for _, k := range []string{"b", "a"} {
				if err := PutStatus(tx, w, BuildStatus{Package: k, Code: CodeSucceeded}); err != nil {
					return err
				}
				if err := PutBinary(tx, w, Binary{Package: k, Filename: k + "-1-1.x86_64.rpm", Name: k, Arch: "x86_64"}, []byte("rpm of "+k)); err != nil {
					return err
				}
				if err := StartLog(tx, w, k); err != nil {
					return err
				}
				if err := AppendLog(tx, w, k, []byte("line 1\n")); err != nil {
					return err
				}
			}
		}
		if err := AddHistory(tx, x86, "a", HistoryEntry{Rev: "1", Bcnt: 1, Time: now}); err != nil {
			return err
		}
		return AddJobHistory(tx, x86, JobHistoryEntry{Package: "a", Code: CodeSucceeded, EndTime: now})
	})
	db.View(func(tx kv.Tx) error {
		wheres, err := FarmWheres(tx, "p")
		if err != nil || len(wheres) != 2 || wheres[0] != arm || wheres[1] != x86 {
			t.Errorf("FarmWheres(p) = %v, %v", wheres, err)
		}
		st, err := Statuses(tx, x86)
		if err != nil || len(st) != 2 || st[0].Package != "a" {
			t.Errorf("Statuses = %+v, %v", st, err)
		}
		bins, _ := Binaries(tx, x86, "")
		if len(bins) != 2 || bins[0].Package != "a" {
			t.Errorf("Binaries = %+v", bins)
		}
		if f := BinaryFile(tx, x86, "b", "b-1-1.x86_64.rpm"); !bytes.Equal(f, []byte("rpm of b")) {
			t.Errorf("BinaryFile = %q", f)
		}
		if h, _ := History(tx, x86, "a"); len(h) != 1 || !h[0].Time.Equal(now) {
			t.Errorf("History = %+v", h)
		}
		if j, _ := JobHistory(tx, x86); len(j) != 1 || j[0].Package != "a" {
			t.Errorf("JobHistory = %+v", j)
		}
		return nil
	})
	// A new job keeps the finished log as the last one.
	must(t, db, func(tx kv.Tx) error { return StartLog(tx, x86, "a") })
	db.View(func(tx kv.Tx) error {
		cur, _ := Log(tx, x86, "a", false)
		last, ok := Log(tx, x86, "a", true)
		if len(cur) != 0 || !ok || string(last) != "line 1\n" {
			t.Errorf("after a new job: current %q, last %q", cur, last)
		}
		return nil
	})
	must(t, db, func(tx kv.Tx) error { return DeleteBinaries(tx, x86, "a") })
	db.View(func(tx kv.Tx) error {
		if HasBinaries(tx, x86, "a") || !HasBinaries(tx, x86, "b") || !HasBinaries(tx, arm, "a") {
			t.Error("DeleteBinaries(x86, a) dropped the wrong binaries")
		}
		return nil
	})
	must(t, db, func(tx kv.Tx) error { return PurgeFarm(tx, "p") })
	db.View(func(tx kv.Tx) error {
		if w, _ := FarmWheres(tx, "p"); len(w) != 0 {
			t.Errorf("after PurgeFarm(p): %v", w)
		}
		if w, _ := FarmWheres(tx, "p2"); len(w) != 1 {
			t.Errorf("PurgeFarm(p) touched p2: %v", w)
		}
		if _, err := GetStatus(tx, x86, "a"); err == nil {
			t.Error("a status of p survived PurgeFarm")
		}
		return nil
	})
}
