package buildstore

import (
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Pattern is one pattern file of a project (/source/P/_pattern/<name>): an XML document that
// groups packages for installers. Patterns are kept in their own bucket rather than in the
// project record, so the record every request reads stays small.
type Pattern struct {
	Name  string `json:"name"`
	Data  []byte `json:"data"`
	MD5   string `json:"md5"`
	MTime int64  `json:"mtime"` // unix seconds of the last PUT
}

// patternKey is project 0x00 name: a project's patterns are one key prefix, in name order.
func patternKey(project, name string) []byte {
	return append(append([]byte(project), 0), name...)
}

// PutPattern stores (or replaces) a pattern file of project.
func PutPattern(tx kv.Tx, project string, p Pattern) error {
	p.MD5 = MD5Hex(p.Data)
	return store.Put(tx, store.BuildPatterns, patternKey(project, p.Name), p)
}

// GetPattern returns a pattern file; the not-found message is the backend's.
func GetPattern(tx kv.Tx, project, name string) (Pattern, error) {
	p, err := store.Get[Pattern](tx, store.BuildPatterns, patternKey(project, name))
	if err != nil {
		return Pattern{}, store.NotFoundf("%s: no such file", name)
	}
	return p, nil
}

// DeletePattern removes a pattern file; the not-found message is the backend's.
func DeletePattern(tx kv.Tx, project, name string) error {
	if err := store.Delete(tx, store.BuildPatterns, patternKey(project, name)); err != nil {
		return store.NotFoundf("%s: no such file", name)
	}
	return nil
}

// Patterns lists a project's pattern files by name.
func Patterns(tx kv.Tx, project string) ([]Pattern, error) {
	var out []Pattern
	err := store.Each(tx, store.BuildPatterns, append([]byte(project), 0), func(_ []byte, p Pattern) (bool, error) {
		out = append(out, p)
		return true, nil
	})
	return out, err
}

// DeletePatterns removes every pattern file of project.
func DeletePatterns(tx kv.Tx, project string) error {
	return store.DeletePrefix(tx, store.BuildPatterns, append([]byte(project), 0))
}
