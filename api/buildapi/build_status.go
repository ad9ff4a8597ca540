package buildapi

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/xml"
	"sort"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// The per-package build documents (_status, _reason, _jobstatus, _history), a where's
// _jobhistory and the farm's _workerstatus, in the backend's shapes (build-notes §3).

// buildStatusDoc is the _status document.
type buildStatusDoc struct {
	XMLName xml.Name `xml:"status"`
	Package string   `xml:"package,attr"`
	Code    string   `xml:"code,attr"`
	Dirty   string   `xml:"dirty,attr,omitempty"`
	Details string   `xml:"details,omitempty"`
}

func (a *api) packageStatus(c *fiber.Ctx) error {
	pb, err := a.Farm.PackageStatus(personOf(c), whereOf(c), pathParam(c, "package"))
	if err != nil {
		return err
	}
	doc := buildStatusDoc{Package: pb.Status.Package, Code: pb.Status.Code, Details: pb.Status.Details}
	if pb.Dirty {
		doc.Dirty = "true"
	}
	return sendXML(c, doc)
}

// reasonDoc is the _reason document: why the package's last job was scheduled.
type reasonDoc struct {
	XMLName   xml.Name        `xml:"reason"`
	Explain   string          `xml:"explain,omitempty"`
	Time      string          `xml:"time,omitempty"`
	OldSource string          `xml:"oldsource,omitempty"`
	Changes   []packageChange `xml:"packagechange"`
}

type packageChange struct {
	Change string `xml:"change,attr"`
	Key    string `xml:"key,attr"`
}

func (a *api) packageReason(c *fiber.Ctx) error {
	pb, err := a.Farm.PackageStatus(personOf(c), whereOf(c), pathParam(c, "package"))
	if err != nil {
		return err
	}
	r := pb.Status.Reason
	doc := reasonDoc{Explain: r.Explain, Time: formatUnix(r.Time), OldSource: r.OldSource}
	for _, ch := range r.Changes {
		doc.Changes = append(doc.Changes, packageChange{Change: ch.Change, Key: ch.Key})
	}
	return sendXML(c, doc)
}

// jobStatusDoc is the _jobstatus document: the running job, or empty when none runs.
type jobStatusDoc struct {
	XMLName   xml.Name `xml:"jobstatus"`
	Code      string   `xml:"code,attr,omitempty"`
	Details   string   `xml:"details,omitempty"`
	StartTime string   `xml:"starttime,omitempty"`
	WorkerID  string   `xml:"workerid,omitempty"`
	HostArch  string   `xml:"hostarch,omitempty"`
	JobID     string   `xml:"jobid,omitempty"`
}

func (a *api) packageJobStatus(c *fiber.Ctx) error {
	w := whereOf(c)
	pb, err := a.Farm.PackageStatus(personOf(c), w, pathParam(c, "package"))
	if err != nil {
		return err
	}
	st := pb.Status
	if st.Code != buildstore.CodeBuilding {
		return sendXML(c, jobStatusDoc{})
	}
	id := md5.Sum([]byte(w.String() + "/" + st.Package + "/" + st.SrcMD5 + "/" + formatUnix(st.StartTime)))
	return sendXML(c, jobStatusDoc{Code: st.Code, Details: st.Details, StartTime: formatUnix(st.StartTime),
		WorkerID: st.Worker, HostArch: w.Arch, JobID: hex.EncodeToString(id[:])})
}

// buildHistoryDoc is the _history document.
type buildHistoryDoc struct {
	XMLName xml.Name       `xml:"buildhistory"`
	Entries []historyEntry `xml:"entry"`
}

type historyEntry struct {
	Rev      string `xml:"rev,attr"`
	SrcMD5   string `xml:"srcmd5,attr"`
	VersRel  string `xml:"versrel,attr"`
	Bcnt     int    `xml:"bcnt,attr"`
	Time     string `xml:"time,attr"`
	Duration int    `xml:"duration,attr,omitempty"`
}

func (a *api) packageHistory(c *fiber.Ctx) error {
	list, err := a.Farm.BuildHistory(personOf(c), whereOf(c), pathParam(c, "package"))
	if err != nil {
		return err
	}
	doc := buildHistoryDoc{}
	for _, e := range list {
		doc.Entries = append(doc.Entries, historyEntry{Rev: e.Rev, SrcMD5: e.SrcMD5, VersRel: e.VersRel, Bcnt: e.Bcnt,
			Time: formatUnix(e.Time), Duration: e.Duration})
	}
	return sendXML(c, doc)
}

// jobHistoryDoc is the _jobhistory document.
type jobHistoryDoc struct {
	XMLName xml.Name  `xml:"jobhistlist"`
	Jobs    []jobHist `xml:"jobhist"`
}

type jobHist struct {
	Package   string `xml:"package,attr"`
	Rev       string `xml:"rev,attr"`
	SrcMD5    string `xml:"srcmd5,attr"`
	VersRel   string `xml:"versrel,attr"`
	Bcnt      int    `xml:"bcnt,attr"`
	ReadyTime string `xml:"readytime,attr"`
	StartTime string `xml:"starttime,attr"`
	EndTime   string `xml:"endtime,attr"`
	Code      string `xml:"code,attr"`
	URI       string `xml:"uri,attr"`
	WorkerID  string `xml:"workerid,attr"`
	HostArch  string `xml:"hostarch,attr"`
	Reason    string `xml:"reason,attr"`
}

func (a *api) jobHistory(c *fiber.Ctx) error {
	q := farm.JobHistoryQuery{Packages: queryAll(c, "package"), Codes: queryAll(c, "code")}
	if v := c.Query("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return buildsvc.BadRequest("invalid_parameter", "limit '%s' is not a number", v)
		}
		q.Limit = n
	}
	list, err := a.Farm.JobHistory(personOf(c), whereOf(c), q)
	if err != nil {
		return err
	}
	doc := jobHistoryDoc{}
	for _, e := range list {
		doc.Jobs = append(doc.Jobs, jobHist{Package: e.Package, Rev: e.Rev, SrcMD5: e.SrcMD5, VersRel: e.VersRel, Bcnt: e.Bcnt,
			ReadyTime: formatUnix(e.ReadyTime), StartTime: formatUnix(e.StartTime), EndTime: formatUnix(e.EndTime),
			Code: e.Code, URI: "", WorkerID: e.WorkerID, HostArch: e.HostArch, Reason: e.Reason})
	}
	return sendXML(c, doc)
}

// workerStatusDoc is the _workerstatus document (obs-api/workerstatus.xml): the simulated
// workers (all x86_64 hosts), the jobs on them, the waiting and blocked jobs per arch, and the
// farm's daemons, all running in the one process.
type workerStatusDoc struct {
	XMLName  xml.Name     `xml:"workerstatus"`
	Clients  int          `xml:"clients,attr"`
	Idle     []idleWorker `xml:"idle"`
	Building []runningJob `xml:"building"`
	Waiting  []archJobs   `xml:"waiting"`
	Blocked  []archJobs   `xml:"blocked"`
	Daemons  []farmDaemon `xml:"partition>daemon"`
}

type idleWorker struct {
	WorkerID string `xml:"workerid,attr"`
	HostArch string `xml:"hostarch,attr"`
}

type runningJob struct {
	Repository string `xml:"repository,attr"`
	Arch       string `xml:"arch,attr"`
	Project    string `xml:"project,attr"`
	Package    string `xml:"package,attr"`
	StartTime  string `xml:"starttime,attr"`
	WorkerID   string `xml:"workerid,attr"`
	HostArch   string `xml:"hostarch,attr"`
}

type archJobs struct {
	Jobs int    `xml:"jobs,attr"`
	Arch string `xml:"arch,attr"`
}

type farmDaemon struct {
	Type  string `xml:"type,attr"`
	Arch  string `xml:"arch,attr,omitempty"`
	State string `xml:"state,attr"`
}

// workerHostArch is the host arch of every simulated worker.
const workerHostArch = "x86_64"

func (a *api) workerStatus(c *fiber.Ctx) error {
	ws, err := a.Farm.WorkerStatus(personOf(c))
	if err != nil {
		return err
	}
	doc := workerStatusDoc{Clients: ws.Workers}
	for _, id := range ws.Idle {
		doc.Idle = append(doc.Idle, idleWorker{WorkerID: id, HostArch: workerHostArch})
	}
	for _, j := range ws.Building {
		doc.Building = append(doc.Building, runningJob{Repository: j.Where.Repository, Arch: j.Where.Arch, Project: j.Where.Project,
			Package: j.Package, StartTime: formatUnix(j.StartTime), WorkerID: j.Worker, HostArch: workerHostArch})
	}
	archs := map[string]bool{}
	for arch := range ws.Waiting {
		archs[arch] = true
	}
	for arch := range ws.Blocked {
		archs[arch] = true
	}
	names := make([]string, 0, len(archs))
	for arch := range archs {
		names = append(names, arch)
	}
	sort.Strings(names)
	for _, arch := range names {
		doc.Waiting = append(doc.Waiting, archJobs{Jobs: ws.Waiting[arch], Arch: arch})
		doc.Blocked = append(doc.Blocked, archJobs{Jobs: ws.Blocked[arch], Arch: arch})
		doc.Daemons = append(doc.Daemons, farmDaemon{Type: "scheduler", Arch: arch, State: "running"})
	}
	for _, t := range []string{"dispatcher", "publisher"} {
		doc.Daemons = append(doc.Daemons, farmDaemon{Type: t, State: "running"})
	}
	return sendXML(c, doc)
}
