package farm

import (
	"context"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Build logs (…/<package>/_log and the legacy /result/…/log): a log is the package's sources
// made visible, so reading one needs source access besides a readable project.

// LogQuery picks what of a log to read: the last finished build's (Last) or the current job's,
// and a byte range: Start (0: the beginning) and End (-1: to the end).
type LogQuery struct {
	Last       bool
	Start, End int64
}

// BuildLog is a read of a log: the bytes asked for, the whole log's size, when it last
// changed, and whether its job still runs (the log grows then).
type BuildLog struct {
	Data    []byte
	Size    int64
	MTime   time.Time
	Running bool
}

// ReadLog reads the log of pkg in w for who. A package that never built has no log (404
// not_found, as the backend answers); a start past the end of the log, or an end before the
// start, is a 400 that says so — a start at the very end reads nothing, which is how osc
// knows it has it all.
func (s *Farm) ReadLog(who buildstore.Person, w buildstore.Where, pkg string, q LogQuery) (BuildLog, error) {
	var out BuildLog
	err := s.db.View(func(tx kv.Tx) error {
		pb, err := packageBuild(tx, who, w, pkg)
		if err != nil {
			return err
		}
		if err := buildsvc.SourcesReadable(tx, who, w.Project, pkg); err != nil {
			return err
		}
		data, ok := buildstore.Log(tx, w, pkg, q.Last)
		if !ok {
			return fault.NotFound("not_found", "%s/%s: no build log", w, pkg)
		}
		st := pb.Status
		out.Size = int64(len(data))
		out.Running = !q.Last && st.Code == buildstore.CodeBuilding
		out.MTime = logTime(st, q.Last, s.clk.Now())
		start, end := q.Start, q.End
		if end < 0 || end > out.Size {
			end = out.Size
		}
		switch {
		case start < 0 || start > out.Size:
			return buildsvc.BadRequest("invalid_parameter", "start %d is out of range: the log has %d bytes", q.Start, out.Size)
		case q.End >= 0 && q.End < start:
			return buildsvc.BadRequest("invalid_parameter", "end %d is before start %d", q.End, start)
		}
		out.Data = append([]byte(nil), data[start:end]...)
		return nil
	})
	return out, err
}

// logTime is when a log last changed: now for a log still growing, else the end of the job
// that wrote it.
func logTime(st buildstore.BuildStatus, last bool, now time.Time) time.Time {
	switch {
	case last:
		return st.LastEnd
	case st.Code == buildstore.CodeBuilding:
		return now
	case !st.LastEnd.IsZero():
		return st.LastEnd
	}
	return st.EndTime
}

// logPollEvery is how often a followed log is looked at for new bytes.
const logPollEvery = 200 * time.Millisecond

// FollowLog streams the log of pkg's current job in w to emit from byte from on: what there is,
// then every new piece as the job writes it, until the job ends (or ctx does: the client went
// away, the server stops), as the backend streams a running build's log. The checks are
// ReadLog's; an error of emit (the client gone) ends the stream quietly.
func (s *Farm) FollowLog(ctx context.Context, who buildstore.Person, w buildstore.Where, pkg string, from int64, emit func([]byte) error) error {
	tick := time.NewTicker(logPollEvery)
	defer tick.Stop()
	for {
		l, err := s.ReadLog(who, w, pkg, LogQuery{Start: from, End: -1})
		if err != nil {
			return err
		}
		if len(l.Data) > 0 {
			if emit(l.Data) != nil {
				return nil
			}
			from += int64(len(l.Data))
		}
		if !l.Running {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}
