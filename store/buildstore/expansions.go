package buildstore

import (
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The records of expanded link trees (store.BuildExpansions). What a link means and how its
// tree is expanded is the build domain's (buildsvc/links_expand.go); the store keeps the
// expansions it made under project 0x00 package 0x00 xsrcmd5, so ?rev=<xsrcmd5> answers the
// same tree later even after the link's target moved on.

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

// XSrcMD5 is the identity of an expanded tree, the key of its record: the srcmd5 of the pseudo
// tree whose entries are the target (/LINK) and the link (/LOCAL), as the backend computes it.
func XSrcMD5(target, local string) string {
	return MD5Hex([]byte(target + "  /LINK\n" + local + "  /LOCAL\n"))
}

// Content reads a file of the expansion by md5: the contents it made and did not store yet
// first, then the blob store (a file GET of an expanded tree whose expansion is not stored yet).
func (e Expansion) Content(tx kv.Tx, sum string) ([]byte, error) {
	if data, ok := e.New[sum]; ok {
		return data, nil
	}
	return GetBlob(tx, sum)
}

// expansionKey is project 0x00 package 0x00 xsrcmd5.
func expansionKey(project, pkg, xsrcmd5 string) []byte {
	return append(revisionPrefix(project, pkg), xsrcmd5...)
}

// GetExpansion returns a stored expansion of project/pkg by its xsrcmd5.
func GetExpansion(tx kv.Tx, project, pkg, xsrcmd5 string) (Expansion, error) {
	x, err := store.Get[Expansion](tx, store.BuildExpansions, expansionKey(project, pkg, xsrcmd5))
	if err != nil {
		return x, store.NotFoundf("no such revision")
	}
	return x, nil
}

// HasExpansion reports whether the expansion is stored (a GET then need not write).
func HasExpansion(tx kv.Tx, project, pkg, xsrcmd5 string) bool {
	b, err := store.Bucket(tx, store.BuildExpansions)
	return err == nil && b.Get(expansionKey(project, pkg, xsrcmd5)) != nil
}

// PutExpansion stores an expansion of project/pkg (and the nested ones it made) with its new
// contents as blobs, so ?rev=<xsrcmd5> serves it from now on. Broken expansions are not kept.
func PutExpansion(tx kv.Tx, project, pkg string, e Expansion) error {
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
