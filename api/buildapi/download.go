package buildapi

import (
	"errors"
	"html"
	"net/url"
	"path"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/store"
)

// The public download tree, /download/<project with ":" as ":/">/<repository>/… (issue 34):
// what OBS's download server offers — the published repositories of the projects nobody is
// kept from (buildsvc download.go decides which), without credentials, each with a
// <project>.repo file for zypper and dnf. The authenticated /published stays as it is.
// Directories answer a plain HTML index, as a download server's; what is not there (a protected
// project included) a plain 404.

// DownloadPrefix is where the tree is served.
const DownloadPrefix = "/download"

// DownloadPrefixes are the paths the tree owns (its errors are plain text: RenderDownloadError).
var DownloadPrefixes = []string{DownloadPrefix}

// BindDownload registers the download tree. url returns the base URL the .repo files name
// (--download-url; "" : the request's base URL and DownloadPrefix).
func BindDownload(app fiber.Router, svc *farm.Farm, base func(c *fiber.Ctx) string) {
	d := &download{svc: svc, base: base}
	app.Get(DownloadPrefix, d.serve)
	app.Get(DownloadPrefix+"/*", d.serve)
}

type download struct {
	svc  *farm.Farm
	base func(c *fiber.Ctx) string
}

// errNotThere is every miss of the tree: a download server says no more.
var errNotThere = kit.Errorf(fiber.StatusNotFound, "Not Found")

func (d *download) serve(c *fiber.Ctx) error {
	p := strings.TrimPrefix(c.Params("*"), "/")
	var err error
	if strings.IndexByte(p, '%') >= 0 {
		if p, err = url.PathUnescape(p); err != nil {
			return errNotThere
		}
	}
	if strings.ContainsAny(p, "\\\x00") || p == ".." || strings.HasPrefix(p, "../") || strings.HasSuffix(p, "/..") || strings.Contains(p, "/../") {
		return errNotThere // no traversal, encoded or not
	}
	project, repo, rest := farm.SplitDownloadPath(p)
	var names []string
	dirs := true // the entries listed are directories (projects, repositories)
	switch {
	case project == "":
		names, err = d.svc.DownloadProjects()
		for i, n := range names {
			names[i] = farm.DownloadPath(n)
		}
	case repo == "":
		names, err = d.svc.DownloadRepositories(project)
	case rest == "" || strings.HasSuffix(p, "/") && !strings.HasSuffix(rest, ".repo"):
		dirs = false
		if names, err = d.svc.DownloadDir(project, repo, rest); err == nil && rest == "" {
			names = append(names, project+".repo")
		}
	case rest == project+".repo":
		base := d.base(c) + "/" + farm.DownloadPath(project) + "/" + repo + "/"
		var repoFile string
		if repoFile, err = d.svc.DownloadRepoFile(project, repo, base); err == nil {
			c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
			return c.SendString(repoFile)
		}
	default:
		var data []byte
		if data, err = d.svc.DownloadFile(project, repo, rest); errors.Is(err, store.ErrNotFound) {
			if names, err = d.svc.DownloadDir(project, repo, rest); err == nil {
				return d.index(c, names, false)
			}
		}
		if err == nil {
			c.Set(fiber.HeaderContentType, downloadType(rest))
			return c.Send(data)
		}
	}
	if err != nil {
		return errNotThere
	}
	return d.index(c, names, dirs)
}

// index answers a directory: its entries as links, directories ending in / (all of them when
// dirs; else those without a published file's extension: x86_64, repodata, a product medium).
func (d *download) index(c *fiber.Ctx, names []string, dirs bool) error {
	dir := c.Path()
	if !strings.HasSuffix(dir, "/") {
		dir += "/"
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><title>Index of " + html.EscapeString(dir) + "</title></head><body>\n<h1>Index of " +
		html.EscapeString(dir) + "</h1>\n<ul>\n")
	for _, n := range names {
		href := n
		if dirs || !fileExts[path.Ext(n)] {
			href += "/"
		}
		b.WriteString(`<li><a href="` + html.EscapeString(href) + `">` + html.EscapeString(href) + "</a></li>\n")
	}
	b.WriteString("</ul>\n</body></html>\n")
	c.Set(fiber.HeaderContentType, "text/html; charset=utf-8")
	return c.SendString(b.String())
}

// fileExts are the extensions of what a published tree holds as files.
var fileExts = map[string]bool{".rpm": true, ".xml": true, ".gz": true, ".zst": true, ".xz": true, ".asc": true,
	".key": true, ".json": true, ".repo": true, ".iso": true, ".ymp": true}

// downloadType is a file's Content-Type by its name.
func downloadType(name string) string {
	switch {
	case strings.HasSuffix(name, ".rpm"):
		return "application/x-rpm"
	case strings.HasSuffix(name, ".xml"):
		return "application/xml"
	case strings.HasSuffix(name, ".gz"):
		return "application/x-gzip"
	case strings.HasSuffix(name, ".asc"), strings.HasSuffix(name, ".key"):
		return "application/pgp-keys"
	case strings.HasSuffix(name, ".json"):
		return "application/json"
	}
	return "application/octet-stream"
}

// RenderDownloadError answers a failed request to the tree in plain text.
func RenderDownloadError(c *fiber.Ctx, err error) error {
	status := kit.Status(err)
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.Status(status).SendString(kit.Reason(err, status) + "\n")
}
