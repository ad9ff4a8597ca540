package explorerapi

import (
	"bytes"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/fixtures/explorergen"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/valyala/fasthttp"
)

// The binary search budget (issue 18): /api/search/binary over 100,000 published binaries
// p50 ≤ 5 ms. The world: 250 projects, each with one published repository (x86_64, aarch64)
// of 100 packages; each package publishes its x86_64, aarch64 and source RPM and a noarch
// -doc RPM (100,000 published files), with the farm binaries behind them (the packages that
// built them). Package names come from 2,000 names of generated products the explorer has
// imported (8,000 packages, most with a git source), so each name is published by about 12
// projects (~38 binaries per answer) and the git lookup finds sources. Timed over HTTP on
// loopback next to the raw layer for the same name: a bbolt seek of the published name index
// (bench.Compare through timed: p50/p99 and x-raw).

const (
	binBenchProjects = 250
	binBenchPackages = 100
	binBenchNames    = 2000
)

type binariesEnv struct {
	db    *store.DB
	base  string
	names []string
	cl    *fasthttp.Client
}

var binariesEnvOnce struct {
	sync.Once
	env *binariesEnv
	err error
}

func newBinariesEnv(b *testing.B) *binariesEnv {
	binariesEnvOnce.Do(func() {
		env, err := buildBinariesEnv()
		binariesEnvOnce.env, binariesEnvOnce.err = env, err
	})
	if binariesEnvOnce.err != nil {
		b.Fatal(binariesEnvOnce.err)
	}
	return binariesEnvOnce.env
}

func buildBinariesEnv() (*binariesEnv, error) {
	dir, err := osTempDir()
	if err != nil {
		return nil, err
	}
	db, err := store.Open(filepath.Join(dir, "binaries.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		return nil, err
	}
	im := explorersvc.NewMemory(db, time.Now, nil)
	var names []string
	seen := map[string]bool{}
	for _, p := range explorergen.Large(8000, 8000) {
		in := parseGenerated(p)
		if _, err := im.Import(in); err != nil {
			return nil, err
		}
		for _, pk := range in.Product.Packages {
			if len(names) < binBenchNames && !seen[pk.Name] {
				seen[pk.Name] = true
				names = append(names, pk.Name)
			}
		}
	}
	if len(names) < binBenchNames {
		return nil, fmt.Errorf("only %d package names generated", len(names))
	}
	for i := range binBenchProjects { // a transaction per project: bbolt splits nodes only at commit
		if err := writeBenchProject(db, i, names); err != nil {
			return nil, err
		}
	}
	build := domains.NewBuild(db, clock.Real{}, nil, domains.BuildOptions{})
	if err := im.UseBackend(build.Backend(db, buildstore.Person{}, func() string { return "http://forge.test" }), nil); err != nil {
		return nil, err
	}
	app := fiber.New(fiber.Config{ErrorHandler: RenderError, DisableStartupMessage: true})
	Bind(app, Deps{Explorer: im, Limiter: ratelimit.New(time.Now)})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	go app.Listener(ln)
	base := "http://" + ln.Addr().String()
	return &binariesEnv{db: db, base: base, names: names,
		cl: &fasthttp.Client{MaxConnsPerHost: 4, ReadTimeout: time.Minute, MaxResponseBodySize: 1 << 30}}, nil
}

// writeBenchProject writes project i of the benchmark world: its meta, its farm binaries and
// its published tree.
func writeBenchProject(db *store.DB, i int, names []string) error {
	archs := []string{"x86_64", "aarch64"}
	project := fmt.Sprintf("bench:%03d", i)
	return db.Write(func(tx kv.Tx) error {
		if err := buildstore.PutProject(tx, buildstore.Project{Name: project,
			Repositories: []buildstore.Repository{{Name: "standard", Archs: archs}}}); err != nil {
			return err
		}
		for j := range binBenchPackages {
			pkg := names[(i*binBenchPackages+j*7)%binBenchNames]
			for _, f := range []struct{ name, arch, dir, where string }{
				{pkg, "x86_64", "x86_64", "x86_64"}, {pkg, "aarch64", "aarch64", "aarch64"},
				{pkg, "src", "src", "x86_64"}, {pkg + "-doc", "noarch", "noarch", "x86_64"},
			} {
				file := fmt.Sprintf("%s-1.%d-%d.1.%s.rpm", f.name, i%7, j, f.arch)
				w := buildstore.Where{Project: project, Repository: "standard", Arch: f.where}
				bin := buildstore.Binary{Package: pkg, Filename: file, Name: f.name, Version: fmt.Sprintf("1.%d", i%7),
					Release: fmt.Sprintf("%d.1", j), Arch: f.arch, Size: 1 << 20, Summary: "the " + f.name + " package"}
				if err := buildstore.PutBinary(tx, w, bin, nil); err != nil {
					return err
				}
				if err := buildstore.PutPublished(tx, project, "standard", f.dir+"/"+file, []byte("rpm")); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// BenchmarkSearchBinaries: /api/search/binary?q=<a published name> (200 different names, so
// every answer is searched) vs a raw seek of the published name index for the same name.
func BenchmarkSearchBinaries(b *testing.B) {
	e := newBinariesEnv(b)
	var total int
	timed(b, func(i int) {
		body := e.get(b, e.names[(i*13)%200])
		total += bytes.Count(body, []byte(`"download_url"`))
	}, func(i int) {
		name := []byte(e.names[(i*13)%200] + "\x00")
		n := 0
		e.db.View(func(tx kv.Tx) error {
			c := tx.Bucket([]byte(store.BuildFarmPublishedNames)).Cursor()
			for k, _ := c.Seek(name); k != nil && bytes.HasPrefix(k, name); k, _ = c.Next() {
				n++
			}
			return nil
		})
		if n == 0 {
			b.Fatalf("no published binary called %s", name)
		}
	})
	b.ReportMetric(float64(total)/float64(max(b.N, 1)), "binaries/op")
}

func (e *binariesEnv) get(b *testing.B, q string) []byte {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(e.base + "/api/search/binary?q=" + urlQuery(q))
	if err := e.cl.Do(req, resp); err != nil || resp.StatusCode() != 200 || !bytes.Contains(resp.Body(), []byte(`"total_count"`)) {
		b.Fatalf("GET %s: %v %d %.200s", q, err, resp.StatusCode(), resp.Body())
	}
	return slices.Clone(resp.Body())
}
