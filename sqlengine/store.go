package sqlengine

import (
	"sync"
)

// Store is where each instance's data lives between statements and across restarts. The
// appliance implements it over a bbolt bucket (bbolt is its only data of record); Save must be
// durable when it returns, because the client's OK for a write is sent only after it. Load of an
// id never saved returns (nil, nil): a new, empty instance.
type Store interface {
	Load(id uint64) ([]byte, error)
	Save(id uint64, state []byte) error
}

// Deleter is a Store that can also forget an instance; Remove uses it when the Store has it
// and otherwise saves an empty state.
type Deleter interface {
	Delete(id uint64) error
}

// MemStore is a Store in memory, for tests and benchmarks: it survives a Manager, not a process.
type MemStore struct {
	mu sync.Mutex
	m  map[uint64][]byte
	// FailSave, when set, is returned by Save (to test that a write is refused, not lost).
	FailSave error
}

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return &MemStore{m: map[uint64][]byte{}} }

// Load returns a copy of id's state (nil if none).
func (s *MemStore) Load(id uint64) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.m[id]...), nil
}

// Save keeps a copy of state as id's.
func (s *MemStore) Save(id uint64, state []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.FailSave != nil {
		return s.FailSave
	}
	s.m[id] = append([]byte(nil), state...)
	return nil
}

// Delete forgets id.
func (s *MemStore) Delete(id uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, id)
	return nil
}

// Has tells whether id has a saved state.
func (s *MemStore) Has(id uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.m[id]
	return ok
}
