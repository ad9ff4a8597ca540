// Package textindex keeps the explorer's bleve index of product packages: derived from the store
// (which keeps the records of truth), persisted beside the data file, rebuilt in batches when
// missing, damaged, of another version or behind the store's generation. It answers the
// package-name and git (vcs) searches; it imports nothing of ours, so the explorer API hands it
// plain documents.
package textindex

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/ngram"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/single"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Version is the mapping's version: an index written with another one is rebuilt. 2: names
// are no longer indexed whole as well (no query read that field; it was a fifth of indexing).
const Version = "2"

// Internal keys of the index (bleve's own key-value space next to the documents).
var (
	keyVersion    = []byte("pocketforge-mapping-version")
	keyGeneration = []byte("pocketforge-generation")
)

// Doc is one document: a distinct package name (Name set) or a distinct git tuple (Org, Repo,
// Branch, Commit set). The index holds keys only: what a key stands for (which packages of
// which products) is resolved in the store, in one read transaction, so a search sees every
// product as it was before or after an import, never half of it. Indexing distinct keys rather
// than packages also keeps indexing fast: products share most names and git tuples.
type Doc struct {
	ID     string
	Name   string
	Org    string
	Repo   string
	Branch string
	Commit string
}

// NameDoc and VCSDoc make the documents of a name key and a git key.
func NameDoc(nameKey string) Doc { return Doc{ID: "n:" + nameKey, Name: nameKey} }

// VCSDoc makes the document of a git tuple.
func VCSDoc(key, org, repo, branch, commit string) Doc {
	return Doc{ID: "v:" + key, Org: org, Repo: repo, Branch: branch, Commit: commit}
}

// NameDocID and VCSDocID are the document ids of the keys.
func NameDocID(nameKey string) string { return "n:" + nameKey }

// VCSDocID is the document id of a git key.
func VCSDocID(key string) string { return "v:" + key }

// indexed is the document bleve stores; nothing is stored, every field is indexed only.
type indexed struct {
	NameGrams string `json:"name_grams,omitempty"`
	ShortKey  string `json:"short_key,omitempty"` // a name shorter than a gram, which has no grams
	OrgKey    string `json:"org_key,omitempty"`
	RepoKey   string `json:"repo_key,omitempty"`
	BranchKey string `json:"branch_key,omitempty"`
	CommitKey string `json:"commit_key,omitempty"`
}

// gram is the n-gram length of name_grams. A search term of gram characters or more is the
// conjunction of its grams, confirmed against the name (grams in another order match too);
// a shorter one is a regular expression over the gram dictionary (thousands of terms), not
// over the names (a hundred times as many, and the reason a plain wildcard query is slow).
const gram = 3

func newMapping() (mapping.IndexMapping, error) {
	m := bleve.NewIndexMapping()
	if err := m.AddCustomTokenFilter("grams", map[string]interface{}{"type": ngram.Name, "min": float64(gram), "max": float64(gram)}); err != nil {
		return nil, err
	}
	err := m.AddCustomAnalyzer("name_grams", map[string]interface{}{
		"type": custom.Name, "tokenizer": single.Name, "token_filters": []string{lowercase.Name, "grams"},
	})
	if err != nil {
		return nil, err
	}
	doc := bleve.NewDocumentStaticMapping()
	grams := bleve.NewTextFieldMapping()
	grams.Analyzer, grams.Store, grams.IncludeInAll, grams.IncludeTermVectors, grams.DocValues = "name_grams", false, false, false, false
	doc.AddFieldMappingsAt("name_grams", grams)
	for _, f := range []string{"short_key", "org_key", "repo_key", "branch_key", "commit_key"} {
		fm := bleve.NewKeywordFieldMapping()
		fm.Store, fm.IncludeInAll, fm.IncludeTermVectors, fm.DocValues = false, false, false, false
		doc.AddFieldMappingsAt(f, fm)
	}
	m.DefaultMapping = doc
	m.DefaultAnalyzer = "keyword"
	return m, nil
}

// Index is the explorer's package index. Writes are serialized; searches run concurrently and
// see a batch either wholly or not at all (bleve applies a batch atomically).
type Index struct {
	mu  sync.Mutex // serializes writers
	idx bleve.Index
}

// Open opens the index at path, or creates it; an index that cannot be opened or has another
// mapping version is removed and created anew (it is derived data: Rebuild fills it). An
// empty path keeps the index in memory (ephemeral appliances, tests). fresh reports a new,
// empty index.
func Open(path string) (ix *Index, fresh bool, err error) {
	m, err := newMapping()
	if err != nil {
		return nil, false, err
	}
	if path == "" {
		// scorch, as on disk: NewMemOnly would pick the older upsidedown index, five times
		// slower to fill.
		idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
		if err != nil {
			return nil, false, err
		}
		return &Index{idx: idx}, true, idx.SetInternal(keyVersion, []byte(Version))
	}
	if idx, err := bleve.Open(path); err == nil {
		if v, _ := idx.GetInternal(keyVersion); string(v) == Version {
			return &Index{idx: idx}, false, nil
		}
		idx.Close()
	}
	if err := os.RemoveAll(path); err != nil {
		return nil, false, fmt.Errorf("search index %s: %w", path, err)
	}
	idx, err := bleve.New(path, m)
	if err != nil {
		return nil, false, fmt.Errorf("search index %s: %w", path, err)
	}
	return &Index{idx: idx}, true, idx.SetInternal(keyVersion, []byte(Version))
}

// Close closes the index.
func (ix *Index) Close() error { return ix.idx.Close() }

// Generation is the store generation the index reflects (0 for a new index).
func (ix *Index) Generation() uint64 {
	v, err := ix.idx.GetInternal(keyGeneration)
	if err != nil || v == nil {
		return 0
	}
	n, _ := strconv.ParseUint(string(v), 10, 64)
	return n
}

func toIndexed(d Doc) indexed {
	name := strings.ToLower(d.Name)
	short := ""
	if n := len([]rune(name)); n > 0 && n < gram {
		short = name
	}
	return indexed{NameGrams: name, ShortKey: short, OrgKey: strings.ToLower(d.Org), RepoKey: strings.ToLower(d.Repo),
		BranchKey: strings.ToLower(d.Branch), CommitKey: strings.ToLower(d.Commit)}
}

// Apply changes documents in one atomic batch: the ids in remove go, the docs come in (an id in
// both is simply replaced), and the index then reflects store generation gen.
func (ix *Index) Apply(docs []Doc, remove []string, gen uint64) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	b := ix.idx.NewBatch()
	for _, id := range remove {
		b.Delete(id)
	}
	for _, d := range docs {
		if err := b.Index(d.ID, toIndexed(d)); err != nil {
			return err
		}
	}
	b.SetInternal(keyGeneration, []byte(strconv.FormatUint(gen, 10)))
	return ix.idx.Batch(b)
}

// batchSize is how many documents a rebuild or Add writes per batch: a batch is analyzed and
// turned into a segment in memory at once, about 2 KB a document, so a product's tens of
// thousands of new keys in one batch were a hundred megabytes at the import's peak.
const batchSize = 5000

// Add indexes docs in batches of batchSize, the generation unchanged: for keys the store does
// not hold yet, which searches resolve to nothing until it does, so a search that meets some
// of them before the rest sees no more than before. When a batch fails, those already added
// are removed again (as far as the index still takes changes) and the error returned.
func (ix *Index) Add(docs []Doc) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	b := ix.idx.NewBatch()
	for i := 0; i < len(docs); i += batchSize {
		for _, d := range docs[i:min(i+batchSize, len(docs))] {
			if err := b.Index(d.ID, toIndexed(d)); err != nil {
				ix.removeLocked(docs[:i])
				return err
			}
		}
		if err := ix.idx.Batch(b); err != nil {
			ix.removeLocked(docs[:i])
			return err
		}
		b.Reset()
	}
	return nil
}

// Remove removes the documents of docs in batches, the generation unchanged: an import that
// added keys the store then did not take takes them back.
func (ix *Index) Remove(docs []Doc) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.removeLocked(docs)
}

func (ix *Index) removeLocked(docs []Doc) error {
	b := ix.idx.NewBatch()
	for i := 0; i < len(docs); i += batchSize {
		for _, d := range docs[i:min(i+batchSize, len(docs))] {
			b.Delete(d.ID)
		}
		if err := ix.idx.Batch(b); err != nil {
			return err
		}
		b.Reset()
	}
	return nil
}

// Rebuild empties the index and fills it from each (the store's packages, in batches), ending
// at store generation gen. Searches during a rebuild see a partial index; callers rebuild
// before they serve.
func (ix *Index) Rebuild(each func(yield func(Doc) error) error, gen uint64) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.clear(); err != nil {
		return err
	}
	b := ix.idx.NewBatch()
	err := each(func(d Doc) error {
		if err := b.Index(d.ID, toIndexed(d)); err != nil {
			return err
		}
		if b.Size() >= batchSize {
			if err := ix.idx.Batch(b); err != nil {
				return err
			}
			b.Reset()
		}
		return nil
	})
	if err != nil {
		return err
	}
	b.SetInternal(keyGeneration, []byte(strconv.FormatUint(gen, 10)))
	return ix.idx.Batch(b)
}

// clear deletes every document, in batches.
func (ix *Index) clear() error {
	for {
		req := bleve.NewSearchRequestOptions(query.NewMatchAllQuery(), batchSize, 0, false)
		res, err := ix.idx.Search(req)
		if err != nil {
			return err
		}
		if len(res.Hits) == 0 {
			return nil
		}
		b := ix.idx.NewBatch()
		for _, h := range res.Hits {
			b.Delete(h.ID)
		}
		if err := ix.idx.Batch(b); err != nil {
			return err
		}
	}
}

// Count is the number of documents.
func (ix *Index) Count() (uint64, error) { return ix.idx.DocCount() }

// maxHits bounds one answer: every distinct name or git tuple of the largest data sets.
const maxHits = 2_000_000

// ids runs q and returns the ids of its hits without the prefix.
func (ix *Index) ids(q query.Query, prefix string) ([]string, error) {
	req := bleve.NewSearchRequestOptions(q, maxHits, 0, false)
	res, err := ix.idx.Search(req)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(res.Hits))
	for _, h := range res.Hits {
		if strings.HasPrefix(h.ID, prefix) {
			out = append(out, h.ID[len(prefix):])
		}
	}
	return out, nil
}

// NameQuery is the package-name search: the names that may contain term, case-insensitively
// (NameMatches confirms). Regular-expression and wildcard characters are plain characters.
func NameQuery(term string) query.Query {
	term = strings.ToLower(term)
	runes := []rune(term)
	if len(runes) < gram {
		pattern := ".*" + regexp.QuoteMeta(term) + ".*"
		inGrams := query.NewRegexpQuery(pattern)
		inGrams.SetField("name_grams")
		inShort := query.NewRegexpQuery(pattern) // names shorter than a gram have no grams
		inShort.SetField("short_key")
		return query.NewDisjunctionQuery([]query.Query{inGrams, inShort})
	}
	var parts []query.Query
	seen := map[string]bool{}
	for i := 0; i+gram <= len(runes); i++ {
		g := string(runes[i : i+gram])
		if !seen[g] {
			seen[g] = true
			t := query.NewTermQuery(g)
			t.SetField("name_grams")
			parts = append(parts, t)
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return query.NewConjunctionQuery(parts)
}

// NameMatches is the exact test behind NameQuery, on a name key.
func NameMatches(nameKey, term string) bool { return strings.Contains(nameKey, strings.ToLower(term)) }

// Names answers the package-name search with the matching name keys (not sorted).
func (ix *Index) Names(term string) ([]string, error) {
	keys, err := ix.ids(NameQuery(term), "n:")
	if err != nil {
		return nil, err
	}
	out := keys[:0]
	for _, k := range keys {
		if NameMatches(k, term) {
			out = append(out, k)
		}
	}
	return out, nil
}

// VCSQuery is the git search: the given parts must all match (org, repo and branch exactly
// and case-insensitively; commit as a prefix of the commit hash). At least one part is needed.
func VCSQuery(org, repo, branch, commit string) (query.Query, error) {
	var parts []query.Query
	term := func(field, v string) {
		t := query.NewTermQuery(strings.ToLower(v))
		t.SetField(field)
		parts = append(parts, t)
	}
	if org != "" {
		term("org_key", org)
	}
	if repo != "" {
		term("repo_key", repo)
	}
	if branch != "" {
		term("branch_key", branch)
	}
	if commit != "" {
		p := query.NewPrefixQuery(strings.ToLower(commit))
		p.SetField("commit_key")
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return nil, errors.New("empty git query")
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	return query.NewConjunctionQuery(parts), nil
}

// VCS answers the git search with the matching git keys.
func (ix *Index) VCS(org, repo, branch, commit string) ([]string, error) {
	q, err := VCSQuery(org, repo, branch, commit)
	if err != nil {
		return nil, err
	}
	return ix.ids(q, "v:")
}

// Raw runs a query straight on bleve, as the searches do, and counts the hits: the raw layer
// the explorer's benchmarks time beside the whole request.
func (ix *Index) Raw(q query.Query) (int, error) {
	res, err := ix.idx.Search(bleve.NewSearchRequestOptions(q, maxHits, 0, false))
	if err != nil {
		return 0, err
	}
	return len(res.Hits), nil
}
