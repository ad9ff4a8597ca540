package buildapi

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/valyala/fasthttp"
)

// benchEnv is newEnv's data file with the build API served over HTTP on loopback.
type benchEnv struct {
	*env
	base   string
	auth   string
	client *fasthttp.Client
	took   []time.Duration
}

func newBenchEnv(b *testing.B) *benchEnv { return benchEnvOn(b, newEnv(b).db) }

// benchEnvOn serves the build API over db (open for the benchmark's lifetime) on loopback.
func benchEnvOn(b *testing.B, db *store.DB) *benchEnv {
	app := fiber.New(fiber.Config{ErrorHandler: RenderError, DisableStartupMessage: true, BodyLimit: 64 << 20})
	clk := clock.NewFixed(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	Bind(app, Deps{Store: db, Clock: clk, Log: log, Build: domains.NewBuild(db, clk, log, domains.BuildOptions{})})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go app.Listener(ln)
	b.Cleanup(func() { app.Shutdown() })
	return &benchEnv{env: &env{app: app, db: db}, base: "http://" + ln.Addr().String(),
		auth:   basic("Admin", adminPassword)["Authorization"],
		client: &fasthttp.Client{MaxConnsPerHost: 8, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second}}
}

// do sends one request with the Basic header (as osc's first request does; the credential cache
// makes it cheap after the first) and fails the benchmark unless it answers 200.
func (e *benchEnv) do(b *testing.B, method, path string, body []byte) []byte {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.Header.SetMethod(method)
	req.SetRequestURI(e.base + path)
	req.Header.Set("Authorization", e.auth)
	if body != nil {
		req.SetBody(body)
	}
	if err := e.client.Do(req, resp); err != nil || resp.StatusCode() != 200 {
		b.Fatalf("%s %s: %v %d %s", method, path, err, resp.StatusCode(), resp.Body())
	}
	return slices.Clone(resp.Body())
}

// report adds the p50 and p99 of the kept durations, in milliseconds.
func (e *benchEnv) report(b *testing.B) {
	slices.Sort(e.took)
	b.ReportMetric(float64(e.took[len(e.took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(e.took[len(e.took)*99/100].Microseconds())/1000, "p99-ms")
}

func must(b testing.TB, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}

// benchProject creates a project maintained by Admin with the named packages, in one transaction.
func (e *benchEnv) benchProject(b *testing.B, project string, n int, name func(i int) string) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	must(b, e.db.Exclusive(func(tx kv.Tx) error {
		if err := buildstore.PutProject(tx, buildstore.Project{Name: project, Title: "bench", Created: now,
			Persons: []buildstore.Role{{ID: "Admin", Role: buildstore.RoleMaintainer}}}); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if err := buildstore.PutPackage(tx, buildstore.Package{Project: project, Name: name(i), Title: "Package " + name(i),
				Description: "A package made for the listing benchmark, with a description of typical length.",
				Created:     now}); err != nil {
				return err
			}
		}
		return nil
	}))
}

// BenchmarkListPackages: GET /source/<project> over 20,000 packages through HTTP on loopback with
// Basic auth; raw is the same <directory> built straight from bbolt (a cursor over the packages'
// keys, XML-encoded), no HTTP. p50/p99 are the app's per request. Budget: p50 ≤ 50 ms.
func BenchmarkListPackages(b *testing.B) {
	e := newBenchEnv(b)
	const project = "bench:big"
	e.benchProject(b, project, 20_000, func(i int) string { return fmt.Sprintf("pkg-%05d", i) })
	e.do(b, "GET", "/source/"+project, nil) // warm-up: bcrypt once, then the credential cache
	prefix := append([]byte(project), 0)
	raw := func(int) {
		var names []string
		must(b, e.db.View(func(tx kv.Tx) error {
			c := tx.Bucket([]byte(store.BuildPackages)).Cursor()
			for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
				names = append(names, string(k[len(prefix):]))
			}
			return nil
		}))
		out, err := xml.MarshalIndent(newDirectory(names), "", "  ")
		if err != nil || len(names) != 20_000 {
			b.Fatalf("raw listing: %v, %d names", err, len(names))
		}
		_ = out
	}
	app := func(int) {
		t0 := time.Now()
		body := e.do(b, "GET", "/source/"+project, nil)
		e.took = append(e.took, time.Since(t0))
		if !bytes.Contains(body, []byte(`count="20000"`)) {
			b.Fatalf("listing: %.200s", body)
		}
	}
	bench.Compare(b, 1, app, raw)
	e.report(b)
}

// files200 is the i-th set of 200 small distinct files (side keeps app's and raw's apart).
func files200(side string, i int) (names []string, data [][]byte) {
	for f := 0; f < 200; f++ {
		names = append(names, fmt.Sprintf("file-%03d.txt", f))
		data = append(data, fmt.Appendf(nil, "%s commit %d file %d\n%s", side, i, f, strings.Repeat("x", 200)))
	}
	return names, data
}

// BenchmarkCommit200Files: one op is osc's commit of 200 changed small files through HTTP on
// loopback (200 PUT ?rev=repository, then one POST ?cmd=commitfilelist); raw is the same blobs
// and revision written straight through the store functions in one transaction. ms/commit is
// the app's. Budget: ≤ 1 s per commit.
func BenchmarkCommit200Files(b *testing.B) {
	e := newBenchEnv(b)
	const project = "bench:commit"
	e.benchProject(b, project, 2, func(i int) string { return []string{"via-api", "via-store"}[i] })
	e.do(b, "GET", "/source/"+project, nil) // warm-up: bcrypt once
	app := func(i int) {
		t0 := time.Now()
		names, data := files200("app", i)
		var list bytes.Buffer
		list.WriteString(`<directory>`)
		for f := range names {
			e.do(b, "PUT", "/source/"+project+"/via-api/"+names[f]+"?rev=repository", data[f])
			fmt.Fprintf(&list, `<entry name="%s" md5="%s"/>`, names[f], buildstore.MD5Hex(data[f]))
		}
		list.WriteString(`</directory>`)
		body := e.do(b, "POST", "/source/"+project+"/via-api?cmd=commitfilelist&comment=bench", list.Bytes())
		if bytes.Contains(body, []byte(`error=`)) {
			b.Fatalf("commitfilelist: %.300s", body)
		}
		e.took = append(e.took, time.Since(t0))
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	raw := func(i int) {
		names, data := files200("raw", i)
		must(b, e.db.Write(func(tx kv.Tx) error {
			files := make([]buildstore.FileEntry, len(names))
			for f := range names {
				sum, err := buildstore.PutBlob(tx, data[f])
				if err != nil {
					return err
				}
				files[f] = buildstore.FileEntry{Name: names[f], MD5: sum}
			}
			_, err := buildsvc.CommitRevision(tx, project, "via-store", files, buildstore.Revision{User: "Admin", Comment: "bench"}, now)
			return err
		}))
	}
	bench.Compare(b, 1, app, raw)
	slices.Sort(e.took)
	b.ReportMetric(float64(e.took[len(e.took)/2].Microseconds())/1000, "ms/commit")
}

// BenchmarkExpandBranch200: GET /source/<branch>/<pkg>?expand=1 of a branch link over a
// 200-file package whose target moved on after the branch (so every request runs the 3-way
// merge: 199 files follow the target, one is the branch's) through HTTP on loopback; raw reads
// the link's and the target's newest revision records and XML-encodes a 200-entry listing,
// no HTTP. Expansion is what `osc co`, `osc up` and `osc cat` of a branch ask for first.
func BenchmarkExpandBranch200(b *testing.B) {
	e := newBenchEnv(b)
	const target, branch = "bench:target", "bench:branch"
	e.benchProject(b, target, 1, func(int) string { return "big" })
	e.benchProject(b, branch, 1, func(int) string { return "big" })
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	must(b, e.db.Write(func(tx kv.Tx) error {
		names, data := files200("base", 0)
		files := make([]buildstore.FileEntry, len(names))
		for f := range names {
			sum, err := buildstore.PutBlob(tx, data[f])
			if err != nil {
				return err
			}
			files[f] = buildstore.FileEntry{Name: names[f], MD5: sum}
		}
		base, err := buildsvc.CommitRevision(tx, target, "big", files, buildstore.Revision{User: "Admin"}, now)
		if err != nil {
			return err
		}
		link := buildstore.SourceLink{Project: target, Package: "big", BaseRev: base.SrcMD5, Patches: []buildstore.Patch{{Kind: "branch"}}}
		linkSum, _ := buildstore.PutBlob(tx, link.Render())
		mine, _ := buildstore.PutBlob(tx, []byte("the branch's own version\n"))
		local := append(slices.Clone(files), buildstore.FileEntry{Name: buildstore.LinkFile, MD5: linkSum})
		local[0].MD5 = mine
		if _, err := buildsvc.CommitRevision(tx, branch, "big", local, buildstore.Revision{User: "Admin"}, now); err != nil {
			return err
		}
		moved, _ := buildstore.PutBlob(tx, []byte("the target moved on\n"))
		files[199].MD5 = moved
		_, err = buildsvc.CommitRevision(tx, target, "big", files, buildstore.Revision{User: "Admin"}, now)
		return err
	}))
	e.do(b, "GET", "/source/"+branch+"/big?expand=1", nil) // warm-up: bcrypt, and the expansion stored once
	raw := func(int) {
		var tree []buildstore.FileEntry
		must(b, e.db.View(func(tx kv.Tx) error {
			l, _, err := buildstore.LatestRevision(tx, branch, "big")
			if err != nil {
				return err
			}
			t, _, err := buildstore.LatestRevision(tx, target, "big")
			tree = append(t.Files[1:], l.Files[0])
			return err
		}))
		if _, err := xml.MarshalIndent(dirDoc("big", buildstore.Revision{Files: tree}), "", "  "); err != nil {
			b.Fatal(err)
		}
	}
	app := func(int) {
		t0 := time.Now()
		body := e.do(b, "GET", "/source/"+branch+"/big?expand=1", nil)
		e.took = append(e.took, time.Since(t0))
		if !bytes.Contains(body, []byte(`lsrcmd5="`)) || bytes.Count(body, []byte("<entry ")) != 200 {
			b.Fatalf("expanded listing: %.300s", body)
		}
	}
	bench.Compare(b, 1, app, raw)
	e.report(b)
}
