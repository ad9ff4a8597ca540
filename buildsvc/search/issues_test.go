package search

import (
	"reflect"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/internal/testkit/testdb"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestIssueStateAndOwner: an issue a tracker fetch would have filled (the appliance fetches
// none, so this is the record written directly) answers the state, owner and filters OBS
// gives it, in /search/issue, the package search and ?view=issues alike.
func TestIssueStateAndOwner(t *testing.T) {
	db := testdb.Open(t)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := New(buildsvc.New(db, clock.NewFixed(now), nil, buildsvc.Options{}), db)
	if err := db.Write(func(tx kv.Tx) error {
		if err := buildstore.PutPerson(tx, buildstore.Person{Login: "ann", Email: "ann@x.test", State: buildstore.StateConfirmed}); err != nil {
			return err
		}
		if err := buildstore.PutTracker(tx, buildstore.IssueTracker{Name: "pocket", Kind: "other", URL: "u", ShowURL: "https://i.test/@@@",
			Regex: `pocket#(\d+)`, Label: "pocket#@@@"}); err != nil {
			return err
		}
		if err := buildstore.PutProject(tx, buildstore.Project{Name: "p"}); err != nil {
			return err
		}
		if err := buildstore.PutPackage(tx, buildstore.Package{Project: "p", Name: "k"}); err != nil {
			return err
		}
		sum, err := buildstore.PutBlob(tx, []byte("- pocket#1 pocket#2\n"))
		if err != nil {
			return err
		}
		if _, err := buildsvc.CommitTree(tx, "p", "k", []buildstore.FileEntry{{Name: "k.changes", MD5: sum}}, "ann", now, buildsvc.CommitOptions{}); err != nil {
			return err
		}
		// What a fetch would write.
		return store.Put(tx, store.BuildIssues, []byte("pocket\x001"), buildstore.Issue{Tracker: "pocket", Name: "1",
			State: buildstore.IssueOpen, Summary: "crash", Owner: "ann", Created: now, Updated: now})
	}); err != nil {
		t.Fatal(err)
	}
	names := func(list []buildsvc.IssueView) (out []string) {
		for _, v := range list {
			out = append(out, v.Name)
		}
		return out
	}
	for _, c := range []struct {
		match string
		want  []string
	}{
		{`@state='OPEN'`, []string{"1"}},
		{`not(@state='OPEN')`, []string{"2"}},
		{`owner/@login='ann'`, []string{"1"}},
		{`owner/@email='ann@x.test' and @tracker='pocket'`, []string{"1"}},
	} {
		found, err := s.SearchIssues(buildstore.Person{Login: "ann"}, c.match, Page{})
		if err != nil || !reflect.DeepEqual(names(found.Records), c.want) {
			t.Errorf("%s: %v %v, want %v", c.match, names(found.Records), err, c.want)
		}
	}
	found, err := s.SearchIssues(buildstore.Person{}, `@name='1'`, Page{})
	if err != nil || len(found.Records) != 1 || found.Records[0].OwnerPerson == nil || found.Records[0].URL != "https://i.test/1" ||
		found.Records[0].Label != "pocket#1" || found.Records[0].Summary != "crash" {
		t.Errorf("the record: %+v %v", found.Records, err)
	}
	for _, c := range []struct {
		match string
		n     int
	}{{`issue/@state='OPEN'`, 1}, {`issue[@name='2' and @state='OPEN']`, 0}, {`issue/owner/@login='ann'`, 1}, {`issue/@change='kept'`, 1}} {
		found, err := s.SearchPackages(buildstore.Person{}, c.match, true, Page{})
		if err != nil || found.Matches != c.n {
			t.Errorf("package search %s: %d %v, want %d", c.match, found.Matches, err, c.n)
		}
	}
	for _, c := range []struct {
		f    buildsvc.IssueFilter
		want []string
	}{
		{buildsvc.IssueFilter{}, []string{"1", "2"}},
		{buildsvc.IssueFilter{States: []string{"OPEN"}}, []string{"1"}},
		{buildsvc.IssueFilter{States: []string{"CLOSED"}}, nil},
		{buildsvc.IssueFilter{Login: "ann"}, []string{"1"}},
		{buildsvc.IssueFilter{Changes: []string{"kept"}}, []string{"1", "2"}},
		{buildsvc.IssueFilter{Changes: []string{}}, nil},
	} {
		k, err := s.PackageIssueList(buildstore.Person{}, "p", "k", c.f)
		if err != nil || !reflect.DeepEqual(names(k.Issues), c.want) {
			t.Errorf("%+v: %v %v, want %v", c.f, names(k.Issues), err, c.want)
		}
	}
}
