package farm

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/packaging/specfile"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// finishJob ends j at now: the rest of its log, its outcome, for a success its binaries (one
// RPM per subpackage with files, and the source RPM) replacing the package's old ones, its
// histories. The project is queued again — its other packages may wait for these binaries —
// and so is every project whose repositories build against it.
func (s *Farm) finishJob(j job, now time.Time) error {
	return s.db.Write(func(tx kv.Tx) error {
		st, err := buildstore.GetStatus(tx, j.w, j.st.Package)
		if err != nil || !sameJob(st, j) {
			return nil
		}
		d := s.farmOptions().BuildTime
		run, err := planJob(tx, j.w, st, d)
		if err != nil {
			return err
		}
		if text := run.logUntil(d + time.Hour); len(text) > st.LogShown {
			if err := buildstore.AppendLog(tx, j.w, st.Package, []byte(text[st.LogShown:])); err != nil {
				return err
			}
		}
		code := buildstore.CodeFailed
		if run.succeeded() {
			code = buildstore.CodeSucceeded
			store := func() error { return s.storeBinaries(tx, j.w, st, run.spec, now) }
			if run.product != nil {
				store = func() error { return s.storeProductBinaries(tx, j.w, st, *run.product, now) }
			}
			if err := store(); err != nil {
				return err
			}
			err := buildstore.AddHistory(tx, j.w, st.Package, buildstore.HistoryEntry{Rev: st.Rev, SrcMD5: st.SrcMD5,
				VersRel: st.VersRel(), Bcnt: st.Bcnt, Time: now, Duration: int(now.Sub(st.StartTime) / time.Second)})
			if err != nil {
				return err
			}
		}
		err = buildstore.AddJobHistory(tx, j.w, buildstore.JobHistoryEntry{Package: st.Package, Rev: st.Rev, SrcMD5: st.SrcMD5,
			VersRel: st.VersRel(), Bcnt: st.Bcnt, ReadyTime: st.ReadyTime, StartTime: st.StartTime, EndTime: now, Code: code,
			WorkerID: st.Worker, HostArch: j.w.Arch, Reason: st.Reason.Explain})
		if err != nil {
			return err
		}
		st.Code, st.Worker, st.EndTime = code, "", now
		st.Last, st.LastSrcMD5, st.LastDepsHash, st.LastEnd = code, st.SrcMD5, st.DepsHash, now
		if err := buildstore.PutStatus(tx, j.w, st); err != nil {
			return err
		}
		return queueDependents(tx, j.w.Project)
	})
}

// queueDependents queues project and every project whose repositories have a path to it.
func queueDependents(tx kv.Tx, project string) error {
	if err := buildstore.MarkDirty(tx, project); err != nil {
		return err
	}
	deps, err := buildstore.DependentPaths(tx, project)
	if err != nil {
		return err
	}
	for _, d := range deps {
		if err := buildstore.MarkDirty(tx, strings.SplitN(d, "/", 2)[0]); err != nil {
			return err
		}
	}
	return nil
}

// storeBinaries writes the RPMs the job built, replacing the package's old binaries in w.
func (s *Farm) storeBinaries(tx kv.Tx, w buildstore.Where, st buildstore.BuildStatus, spec *specfile.Spec, now time.Time) error {
	if err := buildstore.DeleteBinaries(tx, w, st.Package); err != nil {
		return err
	}
	release := st.ReleaseNumber()
	disturl := distURL(w, st)
	k, _ := buildstore.GetPackage(tx, w.Project, st.Package)
	vcs := vcsTag(k.SCMSync, st.SrcMD5)
	srcName := fmt.Sprintf("%s-%s-%s.src.rpm", spec.Name, spec.Version, release)
	var rpms []rpmout.RPM
	for _, p := range spec.Packages {
		if !p.HasFiles {
			continue
		}
		r := rpmout.RPM{Name: p.Name, Epoch: spec.Epoch, Version: spec.Version, Release: release, Arch: binArch(p.Arch, w.Arch),
			Summary: p.Summary, Description: p.Description, License: spec.License, Group: p.Group, URL: spec.URL,
			Vendor: "pocketforge", DistURL: disturl, VCS: vcs, SourceRPM: srcName, BuildHost: strings.ReplaceAll(st.Worker, ":", "-"),
			BuildTime: now, Provides: p.Provides, Requires: p.Requires}
		for _, e := range p.Entries { // as rpm reads %files: directives applied, %license placed
			if e.Exclude || e.Ghost || e.Path == "" {
				continue
			}
			f := e.Path
			if e.Dir {
				f += "/"
			}
			r.Files = append(r.Files, simulatedFile(f, p.Name, spec.Version))
		}
		rpms = append(rpms, r)
	}
	src, err := s.sourceRPM(tx, w, st, spec, release, disturl, now)
	if err != nil {
		return err
	}
	rpms = append(rpms, src)
	sign, err := buildsvc.RPMSigner(tx, w.Project, now)
	if err != nil {
		return err
	}
	for _, r := range rpms {
		var buf bytes.Buffer
		if err := rpmout.Write(&buf, r); err != nil {
			return fmt.Errorf("writing %s: %w", rpmout.Filename(r), err)
		}
		data, err := buildsvc.SignRPM(buf.Bytes(), sign)
		if err != nil {
			return fmt.Errorf("signing %s: %w", rpmout.Filename(r), err)
		}
		if err := buildstore.PutBinary(tx, w, buildsvc.BinaryRecord(st.Package, r, data, now), data); err != nil {
			return err
		}
	}
	return nil
}

// sourceRPM is the job's source RPM: the package's source files as built.
func (s *Farm) sourceRPM(tx kv.Tx, w buildstore.Where, st buildstore.BuildStatus, spec *specfile.Spec, release, disturl string, now time.Time) (rpmout.RPM, error) {
	r := rpmout.RPM{Name: spec.Name, Epoch: spec.Epoch, Version: spec.Version, Release: release, Arch: "src",
		Summary: spec.Summary, License: spec.License, URL: spec.URL, Vendor: "pocketforge", DistURL: disturl,
		BuildHost: strings.ReplaceAll(st.Worker, ":", "-"), BuildTime: now, Requires: spec.BuildRequires}
	v, err := buildsvc.ResolveView(tx, w.Project, st.Package, "", true, "")
	if err != nil {
		return r, nil // the sources changed meanwhile: an empty source RPM still names the build
	}
	for _, f := range v.Tree.Files {
		data, err := v.Content(tx, f.MD5)
		if err != nil {
			continue
		}
		r.Files = append(r.Files, rpmout.File{Path: f.Name, Body: append([]byte(nil), data...), Mode: 0o644})
	}
	return r, nil
}

// simulatedFile is the content a simulated build puts at a %files path: a directory for a path
// ending in "/", else a small text naming the package that owns it (executables under a bin
// directory are scripts that say so).
//
// A wildcard stands for one file, since nothing was really built for it to match:
// "/usr/bin/*" is /usr/bin/<package>, "libfoo.so.1*" is libfoo.so.1.
func simulatedFile(p, pkg, version string) rpmout.File {
	if strings.ContainsAny(p, "*?[") {
		dir, base := path.Split(p)
		if base = strings.Trim(base, "*?[]"); base == "" {
			base = pkg
		}
		p = dir + base
	}
	if strings.HasSuffix(p, "/") {
		return rpmout.File{Path: strings.TrimSuffix(p, "/"), Dir: true, Mode: 0o755}
	}
	if dir := path.Base(path.Dir(p)); dir == "bin" || dir == "sbin" {
		return rpmout.File{Path: p, Mode: 0o755, Body: []byte(fmt.Sprintf("#!/bin/sh\necho '%s %s (built by pocketforge)'\n", path.Base(p), version))}
	}
	// a comment line, which the configuration formats a package ships read as nothing: an
	// installed .repo file of a simulated build must not break zypper (issue 34)
	return rpmout.File{Path: p, Mode: 0o644, Body: []byte(fmt.Sprintf("# %s from %s %s, built by pocketforge\n", p, pkg, version))}
}
