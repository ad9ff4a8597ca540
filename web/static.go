package web

import (
	"embed"
	"hash/crc32"
	"io/fs"
	"mime"
	"path"
	"strconv"
	"sync"

	"github.com/gofiber/fiber/v2"
)

// The static files (stylesheet, icon, the few lines of script some pages add), embedded and
// served at /static/<name> with an ETag; a browser revalidates them hourly.

//go:embed static
var staticFiles embed.FS

type asset struct {
	body        []byte
	contentType string
	etag        string
}

// assets are read on the first request for one, not in package init: mime.TypeByExtension
// loads the system's MIME tables (/etc/mime.types…), 0.7 MB and ~1 ms that every command,
// `version` included, paid before main (issue 31).
var assets = sync.OnceValue(func() map[string]asset {
	m := map[string]asset{}
	_ = fs.WalkDir(staticFiles, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := staticFiles.ReadFile(p)
		if err != nil {
			return err
		}
		ct := mime.TypeByExtension(path.Ext(p))
		if ct == "" {
			ct = "application/octet-stream"
		}
		m[path.Base(p)] = asset{body: b, contentType: ct, etag: `"` + strconv.FormatUint(uint64(crc32.ChecksumIEEE(b)), 36) + `"`}
		return nil
	})
	return m
})

// serveStatic answers GET /static/<name>.
func serveStatic(c *fiber.Ctx) error {
	a, ok := assets()[c.Params("name")]
	if !ok {
		return fiber.ErrNotFound
	}
	c.Set(fiber.HeaderETag, a.etag)
	c.Set(fiber.HeaderCacheControl, "public, max-age=3600")
	if c.Get(fiber.HeaderIfNoneMatch) == a.etag {
		c.Status(fiber.StatusNotModified)
		return nil
	}
	c.Set(fiber.HeaderContentType, a.contentType)
	return c.Send(a.body)
}
