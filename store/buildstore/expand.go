package buildstore

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pocketforge/pocketforge/internal/textdiff"
	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// Link expansion, as the backend does it (BSSrcServer/Link.pm): a plain link lays the link's
// own files over the target's and then runs its patches; a branch link (<branch/>) merges
// 3-way — a file the branch left as it was at baserev follows the target, a file only the
// branch changed keeps the branch's version, a file both changed is merged line by line, and
// a merge that conflicts is a link error. The expanded tree is identified by
// xsrcmd5 = md5("<target srcmd5>  /LINK\n<link srcmd5>  /LOCAL\n") and stored under it, so
// ?rev=<xsrcmd5> answers the same tree later even after the target moved on (osc checks a
// branch out that way and commits against it).

// maxLinkDepth bounds links to links (and catches loops).
const maxLinkDepth = 10

// LinkInfo is what a listing's <linkinfo> shows about a link.
type LinkInfo struct {
	Project   string `json:"project"`
	Package   string `json:"package"`
	SrcMD5    string `json:"srcmd5,omitempty"` // the target tree the expansion used
	BaseRev   string `json:"baserev,omitempty"`
	Rev       string `json:"rev,omitempty"`
	XSrcMD5   string `json:"xsrcmd5,omitempty"`
	LSrcMD5   string `json:"lsrcmd5,omitempty"` // the link's own (unexpanded) tree
	Error     string `json:"error,omitempty"`
	MissingOK bool   `json:"missingok,omitempty"`
}

// Expansion is an expanded link tree.
type Expansion struct {
	Info    LinkInfo    `json:"info"`
	VRev    uint64      `json:"vrev"`
	Version string      `json:"version"`
	Files   []FileEntry `json:"files"`
	// New holds contents the expansion made (merged files, patched files) that are not stored
	// blobs yet, by md5; PutExpansion stores them.
	New map[string][]byte `json:"-"`
	// Targets are the expansions of link targets that are links themselves, stored with this
	// one so their xsrcmd5s resolve too.
	Targets []TargetExpansion `json:"-"`
}

// TargetExpansion is an expansion of another package, made on the way.
type TargetExpansion struct {
	Project, Package string
	Expansion        Expansion
}

// XSrcMD5 is the identity of an expanded tree: the srcmd5 of the pseudo tree whose entries are
// the target (/LINK) and the link (/LOCAL), as the backend computes it.
func XSrcMD5(target, local string) string {
	return MD5Hex([]byte(target + "  /LINK\n" + local + "  /LOCAL\n"))
}

// Expand expands tree r of project/pkg against its target's newest tree (linkrev "") or the
// target tree linkrev names ("base": the link's baserev; or a srcmd5). ok is false when r is
// not a link. A link that cannot be expanded gives an Expansion whose Info.Error says why; err
// is for store failures only.
func Expand(tx *bbolt.Tx, project, pkg string, r Revision, linkrev string) (e Expansion, ok bool, err error) {
	return expand(tx, project, pkg, r, linkrev, 0)
}

func expand(tx *bbolt.Tx, project, pkg string, r Revision, linkrev string, depth int) (Expansion, bool, error) {
	lf, ok := r.File(LinkFile)
	if !ok {
		return Expansion{}, false, nil
	}
	data, err := GetBlob(tx, lf.MD5)
	if err != nil {
		return Expansion{}, true, err
	}
	e := Expansion{Info: LinkInfo{LSrcMD5: r.SrcMD5}}
	l, perr := ParseLink(data)
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
	local := withoutName(r.Files, LinkFile)
	var files []FileEntry
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
	e.Info.XSrcMD5 = XSrcMD5(target.SrcMD5, r.SrcMD5)
	e.VRev = target.VRev + r.VRev
	e.Version = "unknown"
	for _, f := range files {
		if strings.HasSuffix(f.Name, ".spec") {
			spec, err := e.content(tx, f.MD5)
			if err != nil {
				return e, true, err
			}
			e.Version = ParseVersion(spec)
			break
		}
	}
	return e, true, nil
}

// linkTarget resolves the tree a link points to, expanding it when it is a link itself; msg
// is a link error (a missing package or revision, a broken target link).
func linkTarget(tx *bbolt.Tx, tp, tk, rev string, missingOK bool, depth int, e *Expansion) (Revision, string, error) {
	if _, err := GetPackage(tx, tp, tk); err != nil {
		if missingOK {
			return Revision{SrcMD5: EmptySrcMD5}, "", nil
		}
		return Revision{}, fmt.Sprintf("package '%s/%s' does not exist", tp, tk), nil
	}
	t, found, err := ResolveRevision(tx, tp, tk, rev)
	if err != nil || !found {
		return Revision{}, fmt.Sprintf("revision '%s' of '%s/%s' does not exist", rev, tp, tk), err
	}
	sub, isLink, err := expand(tx, tp, tk, t, "", depth+1)
	if err != nil || !isLink {
		return t, "", err
	}
	if sub.Info.Error != "" {
		return Revision{}, fmt.Sprintf("%s/%s: %s", tp, tk, sub.Info.Error), nil
	}
	e.absorb(sub)
	e.Targets = append(e.Targets, TargetExpansion{Project: tp, Package: tk, Expansion: sub})
	return Revision{SrcMD5: sub.Info.XSrcMD5, VRev: sub.VRev, Files: sub.Files}, "", nil
}

// ResolveRevision finds a package tree by a revision string: "" or "latest" (the newest, or
// the empty tree), a number, or a 32-hex srcmd5 — of a revision, or of a stored expansion
// (then the files are the expanded ones). found is false when there is no such tree.
func ResolveRevision(tx *bbolt.Tx, project, pkg, rev string) (Revision, bool, error) {
	switch {
	case rev == "" || rev == "latest":
		r, ok, err := LatestRevision(tx, project, pkg)
		if !ok {
			return Revision{SrcMD5: EmptySrcMD5}, err == nil, err
		}
		return r, true, err
	case isHex32(rev):
		all, err := Revisions(tx, project, pkg)
		for i := len(all) - 1; i >= 0; i-- {
			if all[i].SrcMD5 == rev {
				return all[i], true, err
			}
		}
		if x, err := GetExpansion(tx, project, pkg, rev); err == nil {
			return Revision{SrcMD5: rev, VRev: x.VRev, Version: x.Version, Files: x.Files}, true, nil
		}
		if rev == EmptySrcMD5 {
			return Revision{SrcMD5: EmptySrcMD5}, true, err
		}
		return Revision{}, false, err
	}
	n, err := strconv.ParseUint(rev, 10, 64)
	if err != nil {
		return Revision{}, false, nil
	}
	if n == 0 {
		return Revision{SrcMD5: EmptySrcMD5}, true, nil
	}
	r, err := GetRevision(tx, project, pkg, n)
	return r, err == nil, nil
}

var hex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)

func isHex32(s string) bool { return hex32.MatchString(s) }

// absorb takes over the new contents of a nested expansion.
func (e *Expansion) absorb(sub Expansion) {
	for sum, data := range sub.New {
		e.keep(data, sum)
	}
	e.Targets = append(e.Targets, sub.Targets...)
}

// keep records new content and returns its md5.
func (e *Expansion) keep(data []byte, sum string) string {
	if sum == "" {
		sum = MD5Hex(data)
	}
	if e.New == nil {
		e.New = map[string][]byte{}
	}
	e.New[sum] = data
	return sum
}

// content reads a file's bytes: new content first, then the blob store.
func (e *Expansion) content(tx *bbolt.Tx, sum string) ([]byte, error) {
	if data, ok := e.New[sum]; ok {
		return data, nil
	}
	return GetBlob(tx, sum)
}

// Content is content for callers outside the package (a file GET of an expanded tree whose
// expansion is not stored yet).
func (e Expansion) Content(tx *bbolt.Tx, sum string) ([]byte, error) { return e.content(tx, sum) }

func withoutName(files []FileEntry, name string) []FileEntry {
	return slices.DeleteFunc(slices.Clone(files), func(f FileEntry) bool { return f.Name == name })
}

// mergeBranch is the 3-way merge of a branch link: base is the target at baserev.
func mergeBranch(tx *bbolt.Tx, tp, tk string, l SourceLink, target Revision, local []FileEntry, now int64, e *Expansion) ([]FileEntry, string, error) {
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
	for _, list := range [][]FileEntry{base.Files, target.Files, local} {
		for _, f := range list {
			names[f.Name] = true
		}
	}
	var out []FileEntry
	for name := range names {
		b, inB := base.File(name)
		t, inT := target.File(name)
		lf, inL := Revision{Files: local}.File(name)
		same := func(x FileEntry, inX bool, y FileEntry, inY bool) bool {
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
			out = append(out, FileEntry{Name: name, MD5: e.keep(merged, ""), Size: int64(len(merged)), MTime: now})
		default:
			return nil, "conflict in file " + name, nil
		}
	}
	return out, "", nil
}

// merge3 merges one file; a conflict or binary content is a link error.
func merge3(tx *bbolt.Tx, e *Expansion, b, l, t FileEntry) ([]byte, string, error) {
	var parts [3][]byte
	for i, f := range []FileEntry{b, l, t} {
		data, err := e.content(tx, f.MD5)
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
func overlay(tx *bbolt.Tx, l SourceLink, target, local []FileEntry, now int64, e *Expansion) ([]FileEntry, string, error) {
	byName := map[string]FileEntry{}
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
	out := make([]FileEntry, 0, len(byName))
	for _, f := range byName {
		out = append(out, f)
	}
	return out, "", nil
}

// applyPatch applies the link's patch file name to the files it names; the patch itself is
// not part of the result (its changes are).
func applyPatch(tx *bbolt.Tx, e *Expansion, files map[string]FileEntry, name string, now int64) (string, error) {
	pf, ok := files[name]
	if !ok {
		return fmt.Sprintf("patch '%s' does not exist", name), nil
	}
	patch, err := e.content(tx, pf.MD5)
	if err != nil {
		return "", err
	}
	delete(files, name)
	work := map[string][]byte{}
	for _, n := range textdiff.PatchedFiles(patch) {
		if f, ok := files[n]; ok {
			if work[n], err = e.content(tx, f.MD5); err != nil {
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
		if f, ok := files[n]; ok && f.MD5 == MD5Hex(data) {
			continue
		}
		files[n] = FileEntry{Name: n, MD5: e.keep(data, ""), Size: int64(len(data)), MTime: now}
	}
	return "", nil
}

// editSpecs rewrites every spec file of the tree with edit.
func editSpecs(tx *bbolt.Tx, e *Expansion, files map[string]FileEntry, now int64, edit func([]byte) []byte) error {
	for name, f := range files {
		if !strings.HasSuffix(name, ".spec") {
			continue
		}
		spec, err := e.content(tx, f.MD5)
		if err != nil {
			return err
		}
		data := edit(spec)
		files[name] = FileEntry{Name: name, MD5: e.keep(data, ""), Size: int64(len(data)), MTime: now}
	}
	return nil
}

var (
	sourceTag = regexp.MustCompile(`(?i)^(Source|Patch)\d*\s*:`)
	setupLine = regexp.MustCompile(`^%(setup|autosetup)\b`)
)

// addPatch makes the spec apply patch p: a "PatchN:" tag after the last Source/Patch tag and a
// "%patchN" line after %setup, with p's popt (default -p0), as the backend's <add/> does.
func addPatch(spec []byte, p Patch, n int) []byte {
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

// expansionKey is project 0x00 package 0x00 xsrcmd5.
func expansionKey(project, pkg, xsrcmd5 string) []byte {
	return append(revisionPrefix(project, pkg), xsrcmd5...)
}

// GetExpansion returns a stored expansion of project/pkg by its xsrcmd5.
func GetExpansion(tx *bbolt.Tx, project, pkg, xsrcmd5 string) (Expansion, error) {
	x, err := store.Get[Expansion](tx, store.BuildExpansions, expansionKey(project, pkg, xsrcmd5))
	if err != nil {
		return x, store.NotFoundf("no such revision")
	}
	return x, nil
}

// HasExpansion reports whether the expansion is stored (a GET then need not write).
func HasExpansion(tx *bbolt.Tx, project, pkg, xsrcmd5 string) bool {
	b, err := store.Bucket(tx, store.BuildExpansions)
	return err == nil && b.Get(expansionKey(project, pkg, xsrcmd5)) != nil
}

// PutExpansion stores an expansion of project/pkg (and the nested ones it made) with its new
// contents as blobs, so ?rev=<xsrcmd5> serves it from now on. Broken expansions are not kept.
func PutExpansion(tx *bbolt.Tx, project, pkg string, e Expansion) error {
	if e.Info.Error != "" || e.Info.XSrcMD5 == "" {
		return nil
	}
	for _, data := range e.New {
		if _, err := PutBlob(tx, data); err != nil {
			return err
		}
	}
	for _, t := range e.Targets {
		if err := PutExpansion(tx, t.Project, t.Package, t.Expansion); err != nil {
			return err
		}
	}
	if HasExpansion(tx, project, pkg, e.Info.XSrcMD5) {
		return nil
	}
	return store.Put(tx, store.BuildExpansions, expansionKey(project, pkg, e.Info.XSrcMD5), e)
}

// TargetTree is the tree link l of project/pkg expands against (linkrev as for Expand),
// itself expanded when the target is a link; msg is a link error. A keeplink commit needs it
// even when the link's own expansion conflicts: the commit is how a packager resolves that.
func TargetTree(tx *bbolt.Tx, project, pkg string, l SourceLink, linkrev string) (t Revision, msg string, err error) {
	var scratch Expansion
	return linkTreeOf(tx, project, pkg, l, linkrev, &scratch)
}

// linkTreeOf is TargetTree keeping the contents the target's own expansion made in e.
func linkTreeOf(tx *bbolt.Tx, project, pkg string, l SourceLink, linkrev string, e *Expansion) (Revision, string, error) {
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
