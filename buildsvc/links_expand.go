package buildsvc

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pocketforge/pocketforge/internal/textdiff"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Link expansion, as the backend does it (BSSrcServer/Link.pm): a plain link lays the link's
// own files over the target's and then runs its patches; a branch link (<branch/>) merges
// 3-way — a file the branch left as it was at baserev follows the target, a file only the
// branch changed keeps the branch's version, a file both changed is merged line by line, and
// a merge that conflicts is a link error. The expanded tree is identified by
// xsrcmd5 = md5("<target srcmd5>  /LINK\n<link srcmd5>  /LOCAL\n") (buildstore.XSrcMD5) and
// stored under it (buildstore.PutExpansion), so ?rev=<xsrcmd5> answers the same tree later even
// after the target moved on (osc checks a branch out that way and commits against it).
//
// The store keeps the expansion records and the _link document's codec; what a link means —
// its target, its revision, its patches, the merge — is decided here.

// maxLinkDepth bounds links to links (and catches loops).
const maxLinkDepth = 10

// Expand expands tree r of project/pkg against its target's newest tree (linkrev "") or the
// target tree linkrev names ("base": the link's baserev; or a srcmd5). ok is false when r is
// not a link. A link that cannot be expanded gives an Expansion whose Info.Error says why; err
// is for store failures only.
func Expand(tx kv.Tx, project, pkg string, r buildstore.Revision, linkrev string) (e buildstore.Expansion, ok bool, err error) {
	return expandLink(tx, project, pkg, r, linkrev, 0)
}

func expandLink(tx kv.Tx, project, pkg string, r buildstore.Revision, linkrev string, depth int) (buildstore.Expansion, bool, error) {
	lf, ok := r.File(buildstore.LinkFile)
	if !ok {
		return buildstore.Expansion{}, false, nil
	}
	data, err := buildstore.GetBlob(tx, lf.MD5)
	if err != nil {
		return buildstore.Expansion{}, true, err
	}
	e := buildstore.Expansion{Info: buildstore.LinkInfo{LSrcMD5: r.SrcMD5}}
	l, perr := buildstore.ParseLink(data)
	tp, tk := l.Target(project, pkg)
	e.Info.Project, e.Info.Package, e.Info.BaseRev, e.Info.Rev, e.Info.MissingOK = tp, tk, l.BaseRev, l.Rev, l.MissingOK
	if perr != nil {
		e.Info.Error = perr.Error()
		return e, true, nil
	}
	if depth >= maxLinkDepth {
		e.Info.Error = "too many levels of links (a link loop?)"
		return e, true, nil
	}
	rev := l.Rev
	switch linkrev {
	case "":
	case "base":
		rev = l.BaseRev
	default:
		rev = linkrev
	}
	if tp == project && tk == pkg && rev == "" {
		e.Info.Error = "the link points to itself"
		return e, true, nil
	}
	target, msg, err := linkTarget(tx, tp, tk, rev, l.MissingOK, depth, &e)
	if err != nil || msg != "" {
		e.Info.Error = msg
		return e, true, err
	}
	e.Info.SrcMD5 = target.SrcMD5
	local := withoutName(r.Files, buildstore.LinkFile)
	var files []buildstore.FileEntry
	if l.IsBranch() {
		files, msg, err = mergeBranch(tx, tp, tk, l, target, local, r.Time, &e)
	} else {
		files, msg, err = overlay(tx, l, target.Files, local, r.Time, &e)
	}
	if err != nil || msg != "" {
		e.Info.Error = msg
		return e, true, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	e.Files = files
	e.Info.XSrcMD5 = buildstore.XSrcMD5(target.SrcMD5, r.SrcMD5)
	e.VRev = target.VRev + r.VRev
	e.Version = "unknown"
	for _, f := range files {
		if strings.HasSuffix(f.Name, ".spec") {
			spec, err := e.Content(tx, f.MD5)
			if err != nil {
				return e, true, err
			}
			e.Version = buildstore.ParseVersion(spec)
			break
		}
	}
	return e, true, nil
}

// linkTarget resolves the tree a link points to, expanding it when it is a link itself; msg
// is a link error (a missing package or revision, a broken target link).
func linkTarget(tx kv.Tx, tp, tk, rev string, missingOK bool, depth int, e *buildstore.Expansion) (buildstore.Revision, string, error) {
	if _, err := buildstore.GetPackage(tx, tp, tk); err != nil {
		if missingOK {
			return buildstore.Revision{SrcMD5: buildstore.EmptySrcMD5}, "", nil
		}
		return buildstore.Revision{}, fmt.Sprintf("package '%s/%s' does not exist", tp, tk), nil
	}
	t, found, err := ResolveRevision(tx, tp, tk, rev)
	if err != nil || !found {
		return buildstore.Revision{}, fmt.Sprintf("revision '%s' of '%s/%s' does not exist", rev, tp, tk), err
	}
	sub, isLink, err := expandLink(tx, tp, tk, t, "", depth+1)
	if err != nil || !isLink {
		return t, "", err
	}
	if sub.Info.Error != "" {
		return buildstore.Revision{}, fmt.Sprintf("%s/%s: %s", tp, tk, sub.Info.Error), nil
	}
	absorb(e, sub)
	e.Targets = append(e.Targets, buildstore.TargetExpansion{Project: tp, Package: tk, Expansion: sub})
	return buildstore.Revision{SrcMD5: sub.Info.XSrcMD5, VRev: sub.VRev, Files: sub.Files}, "", nil
}

// ResolveRevision finds a package tree by a revision string as a link names its target's:
// "" or "latest" (the newest, or the empty tree), a number, or a 32-hex srcmd5 — of a
// revision, or of a stored expansion (then the files are the expanded ones). found is false
// when there is no such tree.
func ResolveRevision(tx kv.Tx, project, pkg, rev string) (buildstore.Revision, bool, error) {
	switch {
	case rev == "" || rev == "latest":
		r, ok, err := buildstore.LatestRevision(tx, project, pkg)
		if !ok {
			return buildstore.Revision{SrcMD5: buildstore.EmptySrcMD5}, err == nil, err
		}
		return r, true, err
	case IsMD5(rev):
		all, err := buildstore.Revisions(tx, project, pkg)
		for i := len(all) - 1; i >= 0; i-- {
			if all[i].SrcMD5 == rev {
				return all[i], true, err
			}
		}
		if x, err := buildstore.GetExpansion(tx, project, pkg, rev); err == nil {
			return buildstore.Revision{SrcMD5: rev, VRev: x.VRev, Version: x.Version, Files: x.Files}, true, nil
		}
		if rev == buildstore.EmptySrcMD5 {
			return buildstore.Revision{SrcMD5: buildstore.EmptySrcMD5}, true, err
		}
		return buildstore.Revision{}, false, err
	}
	n, err := strconv.ParseUint(rev, 10, 64)
	if err != nil {
		return buildstore.Revision{}, false, nil
	}
	if n == 0 {
		return buildstore.Revision{SrcMD5: buildstore.EmptySrcMD5}, true, nil
	}
	r, err := buildstore.GetRevision(tx, project, pkg, n)
	return r, err == nil, nil
}

// absorb takes over the new contents of a nested expansion.
func absorb(e *buildstore.Expansion, sub buildstore.Expansion) {
	for sum, data := range sub.New {
		keepContent(e, data, sum)
	}
	e.Targets = append(e.Targets, sub.Targets...)
}

// keepContent records new content of e and returns its md5.
func keepContent(e *buildstore.Expansion, data []byte, sum string) string {
	if sum == "" {
		sum = buildstore.MD5Hex(data)
	}
	if e.New == nil {
		e.New = map[string][]byte{}
	}
	e.New[sum] = data
	return sum
}

func withoutName(files []buildstore.FileEntry, name string) []buildstore.FileEntry {
	return slices.DeleteFunc(slices.Clone(files), func(f buildstore.FileEntry) bool { return f.Name == name })
}

// mergeBranch is the 3-way merge of a branch link: base is the target at baserev.
func mergeBranch(tx kv.Tx, tp, tk string, l buildstore.SourceLink, target buildstore.Revision, local []buildstore.FileEntry, now int64, e *buildstore.Expansion) ([]buildstore.FileEntry, string, error) {
	base := target
	if l.BaseRev != "" && l.BaseRev != target.SrcMD5 {
		b, found, err := ResolveRevision(tx, tp, tk, l.BaseRev)
		if err != nil {
			return nil, "", err
		}
		if !found {
			return nil, fmt.Sprintf("baserev %s of '%s/%s' does not exist", l.BaseRev, tp, tk), nil
		}
		base = b
	}
	names := map[string]bool{}
	for _, list := range [][]buildstore.FileEntry{base.Files, target.Files, local} {
		for _, f := range list {
			names[f.Name] = true
		}
	}
	var out []buildstore.FileEntry
	for name := range names {
		b, inB := base.File(name)
		t, inT := target.File(name)
		lf, inL := buildstore.Revision{Files: local}.File(name)
		same := func(x buildstore.FileEntry, inX bool, y buildstore.FileEntry, inY bool) bool {
			return inX == inY && (!inX || x.MD5 == y.MD5)
		}
		switch {
		case same(lf, inL, b, inB): // untouched in the branch: follow the target
			if inT {
				out = append(out, t)
			}
		case same(t, inT, b, inB) || same(lf, inL, t, inT): // only the branch changed it
			if inL {
				out = append(out, lf)
			}
		case inB && inT && inL:
			merged, msg, err := merge3(tx, e, b, lf, t)
			if err != nil || msg != "" {
				return nil, msg, err
			}
			out = append(out, buildstore.FileEntry{Name: name, MD5: keepContent(e, merged, ""), Size: int64(len(merged)), MTime: now})
		default:
			return nil, "conflict in file " + name, nil
		}
	}
	return out, "", nil
}

// merge3 merges one file; a conflict or binary content is a link error.
func merge3(tx kv.Tx, e *buildstore.Expansion, b, l, t buildstore.FileEntry) ([]byte, string, error) {
	var parts [3][]byte
	for i, f := range []buildstore.FileEntry{b, l, t} {
		data, err := e.Content(tx, f.MD5)
		if err != nil {
			return nil, "", err
		}
		if bytes.IndexByte(data, 0) >= 0 {
			return nil, "conflict in file " + b.Name, nil
		}
		parts[i] = data
	}
	merged, ok := textdiff.Merge3(parts[0], parts[1], parts[2])
	if !ok {
		return nil, "conflict in file " + b.Name, nil
	}
	return merged, "", nil
}

// overlay expands a plain link: the target's files, the link's own files over them, then the
// patches in order.
func overlay(tx kv.Tx, l buildstore.SourceLink, target, local []buildstore.FileEntry, now int64, e *buildstore.Expansion) ([]buildstore.FileEntry, string, error) {
	byName := map[string]buildstore.FileEntry{}
	for _, f := range target {
		byName[f.Name] = f
	}
	for _, f := range local {
		byName[f.Name] = f
	}
	patchNo := 0
	for _, p := range l.Patches {
		switch p.Kind {
		case "delete":
			delete(byName, p.Name)
		case "apply":
			msg, err := applyPatch(tx, e, byName, p.Name, now)
			if err != nil || msg != "" {
				return nil, msg, err
			}
		case "add":
			if _, ok := byName[p.Name]; !ok {
				return nil, fmt.Sprintf("patch '%s' does not exist", p.Name), nil
			}
			patchNo++
			if err := editSpecs(tx, e, byName, now, func(spec []byte) []byte { return addPatch(spec, p, 900+patchNo) }); err != nil {
				return nil, "", err
			}
		case "topadd":
			if err := editSpecs(tx, e, byName, now, func(spec []byte) []byte { return append([]byte(p.Text+"\n"), spec...) }); err != nil {
				return nil, "", err
			}
		}
	}
	out := make([]buildstore.FileEntry, 0, len(byName))
	for _, f := range byName {
		out = append(out, f)
	}
	return out, "", nil
}

// applyPatch applies the link's patch file name to the files it names; the patch itself is
// not part of the result (its changes are).
func applyPatch(tx kv.Tx, e *buildstore.Expansion, files map[string]buildstore.FileEntry, name string, now int64) (string, error) {
	pf, ok := files[name]
	if !ok {
		return fmt.Sprintf("patch '%s' does not exist", name), nil
	}
	patch, err := e.Content(tx, pf.MD5)
	if err != nil {
		return "", err
	}
	delete(files, name)
	work := map[string][]byte{}
	for _, n := range textdiff.PatchedFiles(patch) {
		if f, ok := files[n]; ok {
			if work[n], err = e.Content(tx, f.MD5); err != nil {
				return "", err
			}
		}
	}
	before := map[string]bool{}
	for n := range work {
		before[n] = true
	}
	if err := textdiff.Apply(work, patch); err != nil {
		return fmt.Sprintf("patch '%s' does not apply: %v", name, err), nil
	}
	for n := range before {
		if _, still := work[n]; !still {
			delete(files, n)
		}
	}
	for n, data := range work {
		if f, ok := files[n]; ok && f.MD5 == buildstore.MD5Hex(data) {
			continue
		}
		files[n] = buildstore.FileEntry{Name: n, MD5: keepContent(e, data, ""), Size: int64(len(data)), MTime: now}
	}
	return "", nil
}

// editSpecs rewrites every spec file of the tree with edit.
func editSpecs(tx kv.Tx, e *buildstore.Expansion, files map[string]buildstore.FileEntry, now int64, edit func([]byte) []byte) error {
	for name, f := range files {
		if !strings.HasSuffix(name, ".spec") {
			continue
		}
		spec, err := e.Content(tx, f.MD5)
		if err != nil {
			return err
		}
		data := edit(spec)
		files[name] = buildstore.FileEntry{Name: name, MD5: keepContent(e, data, ""), Size: int64(len(data)), MTime: now}
	}
	return nil
}

var (
	sourceTag = regexp.MustCompile(`(?i)^(Source|Patch)\d*\s*:`)
	setupLine = regexp.MustCompile(`^%(setup|autosetup)\b`)
)

// addPatch makes the spec apply patch p: a "PatchN:" tag after the last Source/Patch tag and a
// "%patchN" line after %setup, with p's popt (default -p0), as the backend's <add/> does.
func addPatch(spec []byte, p buildstore.Patch, n int) []byte {
	lines := textdiff.SplitLines(spec)
	popt := p.Popt
	if popt == "" {
		popt = "0"
	}
	tagAt, setupAt := -1, -1
	for i, l := range lines {
		if sourceTag.MatchString(l) {
			tagAt = i
		}
		if setupAt < 0 && setupLine.MatchString(l) {
			setupAt = i
		}
	}
	var out []string
	for i, l := range lines {
		if i == 0 && tagAt < 0 {
			out = append(out, fmt.Sprintf("Patch%d: %s\n", n, p.Name))
		}
		out = append(out, l)
		if i == tagAt {
			out = append(out, fmt.Sprintf("Patch%d: %s\n", n, p.Name))
		}
		if i == setupAt {
			out = append(out, fmt.Sprintf("%%patch%d -p%s\n", n, strings.TrimPrefix(popt, "-p")))
		}
	}
	return []byte(strings.Join(out, ""))
}

// TargetTree is the tree link l of project/pkg expands against (linkrev as for Expand),
// itself expanded when the target is a link; msg is a link error. A keeplink commit needs it
// even when the link's own expansion conflicts: the commit is how a packager resolves that.
func TargetTree(tx kv.Tx, project, pkg string, l buildstore.SourceLink, linkrev string) (t buildstore.Revision, msg string, err error) {
	var scratch buildstore.Expansion
	return linkTreeOf(tx, project, pkg, l, linkrev, &scratch)
}

// linkTreeOf is TargetTree keeping the contents the target's own expansion made in e.
func linkTreeOf(tx kv.Tx, project, pkg string, l buildstore.SourceLink, linkrev string, e *buildstore.Expansion) (buildstore.Revision, string, error) {
	rev := l.Rev
	switch linkrev {
	case "":
	case "base":
		rev = l.BaseRev
	default:
		rev = linkrev
	}
	tp, tk := l.Target(project, pkg)
	return linkTarget(tx, tp, tk, rev, l.MissingOK, 0, e)
}
