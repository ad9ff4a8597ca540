package textindex

// Stats is what an operator watches of the index: how big it is and which store generation it
// reflects (behind the store's after an import that failed half-way, until the next rebuild).
type Stats struct {
	// Docs is the number of documents.
	Docs uint64
	// DiskBytes is the index's files on disk (0 for an index in memory).
	DiskBytes uint64
	// MemoryBytes is bleve's estimate of the memory the index holds.
	MemoryBytes uint64
	// Generation is the store generation the index reflects (Generation).
	Generation uint64
}

// Stats reads the index's figures. Every read is one bleve answers concurrently with writes, so
// Stats never waits for a rebuild; figures it cannot read are 0.
func (ix *Index) Stats() Stats {
	st := Stats{Generation: ix.Generation()}
	st.Docs, _ = ix.idx.DocCount()
	if m, ok := ix.idx.StatsMap()["index"].(map[string]interface{}); ok {
		st.DiskBytes, _ = m["CurOnDiskBytes"].(uint64)
	}
	if adv, err := ix.idx.Advanced(); err == nil {
		if mu, ok := adv.(interface{ MemoryUsed() uint64 }); ok {
			st.MemoryBytes = mu.MemoryUsed()
		}
	}
	return st
}
