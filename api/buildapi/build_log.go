package buildapi

import (
	"bufio"
	"context"
	"encoding/xml"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// GET /build/<p>/<r>/<a>/<k>/_log: the build log as text. nostream=1 answers what there is;
// without it a running job's log is streamed, the response staying open and growing with the
// log until the job ends, as the backend does. last=1 reads the last finished build's log,
// start and end pick a byte range, view=entry describes the log instead.

// logEntryDoc is the view=entry answer.
type logEntryDoc struct {
	XMLName xml.Name   `xml:"directory"`
	Entries []logEntry `xml:"entry"`
}

type logEntry struct {
	Name  string `xml:"name,attr"`
	Size  int64  `xml:"size,attr"`
	MTime string `xml:"mtime,attr"`
}

// offsetParam reads a byte offset parameter (def when absent).
func offsetParam(c *fiber.Ctx, name string, def int64) (int64, error) {
	v := c.Query(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, buildsvc.BadRequest("invalid_parameter", "%s '%s' is not a byte offset", name, v)
	}
	return n, nil
}

func (a *api) packageLog(c *fiber.Ctx) error {
	q := farm.LogQuery{Last: boolParam(c, "last")}
	var err error
	if q.Start, err = offsetParam(c, "start", 0); err != nil {
		return err
	}
	if q.End, err = offsetParam(c, "end", -1); err != nil {
		return err
	}
	who, w, pkg := personOf(c), whereOf(c), pathParam(c, "package")
	entry := c.Query("view") == "entry"
	if entry {
		q.Start, q.End = 0, 0
	}
	l, err := a.Farm.ReadLog(who, w, pkg, q)
	if err != nil {
		return err
	}
	if entry {
		return sendXML(c, logEntryDoc{Entries: []logEntry{{Name: "_log", Size: l.Size, MTime: formatUnix(l.MTime)}}})
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	if !l.Running || boolParam(c, "nostream") || q.End >= 0 {
		return c.Send(l.Data)
	}
	// Stream: what there is now, then the rest as the job writes it. The server's shutdown
	// ends the stream; a client gone away makes the next write fail, which ends it too.
	c.Context().SetBodyStreamWriter(a.logStream(c.Context().Done(), who, w, pkg, l.Data, q.Start+int64(len(l.Data))))
	return nil
}

// logStream writes data, a running job's log so far, then follows the log of pkg in w from
// byte from on until the job ends or done is closed.
func (a *api) logStream(done <-chan struct{}, who buildstore.Person, w buildstore.Where, pkg string, data []byte, from int64) func(*bufio.Writer) {
	// The stream runs after the handler has returned, when fiber has handed the path buffer
	// that w and pkg view to the next request: it follows copies of its own.
	w = buildstore.Where{Project: strings.Clone(w.Project), Repository: strings.Clone(w.Repository), Arch: strings.Clone(w.Arch)}
	pkg = strings.Clone(pkg)
	return func(bw *bufio.Writer) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-done:
				cancel()
			case <-ctx.Done():
			}
		}()
		if _, err := bw.Write(data); err != nil || bw.Flush() != nil {
			return
		}
		_ = a.Farm.FollowLog(ctx, who, w, pkg, from, func(b []byte) error {
			if _, err := bw.Write(b); err != nil {
				return err
			}
			return bw.Flush()
		})
	}
}
