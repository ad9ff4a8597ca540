package buildapi

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// BenchmarkBuildResult: GET /build/<project>/_result of a project of 1,000 packages in one
// repository and arch, all with statuses, over HTTP (issue 14: ≤ 20 ms), against a raw bbolt
// cursor over the same status records; x-raw is the ratio.
func BenchmarkBuildResult(b *testing.B) {
	e := newBenchEnv(b)
	const project, n = "bench:farm", 1000
	w := buildstore.Where{Project: project, Repository: "standard", Arch: "x86_64"}
	codes := []string{buildstore.CodeSucceeded, buildstore.CodeFailed, buildstore.CodeUnresolvable, buildstore.CodeExcluded}
	must(b, e.db.Write(func(tx kv.Tx) error {
		p := buildstore.Project{Name: project, Repositories: []buildstore.Repository{{Name: w.Repository, Archs: []string{w.Arch}}}}
		if err := buildstore.PutProject(tx, p); err != nil {
			return err
		}
		for i := range n {
			st := buildstore.BuildStatus{Package: fmt.Sprintf("pkg%04d", i), Code: codes[i%len(codes)], SrcMD5: fmt.Sprintf("%032x", i),
				Version: "1.0", VRev: 1, Bcnt: 1, Reason: buildstore.Reason{Explain: "new build", Time: time.Unix(1e9, 0)}}
			if st.Code == buildstore.CodeUnresolvable {
				st.Details = "nothing provides libfoo-devel"
			}
			if err := buildstore.PutStatus(tx, w, st); err != nil {
				return err
			}
		}
		if err := buildstore.PutRepoState(tx, w, buildstore.RepoState{Code: "published"}); err != nil {
			return err
		}
		ticket, _ := buildstore.Ticket(tx, project)
		return buildstore.ClearDirty(tx, project, ticket)
	}))
	path := "/build/" + project + "/_result"
	if body := e.do(b, "GET", path, nil); bytes.Count(body, []byte("<status package=")) != n {
		b.Fatalf("the answer lacks statuses:\n%.500s", body)
	}
	prefix := append(w.Key(), 0)
	var sink int
	bench.Compare(b, 1, func(int) {
		start := time.Now()
		e.do(b, "GET", path, nil)
		e.took = append(e.took, time.Since(start))
	}, func(int) {
		must(b, e.db.View(func(tx kv.Tx) error {
			c := tx.Bucket([]byte(store.BuildFarmStatus)).Cursor()
			for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
				sink += len(v)
			}
			return nil
		}))
	})
	e.report(b)
	_ = sink
}
