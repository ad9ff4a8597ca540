package explorerapi

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/search"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// GET /api/search/binary over the built demo world: whole answers against goldens
// (testdata/binary_*.json), the git split from the explorer's product data, the restricted
// project left out, and the 400 and 504 refusals in the explorer's error shape.

// secretBinary is a published RPM of the restricted project, named like a public one.
const secretBinary = "x86_64/pocket-cli-9.9-1.1.x86_64.rpm"

func TestSearchBinaries(t *testing.T) {
	e := newResultsEnv(t)
	err := e.db.Write(func(tx kv.Tx) error {
		if err := buildstore.PutPublished(tx, secretProject, "standard", secretBinary, []byte("rpm")); err != nil {
			return err
		}
		// a binary no product ships, published without the farm: no package, no git source
		return buildstore.PutPublished(tx, "home:alice", "standard", "x86_64/alice-tool-1.0-1.1.x86_64.rpm", []byte("rpm"))
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []resultsScenario{
		{name: "git sources from the product data", path: "/api/search/binary?q=pocket-cli", status: 200,
			golden: "binary_pocket-cli.json", excludes: []string{secretProject, "9.9"}},
		{name: "a branch project beside its origin", path: "/api/search/binary?q=forge-utils", status: 200,
			golden: "binary_forge-utils.json"},
		{name: "a subpackage found by its package's source", path: "/api/search/binary?q=libforge-devel", status: 200,
			golden: "binary_libforge-devel.json"},
		{name: "noarch and src", path: "/api/search/binary?q=forge-changelog", status: 200,
			golden: "binary_forge-changelog.json"},
		{name: "no git source: nulls", path: "/api/search/binary?q=alice-tool", status: 200,
			golden: "binary_alice-tool.json"},
		{name: "surrounding spaces dropped", path: "/api/search/binary?q=%20pocket-cli%20", status: 200,
			contains: []string{`"query":"pocket-cli","total_count":6,`}},
		{name: "the name is exact: no substring", path: "/api/search/binary?q=pocket", status: 200,
			golden: "binary_no_match.json"},
		{name: "the name is exact: case counts", path: "/api/search/binary?q=Pocket-CLI", status: 200,
			contains: []string{`"total_count":0,`}},
		{name: "a quote in the name", path: "/api/search/binary?q=" + url.QueryEscape("it's"), status: 200,
			contains: []string{`"query":"it's","total_count":0,`}},
		{name: "XPath in the name is a name", path: "/api/search/binary?q=" + url.QueryEscape("x' or '1'='1"), status: 200,
			contains: []string{`"total_count":0,`}},

		{name: "no q", path: "/api/search/binary", status: 400, golden: "binary_no_query.json"},
		{name: "empty q", path: "/api/search/binary?q=", status: 400, golden: "binary_no_query.json"},
		{name: "blank q", path: "/api/search/binary?q=%20%20", status: 400, golden: "binary_no_query.json"},
		{name: "both quotes", path: "/api/search/binary?q=" + url.QueryEscape(`a'b"c`), status: 400,
			golden: "binary_both_quotes.json"},
		{name: "NUL", path: "/api/search/binary?q=a%00b", status: 400, contains: []string{"NUL"}},
		{name: "invalid UTF-8", path: "/api/search/binary?q=%ff%fe", status: 400, contains: []string{"UTF-8"}},
		{name: "too long", path: "/api/search/binary?q=" + strings.Repeat("x", 300), status: 400, contains: []string{"256 bytes"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { e.check(t, c) })
	}
	// The restricted project's binary is published: a member finds it.
	alice, err := e.build.ActivePerson("alice")
	if err != nil {
		t.Fatal(err)
	}
	found, err := e.build.Search.SearchPublishedBinaries(alice, "@name='pocket-cli' and @project='"+secretProject+"'", search.Page{})
	if err != nil || found.Matches != 1 {
		t.Errorf("alice finds %d of %s's binaries (%v), want 1", found.Matches, secretProject, err)
	}

	e.im.BinaryTimeout = time.Nanosecond
	t.Run("timed out", func(t *testing.T) {
		e.check(t, resultsScenario{path: "/api/search/binary?q=pocket-cli", status: 504, golden: "binary_timeout.json"})
	})
}

// failingBackend's binary search fails, as a remote backend that is down does.
type failingBackend struct{ staticBackend }

func (failingBackend) Binaries(context.Context, string) ([]explorersvc.Binary, error) {
	return nil, errors.New("dial tcp 10.0.0.1:443: connection refused")
}

// TestSearchBinariesBackendDown: a backend failure is the seed's 500, with a message that
// names the cause's side, not the backend's internals.
func TestSearchBinariesBackendDown(t *testing.T) {
	im := &explorersvc.Service{Now: time.Now}
	if err := im.UseBackend(failingBackend{}, nil); err != nil {
		t.Fatal(err)
	}
	app := fiber.New(fiber.Config{ErrorHandler: RenderError, DisableStartupMessage: true})
	Bind(app, Deps{Explorer: im, Limiter: ratelimit.New(time.Now)})
	got := apitest.Do(t, app, apitest.Request{Path: "/api/search/binary?q=bash"})
	if got.Status != 500 || got.Body != `{"error":"failed to get the search results from the build backend"}` {
		t.Errorf("%d %s", got.Status, got.Body)
	}
}
