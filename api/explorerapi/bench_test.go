package explorerapi

import (
	"bytes"
	"net"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/fixtures/explorergen"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/search/textindex"
	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/valyala/fasthttp"
)

// The explorer's budgets (DESIGN.md, issue 7): with 100,000 packages and 1,000,000 file paths,
// /api/products/packages?q=<substring> p50 ≤ 5 ms, p99 ≤ 25 ms; files and vcs-search p50 ≤ 5 ms
// (the import's ≥ 5,000 packages/s is explorersvc's BenchmarkImport). Each benchmark times the
// whole request over HTTP on loopback next to the raw layer answering the same question (the
// bleve query, or the bbolt seek for files), in the same run.

// largeInputs parses the benchmark data once: four products, 100,000 RPMs, 1,000,000 files.
var largeInputs = sync.OnceValue(func() []explorersvc.Input {
	var out []explorersvc.Input
	for _, p := range explorergen.Large(100_000, 1_000_000) {
		out = append(out, parseGenerated(p))
	}
	return out
})

func parseGenerated(p explorergen.Product) explorersvc.Input {
	prod, err := spdx.ParseDocument(bytes.NewReader(p.SPDX), p.Name)
	if err != nil {
		panic(err)
	}
	fsys := fstest.MapFS{}
	for name, data := range p.Repodata {
		fsys[name] = &fstest.MapFile{Data: data}
	}
	rpms, err := spdx.ParseRepodata(fsys, "repodata")
	if err != nil {
		panic(err)
	}
	return explorersvc.Input{Product: prod, RPMs: rpms, Source: p.Name, Digest: p.Name}
}

// largeEnv is the benchmark data imported into a durable store with an on-disk index, served
// over HTTP on loopback with the rate limit off.
type largeEnv struct {
	im     *explorersvc.Service
	base   string
	client *fasthttp.Client
}

var largeEnvOnce struct {
	sync.Once
	env *largeEnv
	err error
}

func newLargeEnv(b *testing.B) *largeEnv {
	largeEnvOnce.Do(func() {
		dir, err := osTempDir()
		if err != nil {
			largeEnvOnce.err = err
			return
		}
		db, err := store.Open(filepath.Join(dir, "bench.db"), store.Options{Durability: store.Strict})
		if err != nil {
			largeEnvOnce.err = err
			return
		}
		ix, _, err := textindex.Open(filepath.Join(dir, "bench.db.index"))
		if err != nil {
			largeEnvOnce.err = err
			return
		}
		im := &explorersvc.Service{Store: db, Index: ix, Now: time.Now}
		for _, in := range largeInputs() {
			if _, err := im.Import(in); err != nil {
				largeEnvOnce.err = err
				return
			}
		}
		app := fiber.New(fiber.Config{ErrorHandler: RenderError, DisableStartupMessage: true})
		Bind(app, Deps{Explorer: im, Limiter: ratelimit.New(time.Now)})
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			largeEnvOnce.err = err
			return
		}
		go app.Listener(ln)
		largeEnvOnce.env = &largeEnv{im: im, base: "http://" + ln.Addr().String(),
			client: &fasthttp.Client{MaxConnsPerHost: 4, ReadTimeout: time.Minute, MaxResponseBodySize: 1 << 30}}
	})
	if largeEnvOnce.err != nil {
		b.Fatal(largeEnvOnce.err)
	}
	return largeEnvOnce.env
}

func (e *largeEnv) get(b *testing.B, path string) []byte {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(e.base + path)
	if err := e.client.Do(req, resp); err != nil || resp.StatusCode() != 200 {
		b.Fatalf("GET %s: %v %d %.200s", path, err, resp.StatusCode(), resp.Body())
	}
	return slices.Clone(resp.Body())
}

// terms picks n search inputs from the imported data, spread over it: substrings of package
// names, file paths and basenames, git tuples and commit prefixes.
func (e *largeEnv) terms(n int) (names, paths, repos, commits []string) {
	ins := largeInputs()
	for i := 0; i < n; i++ {
		in := ins[i%len(ins)]
		p := in.Product.Packages[(i*7919)%len(in.Product.Packages)]
		mid := len(p.Name) / 3
		names = append(names, p.Name[mid:min(len(p.Name), mid+5)])
		r := in.RPMs[(i*104729)%len(in.RPMs)]
		if len(r.Files) > 0 {
			f := r.Files[i%len(r.Files)]
			if i%2 == 0 {
				f = f[strings.LastIndexByte(f, '/')+1:]
			}
			paths = append(paths, f)
		}
		if p.VCSRepo != "" {
			repos = append(repos, p.VCSOrg+"/"+p.VCSRepo+"@"+p.TrackingBranch)
			commits = append(commits, p.CommitHash[:10])
		}
	}
	return
}

// timed runs the app side over HTTP and the raw side, alternating (bench.Compare), and reports
// the app's p50/p99 in milliseconds.
func timed(b *testing.B, app, raw func(i int)) {
	var took []time.Duration
	var mu sync.Mutex
	bench.Compare(b, 1, func(i int) {
		t0 := time.Now()
		app(i)
		mu.Lock()
		took = append(took, time.Since(t0))
		mu.Unlock()
	}, raw)
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkSearchPackages: /api/products/packages?q=<5-character substring of a name> over
// 100,000 packages vs the raw bleve query for the same term.
func BenchmarkSearchPackages(b *testing.B) {
	e := newLargeEnv(b)
	names, _, _, _ := e.terms(200)
	timed(b, func(i int) {
		e.get(b, "/api/products/packages?q="+urlQuery(names[i%len(names)]))
	}, func(i int) {
		if _, err := e.im.Index.Raw(textindex.NameQuery(names[i%len(names)])); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkSearchVCS: /api/products/vcs-search?q=org/repo@branch and a 10-hex commit prefix,
// alternately, vs the raw bleve query.
func BenchmarkSearchVCS(b *testing.B) {
	e := newLargeEnv(b)
	_, _, repos, commits := e.terms(200)
	timed(b, func(i int) {
		q := repos[i%len(repos)]
		if i%2 == 1 {
			q = commits[i%len(commits)]
		}
		e.get(b, "/api/products/vcs-search?q="+urlQuery(q))
	}, func(i int) {
		org, rest, _ := strings.Cut(repos[i%len(repos)], "/")
		repo, branch, _ := strings.Cut(rest, "@")
		q, _ := textindex.VCSQuery(org, repo, branch, "")
		if i%2 == 1 {
			q, _ = textindex.VCSQuery("", "", "", commits[i%len(commits)])
		}
		if _, err := e.im.Index.Raw(q); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkSearchFiles: /api/products/files?q=<a full path or a basename> over 1,000,000 file
// paths vs the raw bbolt seeks that find the same hits (the file index is exact keys in bbolt,
// not bleve: see store/explorer).
func BenchmarkSearchFiles(b *testing.B) {
	e := newLargeEnv(b)
	_, paths, _, _ := e.terms(200)
	timed(b, func(i int) {
		e.get(b, "/api/products/files?q="+urlQuery(paths[i%len(paths)]))
	}, func(i int) {
		err := e.im.Store.View(func(tx kv.Tx) error {
			_, err := explorerstore.Files(tx, paths[i%len(paths)])
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkSearchFilesUnder: /api/products/files?q=<a directory> (the directories of the
// file terms, 200 of them: a listing of what lies under each, nearest first, bounded) vs the raw
// bbolt walk of the same by-file keys (explorerstore.FilesUnder).
func BenchmarkSearchFilesUnder(b *testing.B) {
	e := newLargeEnv(b)
	_, paths, _, _ := e.terms(200)
	var dirs []string // the terms are full paths and basenames: the paths' directories
	for _, p := range paths {
		if d := path.Dir(p); strings.HasPrefix(d, "/") && len(d) > 1 {
			dirs = append(dirs, d)
		}
	}
	timed(b, func(i int) {
		e.get(b, "/api/products/files?q="+urlQuery(dirs[i%len(dirs)]))
	}, func(i int) {
		if err := e.im.Store.View(func(tx kv.Tx) error {
			explorerstore.FilesUnder(tx, dirs[i%len(dirs)])
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	})
}

func urlQuery(s string) string {
	return strings.NewReplacer("%", "%25", "&", "%26", "#", "%23", "+", "%2B", "@", "%40", " ", "%20", "?", "%3F").Replace(s)
}

func osTempDir() (string, error) { return mkdirTemp() }

// mkdirTemp makes the shared benchmark environment's directory (it outlives single benchmarks).
func mkdirTemp() (string, error) { return os.MkdirTemp("", "pocketforge-explorer-bench-") }
