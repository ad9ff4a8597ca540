package buildweb

import (
	"strconv"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/web"
)

// The log popup (web.LogURL: the table badge's succeeded and failed cells and the monitor open
// it in a new window): the build log buildsvc.ReadLog reads for GET …/_log, its last logShown
// bytes on the page, and for a running build logtail.js asking ?raw=1&offset=N for what was
// written since. ?raw=1 alone is the whole log as text.

// logShown is how much of a log the page shows (its end), so the page stays < 100 KB.
const logShown = 48 << 10

// logChunk is the most one ?raw=1&offset= answer carries; logtail.js asks again for more.
const logChunk = 256 << 10

// logView is the data of logPage.
type logView struct {
	projectLink
	Package, Repository, Arch string
	Text                      string
	// From is where Text starts in the log (0 when the page shows it whole); Size is where it
	// ends, the offset logtail.js continues from.
	From, Size int64
	Running    bool
	Code       string
}

// RawURL is the whole log as text.
func (v logView) RawURL() string { return "?raw=1" }

// PackageURL is the package's page.
func (v logView) PackageURL() string { return packageURL(v.Name, v.Package) }

// log answers GET /projects/<p>/packages/<k>/logs/<repo>/<arch>.
func (h *handlers) log(c *fiber.Ctx) error {
	w := buildstore.Where{Project: param(c, "project"), Repository: param(c, "repository"), Arch: param(c, "arch")}
	pkg := param(c, "package")
	if c.Query("raw") != "" {
		return h.rawLog(c, w, pkg)
	}
	l, err := h.Build.Farm.ReadLog(anonymous, w, pkg, farm.LogQuery{End: -1})
	if err != nil {
		return err
	}
	v := logView{projectLink: projectLink{w.Project}, Package: pkg, Repository: w.Repository, Arch: w.Arch,
		Size: l.Size, Running: l.Running}
	data := l.Data
	if len(data) > logShown {
		cut := len(data) - logShown
		for cut < len(data) && !utf8.RuneStart(data[cut]) {
			cut++
		}
		data, v.From = data[cut:], int64(cut)
	}
	v.Text = string(data)
	if st, err := h.Build.Farm.PackageStatus(anonymous, w, pkg); err == nil {
		v.Code = st.Status.Code
	}
	return h.render(c, pkg+" · "+w.Repository+"/"+w.Arch+" · log", web.PageOf(logPage, v))
}

// rawLog answers ?raw=1[&offset=N]: the log from byte N as text (at most logChunk bytes when N
// is given), with X-Log-Size (where the answer ends), X-Log-Running (1 while the job runs) and
// X-Log-Code (the job's state: building, then succeeded, failed…).
func (h *handlers) rawLog(c *fiber.Ctx, w buildstore.Where, pkg string) error {
	q := farm.LogQuery{End: -1}
	if o := c.Query("offset"); o != "" {
		n, err := strconv.ParseInt(o, 10, 64)
		if err != nil || n < 0 {
			return fault.Invalid("invalid_offset", "offset '%s' is not a byte offset", o)
		}
		q.Start, q.End = n, n+logChunk
	}
	l, err := h.Build.Farm.ReadLog(anonymous, w, pkg, q)
	if err != nil {
		return err
	}
	if q.End >= 0 {
		// A chunk may end inside a character: leave its first bytes to the next one.
		for i := len(l.Data) - 1; i >= 0 && i >= len(l.Data)-utf8.UTFMax; i-- {
			if utf8.RuneStart(l.Data[i]) {
				if !utf8.FullRune(l.Data[i:]) {
					l.Data = l.Data[:i]
				}
				break
			}
		}
	}
	running := "0"
	if l.Running {
		running = "1"
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("X-Content-Type-Options", "nosniff")
	c.Set("X-Log-Size", strconv.FormatInt(q.Start+int64(len(l.Data)), 10))
	c.Set("X-Log-Running", running)
	if st, err := h.Build.Farm.PackageStatus(anonymous, w, pkg); err == nil {
		c.Set("X-Log-Code", st.Status.Code) // the popup's pill follows the job to its result
	}
	return c.Send(l.Data)
}
