package ratelimit

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkTake measures a Take with the two limits every cloud request carries (general and
// endpoint), in parallel, with the real clock. It compares 16 shards with one mutex, and both with
// the raw floor under them: a mutex around a map lookup.
func BenchmarkTake(b *testing.B) {
	limits := []Limit{{"general", 1 << 40, 2 * time.Minute}, {"endpoint:GET /account/users", 1 << 40, time.Minute}}
	now := func() time.Time { return time.Now().UTC() }
	for _, keys := range []int{1024, 1} {
		names := make([]string, keys)
		for i := range names {
			names[i] = fmt.Sprintf("token-%d", i)
		}
		for _, shards := range []int{shardCount, 1} {
			b.Run(fmt.Sprintf("keys=%d/shards=%d", keys, shards), func(b *testing.B) {
				l := newSharded(now, shards)
				var seq atomic.Int64
				b.RunParallel(func(pb *testing.PB) {
					i := int(seq.Add(1)) * 7919
					for pb.Next() {
						l.Take(names[i%keys], limits...)
						i++
					}
				})
			})
		}
		b.Run(fmt.Sprintf("keys=%d/raw-mutex-map", keys), func(b *testing.B) {
			var mu sync.Mutex
			m := make(map[string]int, keys)
			var seq atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				i := int(seq.Add(1)) * 7919
				for pb.Next() {
					_ = time.Now()
					mu.Lock()
					m[names[i%keys]]++
					mu.Unlock()
					i++
				}
			})
		})
	}
	b.Run("serial", func(b *testing.B) {
		l := New(now)
		for b.Loop() {
			l.Take("token-1", limits...)
		}
	})
}
