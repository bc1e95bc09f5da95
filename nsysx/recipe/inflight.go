package recipe

import (
	"os"
	"path/filepath"
	"sync"
)

// InFlightBytes bounds the memory the maps running at once are estimated to
// need (Recipe.MapCost times each report's size): a worker waits before
// opening a report that would pass it, unless nothing else is in flight, so
// one report of any size still runs. Workers stay the CPUs (Options.Workers);
// this only keeps many big reports from being loaded at once, so that peak
// memory does not grow with the number of inputs.
// 0 disables the bound.
var InFlightBytes int64 = 1536 << 20

// reportSize is the bytes of a report file, or of the files of an export
// directory (0 when it cannot be read: the open reports the error).
func reportSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	if !st.IsDir() {
		return st.Size()
	}
	var n int64
	_ = filepath.WalkDir(path, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// mapCost is a map's estimated memory for a report of size bytes.
func mapCost(r *Recipe, size int64) int64 {
	c := r.MapCost
	if c <= 0 {
		c = 1
	}
	return int64(c * float64(size))
}

// budget is a weighted semaphore over estimated bytes.
type budget struct {
	mu    sync.Mutex
	cond  *sync.Cond
	limit int64
	used  int64
}

func newBudget(limit int64) *budget {
	b := &budget{limit: limit}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// acquire waits until n bytes fit (or nothing is in flight) and takes them.
func (b *budget) acquire(n int64) {
	if b.limit <= 0 {
		return
	}
	b.mu.Lock()
	for b.used > 0 && b.used+n > b.limit {
		b.cond.Wait()
	}
	b.used += n
	b.mu.Unlock()
}

// release gives n bytes back.
func (b *budget) release(n int64) {
	if b.limit <= 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}
