package farm

import (
	"fmt"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/packaging/specfile"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// jobRun is a job's whole course, fixed by its inputs when it starts: the log, line by line
// with the time after the start each line appears, and the outcome. The simulated build runs
// the spec's scripts in rpmbuild's order (%prep, %build, %install, %check); the first line the
// spec package recognises as failing (specfile.Spec.Failure: an unconditional `exit 1`,
// `false`, …) fails the build there, as rpmbuild's "Bad exit status" would, so a user can
// make a package fail and fix it.
type jobRun struct {
	lines   []logLine
	spec    *specfile.Spec
	failure *specfile.Failure
	// product is a product job's composition (farm_product_job.go), set when it succeeds.
	product *composition
}

type logLine struct {
	at   time.Duration
	text string
}

// succeeded reports the job's outcome.
func (r jobRun) succeeded() bool { return r.failure == nil }

// logUntil is the log as it stands elapsed after the start: every line whose time has come.
func (r jobRun) logUntil(elapsed time.Duration) string {
	var b strings.Builder
	for _, l := range r.lines {
		if l.at > elapsed {
			break
		}
		fmt.Fprintf(&b, "[%5ds] %s\n", int(l.at/time.Second), l.text)
	}
	return b.String()
}

// planJob fixes the course of st's job in w, which runs for d.
func planJob(tx kv.Tx, w buildstore.Where, st buildstore.BuildStatus, d time.Duration) (jobRun, error) {
	src := loadSources(tx, w.Project, st.Package)
	var run jobRun
	if src.broken == "" {
		chain, _ := buildsvc.RepoChain(tx, w.Project, w.Repository)
		cfg, err := chainConfig(tx, chain, nil)
		if err == nil && src.recipeType(cfg.ForArch(w.Arch).Type) == productType {
			return planProductJob(tx, w, st, d, src, chain), nil
		}
		if err == nil && src.spec != nil {
			run.spec, err = specfile.Parse(src.spec, specfile.Options{Arch: w.Arch, Macros: cfg.ForArch(w.Arch).MacroMap()})
		}
		if err != nil {
			run.spec = nil
		}
	}
	var l logWriter
	l.add(fmt.Sprintf("Using BUILD_ROOT=/var/cache/obs/worker/root_%s", strings.TrimPrefix(st.Worker, "pocketforge:")))
	l.add("Using BUILD_ARCH=" + w.Arch)
	l.add("")
	l.add(fmt.Sprintf("pocketforge %s started \"build %s\" at %s.", st.Worker, orDefault(src.specName, st.Package+".spec"), st.StartTime.UTC().Format(time.UnixDate)))
	l.add("")
	l.add(fmt.Sprintf("Building %s for project '%s' repository '%s' arch '%s' srcmd5 '%s'", st.Package, w.Project, w.Repository, w.Arch, st.SrcMD5))
	l.add("")
	if run.spec == nil {
		// The sources changed under the job into something that does not build: it fails.
		run.failure = &specfile.Failure{Section: "prep", Text: "the build recipe is gone or does not parse"}
		l.add("error: " + run.failure.Text)
		run.lines = l.timed(d)
		return run, nil
	}
	l.add("processing recipe /home/abuild/rpmbuild/SOURCES/" + src.specName + " ...")
	l.add(fmt.Sprintf("[1/%d] preinstalling the build environment", len(st.Install)+1))
	for i, f := range st.Install {
		l.add(fmt.Sprintf("[%d/%d] installing %s", i+2, len(st.Install)+1, f))
	}
	l.add("")
	run.failure = run.spec.Failure()
	failed := func(f *specfile.Failure) jobRun {
		l.add("error: " + f.Msg)
		l.add("")
		l.add("RPM build errors:")
		l.add("    " + f.Msg)
		l.add("")
		l.add(fmt.Sprintf("pocketforge %s failed \"build %s\" at %s.", st.Worker, src.specName, st.StartTime.Add(d).UTC().Format(time.UnixDate)))
		run.lines = l.timed(d)
		return run
	}
	if f := run.failure; f != nil && f.Section == "" {
		return failed(f), nil // the spec itself is incomplete (no Summary, License, %description)
	}
	for _, sec := range []struct {
		name  string
		lines []specfile.Line
	}{{"%prep", run.spec.Prep}, {"%conf", run.spec.Conf}, {"%build", run.spec.Build}, {"%install", run.spec.Install}, {"%check", run.spec.Check}} {
		if len(sec.lines) == 0 && sec.name != "%prep" {
			continue
		}
		script := "/var/tmp/rpm-tmp." + strings.TrimPrefix(sec.name, "%")
		l.add(fmt.Sprintf("Executing(%s): /usr/bin/bash -e %s", sec.name, script))
		for _, line := range sec.lines {
			if strings.TrimSpace(line.Text) == "" {
				continue
			}
			l.add("+ " + strings.TrimSpace(line.Text))
			if f := run.failure; f != nil && f.Section == sec.name && f.Line == line.No {
				return failed(f), nil
			}
		}
	}
	release := st.ReleaseNumber()
	for _, p := range run.spec.Packages {
		if p.HasFiles {
			l.add(fmt.Sprintf("Wrote: /home/abuild/rpmbuild/RPMS/%s/%s-%s-%s.%s.rpm", binArch(p.Arch, w.Arch), p.Name, run.spec.Version, release, binArch(p.Arch, w.Arch)))
		}
	}
	l.add(fmt.Sprintf("Wrote: /home/abuild/rpmbuild/SRPMS/%s-%s-%s.src.rpm", run.spec.Name, run.spec.Version, release))
	l.add("")
	l.add(fmt.Sprintf("pocketforge %s finished \"build %s\" at %s.", st.Worker, src.specName, st.StartTime.Add(d).UTC().Format(time.UnixDate)))
	run.lines = l.timed(d)
	return run, nil
}

// binArch is the arch a subpackage's RPM carries: its own BuildArch (noarch) or the where's.
func binArch(own, where string) string {
	if own != "" {
		return own
	}
	return where
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// logWriter collects a job's log lines before they are spread over its time.
type logWriter struct{ lines []string }

func (l *logWriter) add(s string) { l.lines = append(l.lines, s) }

// timed spreads the lines evenly over d, the first at the start and the last just before the
// end, so a reader sees the log grow while the job runs and whole when it ends.
func (l *logWriter) timed(d time.Duration) []logLine {
	out := make([]logLine, len(l.lines))
	for i, s := range l.lines {
		at := time.Duration(0)
		if n := len(l.lines); n > 1 {
			at = d * time.Duration(i) / time.Duration(n)
		}
		out[i] = logLine{at: at, text: s}
	}
	return out
}
