package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The browser tests drive Debian's headless Chromium against the built binary with chromedp:
// they load pages as a person does, read what the page shows, click, and save a screenshot of
// each step under the test's temp dir. Without Chromium they skip, naming the Debian package
// (.ci/run installs it). chromedp starts Chromium with the parent-death signal set, in its own
// session, with its profile in a temporary directory: under the run directory (main_test.go).

var (
	chromiumOnce sync.Once
	chromiumBin  string
)

// chromium returns the path of a Chromium binary, or skips the test naming the package.
func chromium(t *testing.T) string {
	t.Helper()
	chromiumOnce.Do(func() {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				chromiumBin = p
				return
			}
		}
	})
	if chromiumBin == "" {
		t.Skip("chromium is not installed: install Debian's chromium to run the browser tests (.ci/run does)")
	}
	return chromiumBin
}

// page is one browser tab on the appliance, with what its console said.
type page struct {
	t    *testing.T
	ctx  context.Context
	base string
	mu   sync.Mutex
	errs []string // console errors, uncaught exceptions, failed loads
	shot int
}

// newPage starts headless Chromium (one per test) with a tab on base, reading its console.
func newPage(t *testing.T, base string) *page {
	t.Helper()
	bin := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	p := &page{t: t, ctx: ctx, base: strings.TrimSuffix(base, "/")}
	messages := chromedp.Console(ctx) // starts the browser and subscribes before any page loads
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				p.mu.Lock()
				p.errs = append(p.errs, m.String()+" "+m.URL)
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// do runs actions in order, failing the test (with a screenshot) on an error.
func (p *page) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.screenshot("failed")
		p.t.Fatalf("%s: %v", what, err)
	}
}

// get runs one action that answers a value.
func get[T any](p *page, what string, a chromedp.Action[T]) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		p.screenshot("failed")
		p.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// open loads path and waits for the body.
func (p *page) open(path string) { p.t.Helper(); p.openUntil(path, "body") }

// openUntil loads path and waits for the element sel (an SVG document has no body: "svg").
func (p *page) openUntil(path, sel string) {
	p.t.Helper()
	p.do("open "+path, chromedp.Navigate(p.base+path), chromedp.WaitReady(chromedp.CSS(sel)))
}

// text is the visible text of the first element the CSS selector matches.
func (p *page) text(sel string) string {
	p.t.Helper()
	return get(p, "read "+sel, chromedp.Text(chromedp.CSS(sel)))
}

// textWhen reads the visible text of sel until ok accepts it or within has passed, and
// returns the last text read. A read that fails — the page being replaced by a form's answer
// has no such node for a moment — is tried again.
func (p *page) textWhen(sel string, ok func(string) bool, within time.Duration) string {
	p.t.Helper()
	var last string
	for deadline := time.Now().Add(within); ; time.Sleep(100 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		cancel()
		if err == nil {
			last = got
			if ok(got) {
				return got
			}
		}
		if time.Now().After(deadline) {
			if err != nil {
				p.screenshot("failed")
				p.t.Fatalf("read %s: %v", sel, err)
			}
			return last
		}
	}
}

// eval evaluates a JavaScript expression.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	return get(p, "eval "+expr, chromedp.Evaluate[T](expr))
}

// screenshot saves the page as <n>-<name>.png under the test's temp dir (and, with
// BROWSER_SHOTS=<dir>, in that directory too).
func (p *page) screenshot(name string) string {
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	p.shot++
	path := filepath.Join(p.t.TempDir(), fmt.Sprintf("%02d-%s.png", p.shot, name))
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
	}
	if dir := os.Getenv("BROWSER_SHOTS"); dir != "" { // keep them past the test, to look at
		_ = os.WriteFile(filepath.Join(dir, p.t.Name()+"-"+filepath.Base(path)), buf, 0o644)
	}
	p.t.Logf("screenshot: %s", path)
	return path
}

// noConsoleErrors fails the test when the page logged an error, threw, or failed a load.
func (p *page) noConsoleErrors(where string) {
	p.t.Helper()
	time.Sleep(150 * time.Millisecond) // let late messages arrive
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.errs) > 0 {
		p.t.Errorf("%s: the browser reported errors:\n%s", where, strings.Join(p.errs, "\n"))
	}
	p.errs = nil
}

// expectConsoleErrors forgets the errors so far: a page answered with an error status (the
// 404 page) is logged by the browser as a failed load, which is what it should be.
func (p *page) expectConsoleErrors() {
	p.mu.Lock()
	p.errs = nil
	p.mu.Unlock()
}

// labelledFields fails the test for a visible form field with no label: no <label for>, no
// wrapping label, no aria-label or aria-labelledby.
func (p *page) labelledFields(where string) {
	p.t.Helper()
	unlabelled := eval[[]string](p, `Array.from(document.querySelectorAll('input:not([type=hidden]):not([type=submit]):not([type=button]),select,textarea'))
		.filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby'))
		.map(e => e.outerHTML.slice(0, 120))`)
	if len(unlabelled) > 0 {
		p.t.Errorf("%s: form fields without a label:\n%s", where, strings.Join(unlabelled, "\n"))
	}
}

// pageSize fails the test when the page at path is 100 KB or more, as a browser fetches its
// HTML.
func pageSize(t *testing.T, base, path string) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if len(body) >= 100<<10 {
		t.Errorf("%s is %d bytes, over the 100 KB a page may weigh", path, len(body))
	}
}

// checkPage is what every page must pass: under 100 KB, no console errors, labelled fields,
// and a screenshot.
func (p *page) checkPage(path, name string) {
	p.t.Helper()
	pageSize(p.t, p.base, path)
	p.noConsoleErrors(path)
	p.labelledFields(path)
	p.screenshot(name)
}
