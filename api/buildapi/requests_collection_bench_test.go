package buildapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/internal/testkit/demofile"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The request collection's benchmark world: 100,000 requests over 200 projects and 50 users
// (u00…u49, in 10 review groups team-0…team-9), most of them closed, each with a review and a
// history. u00 is a quiet user: it created ~150 requests, maintains prj:199 (~140 requests
// target it) and is asked, through team-0, for ~100 open reviews — a few hundred matches.
const (
	benchRequests = 100_000
	benchProjects = 200
	benchUsers    = 50
	benchGroups   = 10
)

// seedRequestBench writes the demo world, then the benchmark world.
func seedRequestBench(path string) error {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	if err := demofile.Seed(path, now, buildCreds); err != nil {
		return err
	}
	db, err := store.Open(path, store.Options{Durability: store.NoSync})
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Exclusive(func(tx kv.Tx) error {
		if err := benchPeople(tx, now); err != nil {
			return err
		}
		return benchProjectsWorld(tx, now)
	}); err != nil {
		return err
	}
	// Several transactions, not one: bbolt splits the nodes a transaction touches only when it
	// commits, so index keys inserted all over the tree make one huge transaction quadratic.
	rnd := rand.New(rand.NewPCG(15, 15))
	const batch = 5000
	for start := 0; start < benchRequests; start += batch {
		if err := db.Exclusive(func(tx kv.Tx) error {
			for i := start; i < start+batch; i++ {
				id, err := buildstore.NewRequestID(tx)
				if err != nil {
					return err
				}
				if err := buildstore.PutRequest(tx, benchRequest(rnd, i, id, now)); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

func benchUser(i int) string { return fmt.Sprintf("u%02d", i) }

func prjName(i int) string { return fmt.Sprintf("prj:%03d", i) }

func benchPeople(tx kv.Tx, now time.Time) error {
	for i := range benchUsers {
		p := buildstore.Person{Login: benchUser(i), Email: benchUser(i) + "@pocketforge.test", Realname: "User " + benchUser(i),
			State: buildstore.StateConfirmed, Created: now}
		if i == 0 {
			if err := p.SetPassword("u00-password"); err != nil {
				return err
			}
		}
		if err := buildstore.PutPerson(tx, p); err != nil {
			return err
		}
	}
	for g := range benchGroups {
		grp := buildstore.Group{Title: fmt.Sprintf("team-%d", g), Email: "team@pocketforge.test"}
		for i := g; i < benchUsers; i += benchGroups {
			grp.Members = append(grp.Members, benchUser(i))
		}
		if err := buildstore.PutGroup(tx, grp); err != nil {
			return err
		}
	}
	return nil
}

// benchProjectsWorld writes 200 projects of realistic size; prj:199 is u00's, the others are
// maintained by u01…u49 with a review group each.
func benchProjectsWorld(tx kv.Tx, now time.Time) error {
	for i := range benchProjects {
		maintainer := benchUser(1 + i%(benchUsers-1))
		if i == benchProjects-1 {
			maintainer = benchUser(0)
		}
		p := buildstore.Project{Name: prjName(i), Title: "Project " + prjName(i), Created: now,
			Description: "A project of the request collection benchmark, with a description of typical length.",
			Persons:     []buildstore.Role{{ID: maintainer, Role: buildstore.RoleMaintainer}, {ID: benchUser(1 + (i+7)%(benchUsers-1)), Role: "bugowner"}},
			Groups:      []buildstore.Role{{ID: fmt.Sprintf("team-%d", i%benchGroups), Role: "reviewer"}},
			Repositories: []buildstore.Repository{
				{Name: "standard", Paths: []buildstore.Path{{Project: "Pocket:1.0", Repository: "standard"}}, Archs: []string{"x86_64", "aarch64"}},
				{Name: "next", Paths: []buildstore.Path{{Project: "Pocket:1.0", Repository: "standard"}}, Archs: []string{"x86_64"}},
			}}
		if err := buildstore.PutProject(tx, p); err != nil {
			return err
		}
	}
	return nil
}

// benchRequest is request number i: a submit between two projects, mostly closed.
func benchRequest(rnd *rand.Rand, i int, id uint64, now time.Time) buildstore.Request {
	creator := benchUser(1 + rnd.IntN(benchUsers-1))
	if i%666 == 0 {
		creator = benchUser(0)
	}
	target := prjName(rnd.IntN(benchProjects - 1))
	if i%700 == 1 {
		target = prjName(benchProjects - 1)
	}
	pkg := fmt.Sprintf("pkg-%03d", rnd.IntN(300))
	when := now.Add(-time.Duration(benchRequests-i) * time.Minute)
	state := buildstore.RequestAccepted
	switch n := rnd.IntN(100); {
	case n < 6:
		state = buildstore.RequestNew
	case n < 10:
		state = buildstore.RequestReview
	case n < 25:
		state = buildstore.RequestDeclined
	case n < 30:
		state = buildstore.RequestRevoked
	}
	open := state == buildstore.RequestNew || state == buildstore.RequestReview
	review := buildstore.Review{State: buildstore.RequestAccepted, ByGroup: fmt.Sprintf("team-%d", 1+rnd.IntN(benchGroups-1)),
		Who: benchUser(rnd.IntN(benchUsers)), When: when.Add(time.Minute), Comment: "looks good"}
	if open {
		review.State, review.Who, review.Comment = buildstore.RequestNew, "", ""
		if rnd.IntN(100) == 0 {
			review.ByGroup = "team-0"
		}
	}
	r := buildstore.Request{ID: id, Creator: creator, Description: "Update " + pkg + " to the latest upstream release, with the packaging fixes",
		Actions: []buildstore.RequestAction{{Type: "submit",
			Source: &buildstore.ActionSource{Project: prjName(rnd.IntN(benchProjects)), Package: pkg, Rev: strconv.Itoa(1 + rnd.IntN(20))},
			Target: &buildstore.ActionTarget{Project: target, Package: pkg}}},
		State:   buildstore.RequestState{Name: state, Who: creator, When: when.Add(2 * time.Minute), Created: when},
		Reviews: []buildstore.Review{review},
		History: []buildstore.HistoryRecord{{Who: creator, When: when, Description: "Request created", Comment: "please"}},
		Updated: when}
	if !open {
		r.History = append(r.History, buildstore.HistoryRecord{Who: review.Who, When: when.Add(time.Minute), Description: "Review got accepted"},
			buildstore.HistoryRecord{Who: review.Who, When: when.Add(2 * time.Minute), Description: "Request got " + state})
	}
	return r
}

var benchIDAttr = regexp.MustCompile(`<request id="(\d+)"`)

// BenchmarkRequestCollection: GET /request?view=collection&user=u00 over 100,000 requests, as
// u00 (not Admin, so read protection is checked), through HTTP on loopback (issue 15: p50 ≤ 20
// ms); raw is a bbolt Get and JSON decode of the same requests, in one read transaction; x-raw
// is the ratio. Run briefly: -bench RequestCollection -benchtime 40x.
func BenchmarkRequestCollection(b *testing.B) {
	db, err := store.Open(apitest.DataFile(b, "request-collection-bench", seedRequestBench), store.Options{Durability: store.NoSync})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	e := benchEnvOn(b, db)
	e.auth = basic("u00", "u00-password")["Authorization"]
	const path = "/request?view=collection&user=u00"
	body := e.do(b, "GET", path, nil) // warm-up: bcrypt once, then the credential cache
	var ids [][]byte
	for _, m := range benchIDAttr.FindAllSubmatch(body, -1) {
		n, _ := strconv.ParseUint(string(m[1]), 10, 64)
		ids = append(ids, store.Itob(n))
	}
	if len(ids) < 200 || len(ids) > 800 {
		b.Fatalf("u00 matches %d requests, want a few hundred", len(ids))
	}
	want := []byte(fmt.Sprintf(`<collection matches="%d">`, len(ids)))
	bench.Compare(b, 1, func(int) {
		t0 := time.Now()
		got := e.do(b, "GET", path, nil)
		e.took = append(e.took, time.Since(t0))
		if !bytes.HasPrefix(got, want) {
			b.Fatalf("collection: %.200s", got)
		}
	}, func(int) {
		must(b, db.View(func(tx kv.Tx) error {
			bk := tx.Bucket([]byte(store.BuildRequests))
			for _, k := range ids {
				var r buildstore.Request
				if err := json.Unmarshal(bk.Get(k), &r); err != nil {
					return err
				}
			}
			return nil
		}))
	})
	e.report(b)
	b.ReportMetric(float64(len(ids)), "matches")
}
