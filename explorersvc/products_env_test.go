package explorersvc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/pocketforge/pocketforge/fixtures/explorergen"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The product follower's test environment: an env whose service follows mediaBackend, a
// fakeBackend that also publishes product media held in memory, as the build service's
// published tree would hold them.

// Where the test farm publishes its products.
const (
	productsProject = "Pocket:1.0:Products"
	secretProducts  = "Secret:Products" // hidden from the explorer's identity
)

// mediaBackend is fakeBackend with published product media.
type mediaBackend struct {
	*fakeBackend
	mmu   sync.Mutex
	media map[string][]publishedMedium // project → its media (also of projects Projects hides)
	// unreadable makes ProductFiles fail; panics makes it panic.
	unreadable, panics bool
	listed             map[string]int // project → Products calls
	opened             atomic.Int64   // ProductFiles calls
}

// publishedMedium is a medium with its files.
type publishedMedium struct {
	ProductMedium
	files fstest.MapFS
}

func (b *mediaBackend) Products(_ context.Context, project string) ([]ProductMedium, error) {
	b.mmu.Lock()
	defer b.mmu.Unlock()
	b.listed[project]++
	var out []ProductMedium
	for _, m := range b.media[project] {
		out = append(out, m.ProductMedium)
	}
	return out, nil
}

func (b *mediaBackend) ProductFiles(_ context.Context, m ProductMedium) (fs.FS, error) {
	b.opened.Add(1)
	b.mmu.Lock()
	defer b.mmu.Unlock()
	if b.panics {
		panic("the published tree is gone")
	}
	if b.unreadable {
		return nil, errors.New("read /published/x: input/output error")
	}
	for _, p := range b.media[m.Project] {
		if p.ProductMedium == m {
			return p.files, nil
		}
	}
	return nil, fs.ErrNotExist
}

// publish replaces project's media with list and moves the change mark, as a finished product
// build's publish does.
func (b *mediaBackend) publish(project string, list ...publishedMedium) {
	b.mmu.Lock()
	b.media[project] = list
	b.mmu.Unlock()
	b.mu.Lock()
	b.mark++
	b.mu.Unlock()
}

// touch moves the change mark, as any commit of the build service does.
func (b *mediaBackend) touch() {
	b.mu.Lock()
	b.mark++
	b.mu.Unlock()
}

// setFlag sets one of the failure switches.
func (b *mediaBackend) setFlag(flag *bool, v bool) {
	b.mmu.Lock()
	*flag = v
	b.mmu.Unlock()
	b.touch()
}

// listedCount is how often project's media were listed.
func (b *mediaBackend) listedCount(project string) int {
	b.mmu.Lock()
	defer b.mmu.Unlock()
	return b.listed[project]
}

// newFollowEnv is an env following a mediaBackend that knows productsProject (with results)
// and hides secretProducts, with the jobs serve runs: the results cache's, then the
// follower's.
func newFollowEnv(t testing.TB) (*env, *mediaBackend) {
	t.Helper()
	e := newEnv(t, envOptions{})
	b := &mediaBackend{fakeBackend: &fakeBackend{projects: map[string]ProjectResults{}, failing: map[string]bool{}},
		media: map[string][]publishedMedium{}, listed: map[string]int{}}
	b.set(productsProject, "succeeded", 1)
	if err := e.im.UseBackend(b, nil); err != nil {
		t.Fatal(err)
	}
	e.jobs = &jobs.Runner{}
	e.im.RegisterJobs(e.jobs, "", 0)
	return e, b
}

// tick runs the env's jobs once, as serve's runner does every second.
func (e *env) tick() { e.jobs.RunOnce(e.clk.Now(), e.log) }

// medium makes the published medium of product name (explorergen, rpms RPMs) built in
// project's repository product for arch x86_64 by package 000productcompose.
func medium(project, name string, rpms int) publishedMedium {
	return mediumOf(project, generate(name, rpms))
}

// mediumOf publishes p: its SBOM at the root, its repodata/ beside it, the digest over both.
func mediumOf(project string, p explorergen.Product) publishedMedium {
	files := fstest.MapFS{p.Name + SBOMSuffix: {Data: p.SPDX}}
	h := sha256.New()
	h.Write(p.SPDX)
	for _, name := range slices.Sorted(maps.Keys(p.Repodata)) {
		files[strings.TrimPrefix(name, "/")] = &fstest.MapFile{Data: p.Repodata[name]}
		h.Write(p.Repodata[name])
	}
	return publishedMedium{ProductMedium: ProductMedium{Project: project, Repository: "product", Arch: "x86_64",
		Package: "000productcompose", Name: p.Name, Digest: hex.EncodeToString(h.Sum(nil))}, files: files}
}

// broken is m with an SBOM cut in half (another digest).
func broken(m publishedMedium) publishedMedium {
	data := m.files[m.Name+SBOMSuffix].Data
	files := fstest.MapFS{}
	for k, v := range m.files {
		files[k] = v
	}
	files[m.Name+SBOMSuffix] = &fstest.MapFile{Data: data[:len(data)/2]}
	m.files = files
	m.Digest = "broken-" + m.Digest
	return m
}

// sources maps each stored product to its source.
func sources(t testing.TB, e *env) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := e.db.View(func(tx kv.Tx) error {
		list, err := explorerstore.Products(tx)
		for _, p := range list {
			out[p.FullName] = p.Source
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// farmSourceOf is the source the follower imports a medium of productsProject with.
var farmSourceOf = fmt.Sprintf("build:%s/product/x86_64/000productcompose", productsProject)
