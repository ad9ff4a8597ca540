package e2e

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/linode/linodego"
)

// The browser tests: each page a person opens, read and clicked in headless Chromium through
// the harness of browser_harness_test.go.

func TestBrowserHome(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral")
	p.waitReady(t)
	b := newPage(t, p.url)
	b.open("/")
	if h := b.text("h1"); h != "pocketforge" {
		t.Errorf("the home page's heading is %q", h)
	}
	main := b.text("main")
	for _, want := range []string{"Cloud API", "Build service API", "Repository explorer", "Deployment values", "Demo credentials", "ready"} {
		if !strings.Contains(main, want) {
			t.Errorf("the home page does not show %q", want)
		}
	}
	if n := eval[int](b, `document.querySelectorAll('header nav a').length`); n < 6 {
		t.Errorf("the navigation has %d links", n)
	}
	// Every command box shows all of its lines at 1280 px: nothing runs past its card or hides
	// behind a scroll bar (issue 37: the cloud card's curl line was clipped).
	if clipped := eval[[]string](b, `Array.from(document.querySelectorAll('main pre')).filter(p => p.scrollWidth > p.clientWidth + 1 ||
		p.getBoundingClientRect().right > p.closest('.card').getBoundingClientRect().right + 1).map(p => p.textContent)`); len(clipped) > 0 {
		t.Errorf("command boxes clipped at 1280 px: %q", clipped)
	}
	b.checkPage("/", "home")

	// The dark theme, as a system set to dark shows it.
	b.do("prefer dark", chromedp.Func(func(ctx context.Context, tgt *chromedp.Target) error {
		_, err := cdp.Call(ctx, tgt, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	}))
	b.open("/")
	if bg := eval[string](b, `getComputedStyle(document.body).backgroundColor`); bg != "rgb(22, 25, 29)" {
		t.Errorf("with a dark system the page's background is %s, want the dark theme's #16191d", bg)
	}
	b.screenshot("home-dark")

	b.open("/no/such/page?q=%3Cscript%3Ealert(1)%3C/script%3E")
	b.expectConsoleErrors()
	if h := b.text("h1"); h != "Page not found" {
		t.Errorf("an unknown page's heading is %q", h)
	}
	if n := eval[int](b, `document.querySelectorAll('main script').length`); n != 0 {
		t.Errorf("the 404 page runs %d scripts", n)
	}
	b.screenshot("not-found")
}

// TestBrowserBadgeLinks: a badge opened directly in the browser is a picture whose status count
// is a link that opens the project's monitor in a new window (the seed's "clickable when
// viewed directly").
func TestBrowserBadgeLinks(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral")
	p.waitReady(t)
	b := newPage(t, p.url)
	b.openUntil("/badge/devel:tools.svg", "svg")
	hrefs := eval[[]string](b, `Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('xlink:href'))`)
	if len(hrefs) != 2 || !strings.HasSuffix(hrefs[0], "/projects/devel:tools/monitor") || !strings.Contains(hrefs[1], "/projects/devel:tools/monitor") {
		t.Fatalf("the badge's links: %v", hrefs)
	}
	b.screenshot("badge")
	opened := chromedp.WaitNewTarget(b.ctx, func(info *target.Info) bool { return strings.Contains(info.URL, "/monitor") })
	// The message's hit area: the second link's transparent rect, clicked where it is drawn.
	b.do("click the status", chromedp.Click(chromedp.JSPath(`document.querySelectorAll('a')[1].querySelector('rect')`)))
	select {
	case id := <-opened:
		if id == "" {
			t.Error("no window opened")
		}
	case <-time.After(15 * time.Second):
		t.Error("clicking the badge's status opened no window on the monitor")
	}
}

// TestBrowserExplorerSearch: a person types a package name into the explorer's search and
// reads the products that ship it — the farm's Pocket 1.0 once built, and the older 0.9 —; a
// hostile term comes back as text.
func TestBrowserExplorerSearch(t *testing.T) {
	t.Parallel()
	const token = "browser-test-token-0123456789"
	p := startDemo(t, "", "--dev-clock", "--bootstrap-token", token)
	p.waitReady(t)
	p.waitProducts(t, token)
	b := newPage(t, p.url)
	b.open("/explorer")
	b.do("search pocket-cli",
		chromedp.SendKeys(chromedp.CSS("#q"), "pocket-cli"),
		chromedp.Submit(chromedp.CSS("#explorer-search")),
		chromedp.WaitReady(chromedp.CSS("#result-count")))
	got := b.text("#results")
	for _, want := range append([]string{"pocket-cli", "Pocket-0.9-x86_64-Build1.1"}, pocket10...) {
		if !strings.Contains(got, want) {
			t.Errorf("the results do not list %s:\n%s", want, got)
		}
	}
	b.checkPage("/explorer?kind=packages&q=pocket-cli", "explorer-packages")

	b.open("/explorer?kind=files&q=%2Fusr%2Fbin%2Fbash")
	if got := b.text("#results"); !strings.Contains(got, "/usr/bin/bash") {
		t.Errorf("the file search does not show /usr/bin/bash:\n%s", got)
	}
	b.checkPage("/explorer?kind=files&q=%2Fusr%2Fbin%2Fbash", "explorer-files")

	b.open("/explorer?kind=packages&q=%3Cscript%3Ewindow.pwned%3D1%3C%2Fscript%3E")
	if pwned := eval[bool](b, `window.pwned === 1`); pwned {
		t.Error("a search term ran as a script")
	}
	if got := b.text("#result-count"); !strings.Contains(got, "<script>") {
		t.Errorf("the term is not shown as text: %q", got)
	}
	b.screenshot("explorer-hostile")
}

// TestBrowserConsole: a cloud user signs in to the console, reads the account, creates a
// token and sees its secret once, then signs out.
func TestBrowserConsole(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral")
	p.waitReady(t)
	b := newPage(t, p.url)
	b.open("/console")
	if n := eval[int](b, `document.querySelectorAll('#signin-form').length`); n != 1 {
		t.Fatal("the console without a session does not ask to sign in")
	}
	b.checkPage("/console/signin", "console-signin")
	b.do("sign in wrongly",
		chromedp.SendKeys(chromedp.CSS("#username"), "demo"),
		chromedp.SendKeys(chromedp.CSS("#password"), "not-the-password"),
		chromedp.Click(chromedp.CSS("#signin")),
		chromedp.WaitReady(chromedp.CSS("#signin-error")))
	b.expectConsoleErrors() // the refused sign-in is a 401 page
	consoleSignIn(b)
	b.screenshot("console-account")
	b.open("/console/tokens")
	b.do("create a token",
		chromedp.SendKeys(chromedp.CSS("#token-label"), "from the browser"),
		chromedp.Submit(chromedp.CSS("#token-label")),
		chromedp.WaitReady(chromedp.CSS("#new-token")))
	secret := b.text("[data-testid=token-secret]")
	if len(secret) < 20 {
		t.Errorf("the new token's secret is %q", secret)
	}
	b.checkPage("/console/tokens", "console-token-created")
	b.open("/console/tokens")
	if strings.Contains(b.text("main"), secret) {
		t.Error("the token's secret is shown again")
	}
	// Wait for the page the sign-out lands on, so the next navigation does not abort the form's.
	b.do("sign out", chromedp.Click(chromedp.CSS("#signout")), chromedp.WaitReady(chromedp.CSS("#signin-form")))
	b.open("/console/account")
	if n := eval[int](b, `document.querySelectorAll('#signin-form').length`); n != 1 {
		t.Error("after signing out the console still shows the account")
	}
}

// TestBrowserValues: a values file pasted into the validator shows its violations with their
// paths; a valid one is said to be valid.
func TestBrowserValues(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral")
	p.waitReady(t)
	bad, err := os.ReadFile("../values/testdata/invalid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b := newPage(t, p.url)
	b.open("/values")
	b.checkPage("/values", "values-form")
	b.do("validate a bad file",
		chromedp.SetValue(chromedp.CSS("#values"), string(bad)),
		chromedp.Click(chromedp.CSS("#values-submit")),
		chromedp.WaitReady(chromedp.CSS("#values-invalid")))
	violations := b.text("#violations")
	for _, path := range []string{"imagePullSecrets", "nameOverride", "metrics"} {
		if !strings.Contains(violations, path) {
			t.Errorf("the violations do not name %s:\n%s", path, violations)
		}
	}
	b.screenshot("values-invalid")
	b.open("/values")
	b.do("validate a good file",
		chromedp.SetValue(chromedp.CSS("#values"), "controller:\n  logLevel: debug\n"),
		chromedp.Click(chromedp.CSS("#values-submit")),
		chromedp.WaitReady(chromedp.CSS("#values-valid")))
	b.screenshot("values-valid")
	b.noConsoleErrors("/values")
}

// TestBrowserAppliance: the operator signs in with the bootstrap token, reads readiness,
// moves the dev clock and reads the outbox.
func TestBrowserAppliance(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral", "--dev-clock", "--bootstrap-token", "browser-test-token-0123456789")
	p.waitReady(t)
	b := newPage(t, p.url)
	b.open("/appliance")
	b.expectConsoleErrors() // the page without a session answers 401 with the sign-in form
	b.do("sign in",
		chromedp.SendKeys(chromedp.CSS("#token"), "browser-test-token-0123456789"),
		chromedp.Click(chromedp.CSS("#signin-submit")),
		chromedp.WaitReady(chromedp.CSS("#readiness")))
	if r := b.text("[data-testid=ready]"); !strings.Contains(r, "ready") {
		t.Errorf("readiness says %q", r)
	}
	before := b.text("[data-testid=clock-offset]")
	b.do("advance the clock",
		chromedp.SendKeys(chromedp.CSS("#advance"), "36h"),
		chromedp.Submit(chromedp.CSS("#advance")),
		chromedp.WaitReady(chromedp.CSS("#clock")))
	// The form's answer may still be loading: read until the offset changed.
	after := b.textWhen("[data-testid=clock-offset]", func(s string) bool { return s != before }, 5*time.Second)
	if after == before || !strings.Contains(after, "36h") {
		t.Errorf("the clock's offset went from %q to %q, want 36h", before, after)
	}
	// Nothing is cramped (issue 37): the sign-out button stands apart from the cards below it,
	// and each clock form from the one above it.
	if gaps := eval[[]float64](b, `(() => { const r = id => document.getElementById(id).getBoundingClientRect();
		return [r('readiness').top - r('signout').bottom, r('clock-real').top - r('clock-set').bottom]; })()`); gaps[0] < 8 || gaps[1] < 8 {
		t.Errorf("gaps of %v px below the sign-out button and above \"Back to real time\", want 8 at least", gaps)
	}
	b.checkPage("/appliance", "appliance")
	b.open("/appliance/outbox")
	b.screenshot("appliance-outbox")
	b.noConsoleErrors("/appliance/outbox")
}

// TestBrowserMonitor: the build monitor shows the results matrix and follows the farm without
// a reload; a building cell links to its live log, whose popup grows as the build writes and
// whose header shows the result and the final size when it ends; a finished cell opens its log
// in a new window.
func TestBrowserMonitor(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral", "--build-time", "12s", "--build-workers", "16")
	p.waitReady(t)
	b := newPage(t, p.url)
	const project = "devel:tools"
	b.open("/projects/" + project + "/monitor")
	b.do("wait for the matrix", chromedp.WaitReady(chromedp.CSS("#matrix")))
	if rows := eval[int](b, `document.querySelectorAll('#matrix tbody tr').length`); rows != 5 {
		t.Errorf("the matrix has %d rows, want devel:tools's 5 packages", rows)
	}
	b.checkPage("/projects/"+project+"/monitor", "monitor")

	// A running build: find a building cell and open its log.
	eval[bool](b, `window.notReloaded = true`)
	var building []string
	for i := 0; i < 120 && len(building) == 0; i++ {
		building = eval[[]string](b, `(() => { const td = document.querySelector('#matrix td.s-building'); if (!td) return [];
			const th = document.querySelectorAll('#matrix thead th')[Array.from(td.parentNode.children).indexOf(td)];
			return [td.parentNode.dataset.package, th.dataset.repository, th.dataset.arch]; })()`)
		if len(building) == 0 {
			time.Sleep(500 * time.Millisecond)
		}
	}
	if len(building) != 3 {
		t.Fatalf("no building cell appeared on the monitor: %v", building)
	}
	version := eval[string](b, `document.getElementById('monitor').dataset.version`)
	// The farm moves on: the matrix follows without a reload.
	deadline := time.Now().Add(30 * time.Second)
	for eval[string](b, `document.getElementById('monitor').dataset.version`) == version && time.Now().Before(deadline) {
		time.Sleep(time.Second)
	}
	if eval[string](b, `document.getElementById('monitor').dataset.version`) == version {
		t.Error("the monitor did not follow the farm within 30 s")
	}
	if !eval[bool](b, `window.notReloaded === true`) {
		t.Error("the monitor reloaded the page instead of updating it")
	}
	b.noConsoleErrors("the live monitor")

	// Wait for a build that runs now, then follow its log from the building cell's own link.
	logPath := ""
	for i := 0; i < 120 && logPath == ""; i++ {
		b.open("/projects/" + project + "/monitor?state=building")
		logPath = eval[string](b, `(() => { const a = document.querySelector('#matrix td.s-building a'); return a ? new URL(a.href).pathname : ''; })()`)
		if logPath == "" {
			if eval[bool](b, `!!document.querySelector('#matrix td.s-building')`) {
				t.Fatal("a building cell of the monitor is not a link to its live log")
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	if logPath == "" {
		t.Fatal("no build ran on devel:tools")
	}
	b.open(logPath)
	if running := eval[string](b, `document.getElementById('log').dataset.running`); running != "true" {
		t.Skipf("the build at %s ended before its log was opened", logPath)
	}
	first := eval[int](b, `document.getElementById('log').textContent.length`)
	deadline = time.Now().Add(20 * time.Second)
	for eval[int](b, `document.getElementById('log').textContent.length`) == first && time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
	}
	if grown := eval[int](b, `document.getElementById('log').textContent.length`); grown <= first {
		t.Errorf("the running build's log did not grow in the popup (%d bytes)", grown)
	}
	b.checkPage(logPath, "log-popup")
	// When the build ends, the header shows its result and the log's size as it ended.
	deadline = time.Now().Add(40 * time.Second)
	for eval[string](b, `document.getElementById('log').dataset.running`) == "true" && time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
	}
	ended := eval[[]string](b, `[document.getElementById('log-code').textContent, document.getElementById('log-size').textContent,
		document.getElementById('log').dataset.offset, document.getElementById('log-running').textContent]`)
	if ended[0] != "succeeded" && ended[0] != "failed" || ended[1] != ended[2]+" bytes" || ended[3] != "The build has ended." {
		t.Errorf("the popup's header after the build ended: state %q, size %q (the log has %s bytes), note %q", ended[0], ended[1], ended[2], ended[3])
	}

	// A finished build's cell opens its log in a new window.
	b.open("/projects/" + project + "/monitor")
	opened := chromedp.WaitNewTarget(b.ctx, func(info *target.Info) bool { return strings.Contains(info.URL, "/logs/") })
	b.do("open a finished build's log", chromedp.Click(chromedp.CSS(`#matrix td.s-succeeded a, #matrix td.s-failed a`)))
	select {
	case <-opened:
	case <-time.After(15 * time.Second):
		t.Error("clicking a finished cell opened no log window")
	}
}

// TestBrowserDocs (issue 37): /docs opens short — one collapsed section per API — a link to an
// API opens its section, and the filter box shows only the operations that hold what is typed,
// with their count, hiding the rest; clearing it shows every operation again.
func TestBrowserDocs(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral", "--no-fixtures")
	p.waitReady(t)
	b := newPage(t, p.url)
	b.open("/docs")
	if h := eval[int](b, `document.body.scrollHeight`); h > 3000 {
		t.Errorf("/docs is %d px tall with its sections collapsed", h)
	}
	if open := eval[int](b, `document.querySelectorAll('details.api[open]').length`); open != 0 {
		t.Errorf("%d API sections open at first", open)
	}
	b.checkPage("/docs", "docs")
	b.do("filter", chromedp.SendKeys(chromedp.CSS("#docs-filter"), "invoices"))
	got := eval[[]string](b, `(() => { const rows = Array.from(document.querySelectorAll('table.docs-ops tbody tr')).filter(r => !r.hidden && r.offsetParent !== null);
		return [String(rows.length), String(rows.every(r => r.textContent.toLowerCase().includes('invoices'))),
			document.getElementById('docs-filter-count').textContent, String(document.querySelectorAll('details.api:not([hidden])').length)]; })()`)
	if got[0] == "0" || got[1] != "true" || got[2] != got[0]+" operations match" || got[3] != "1" {
		t.Errorf("filtered by \"invoices\": %s rows shown, all matching %s, count %q, APIs shown %s (want the cloud API's alone)", got[0], got[1], got[2], got[3])
	}
	b.screenshot("docs-filtered")
	eval[bool](b, `(() => { const i = document.getElementById('docs-filter'); i.value = ''; return i.dispatchEvent(new Event('input')); })()`)
	if hidden := eval[int](b, `document.querySelectorAll('table.docs-ops tbody tr[hidden], details.api[hidden]').length`); hidden != 0 {
		t.Errorf("%d rows or sections still hidden after clearing the filter", hidden)
	}
	b.do("follow the build API's link", chromedp.Click(chromedp.CSS(`#docs-toc a[href="#api-build"]`)))
	if !eval[bool](b, `document.getElementById('api-build').open`) {
		t.Error("the table of contents' link did not open the build API's section")
	}
	b.noConsoleErrors("/docs")
}

// consoleSignIn signs the demo user in on the console's sign-in form, which b shows.
func consoleSignIn(b *page) { b.t.Helper(); consoleSignInAs(b, "demo") }

// consoleSignInAs signs the demo world's user in (their password is "<user>-password").
func consoleSignInAs(b *page, user string) {
	b.t.Helper()
	b.do("sign in",
		chromedp.SetValue(chromedp.CSS("#username"), user),
		chromedp.SendKeys(chromedp.CSS("#password"), user+"-password"),
		chromedp.Click(chromedp.CSS("#signin")),
		chromedp.WaitReady(chromedp.CSS("#console-bar")))
	if who := b.text("[data-testid=console-user]"); who != user {
		b.t.Errorf("signed in as %q", who)
	}
}

// TestBrowserConsoleTransfer (issue 37): the partner account's owner accepts, in the console,
// the transfer the demo account offered through the API: paste the token, review what it moves,
// accept; the API then shows the transfer accepted to its sender.
func TestBrowserConsoleTransfer(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral", "--dev-clock", "--bootstrap-token", e2eToken)
	p.waitReady(t)
	ctx := context.Background()
	demo := cloudClient(p, e2eToken)
	tr, err := demo.RequestAccountServiceTransfer(ctx, linodego.AccountServiceTransferRequestOptions{
		Entities: linodego.AccountServiceTransferEntity{Linodes: []int{4}}})
	if err != nil {
		t.Fatal(err)
	}
	b := newPage(t, p.url)
	b.open("/console")
	consoleSignInAs(b, "dave")
	b.open("/console/transfers")
	b.do("review the token",
		chromedp.SendKeys(chromedp.CSS("#transfer-token"), tr.Token),
		chromedp.Click(chromedp.CSS("#review-transfer")),
		chromedp.WaitReady(chromedp.CSS("#transfer-review")))
	if got := b.text("[data-testid=review-instances]"); got != "4" {
		t.Errorf("the review lists instances %q", got)
	}
	b.screenshot("console-transfer-review")
	b.do("accept", chromedp.Click(chromedp.CSS("#accept-transfer")), chromedp.WaitReady(chromedp.CSS("#transfer-accepted")))
	if row := b.text("#transfers tbody"); !strings.Contains(row, tr.Token) || !strings.Contains(row, "accepted") || !strings.Contains(row, "received") {
		t.Errorf("the list after the accept: %q", row)
	}
	if got, err := demo.GetAccountServiceTransfer(ctx, tr.Token); err != nil || got.Status != "accepted" {
		t.Errorf("the sender sees %+v %v", got, err)
	}
	b.checkPage("/console/transfers", "console-transfers")
	b.noConsoleErrors("/console/transfers")
}

// TestBrowserConsoleDatabase (issue 37): a connectable mysql database's console page says where
// to connect — host, port, a CA download, a mysql line and a Go DSN — and backs it up and
// restores a backup (after a confirm step) through the console's forms.
func TestBrowserConsoleDatabase(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral", "--dev-clock", "--bootstrap-token", e2eToken, "--sqldb-ports", "23360-23369")
	p.waitReady(t)
	b := newPage(t, p.url)
	b.open("/console")
	consoleSignIn(b)
	b.open("/console/databases")
	path := eval[string](b, `(() => { const a = Array.from(document.querySelectorAll('main a')).find(a => a.textContent.trim() === 'orders-sql');
		return a ? new URL(a.href).pathname : ''; })()`)
	if path == "" {
		t.Fatal("the databases page does not link orders-sql")
	}
	b.open(path)
	b.do("the connection", chromedp.WaitReady(chromedp.CSS("[data-testid=db-port]")))
	port := b.text("[data-testid=db-port]")
	if n, err := strconv.Atoi(port); err != nil || n < 23360 || n > 23369 {
		t.Fatalf("the console shows port %q; want the instance's, in 23360-23369", port)
	}
	if line := b.text("#mysql-line"); !strings.Contains(line, "--port="+port) || !strings.Contains(line, "--user=linroot") || !strings.Contains(line, "--ssl-ca=orders-sql-ca.pem") {
		t.Errorf("the mysql line: %q", line)
	}
	if dsn := b.text("#go-dsn"); !strings.Contains(dsn, "linroot:PASSWORD@tcp(") || !strings.Contains(dsn, ":"+port+")/defaultdb?tls=") {
		t.Errorf("the Go DSN: %q", dsn)
	}
	if ca := eval[string](b, `(() => { const x = new XMLHttpRequest(); x.open('GET', document.getElementById('download-ca').href, false); x.send(); return x.responseText; })()`); !strings.HasPrefix(ca, "-----BEGIN CERTIFICATE-----") {
		t.Errorf("the CA download: %.60q", ca)
	}
	b.checkPage(path, "console-database")

	b.do("back up now",
		chromedp.SendKeys(chromedp.CSS("#backup-label"), "from-the-console"),
		chromedp.Click(chromedp.CSS("#backup-now")),
		chromedp.WaitReady(chromedp.CSS("#backup-started")))
	if code, body := request(t, "POST", p.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"1h"}`)); code != 200 {
		t.Fatalf("advance the clock: %d %s", code, body)
	}
	b.open(path)
	row := eval[string](b, `(() => { const tr = Array.from(document.querySelectorAll('#backups tbody tr')).find(tr => tr.textContent.includes('from-the-console'));
		return tr ? tr.dataset.backup : ''; })()`)
	if row == "" {
		t.Fatalf("the backup is not listed once complete:\n%s", b.text("#database-backups"))
	}
	b.do("restore it", chromedp.Click(chromedp.CSS(`#backups tr[data-backup="`+row+`"] button`)), chromedp.WaitReady(chromedp.CSS("#confirm-submit")))
	if h := b.text("h1"); !strings.Contains(h, "from-the-console") {
		t.Errorf("the confirm page asks %q", h)
	}
	b.do("confirm", chromedp.Click(chromedp.CSS("#confirm-submit")), chromedp.WaitReady(chromedp.CSS("#restore-started")))
	if st := b.text("[data-testid=database-status]"); st != "restoring" && st != "active" {
		t.Errorf("after the restore the status is %q", st)
	}
	b.noConsoleErrors(path)
}
