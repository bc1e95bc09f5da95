package recipe

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// InFlightBytes bounds the memory the maps running at once are estimated to
// need (Recipe.MapCost times each report's size, at least
// InFlightBytes/MaxMapsInFlight): a worker waits before opening a report
// that would pass it, unless nothing else is in flight, so one report of
// any size still runs. Workers stay the CPUs (Options.Workers); this only
// keeps many reports from being mapped at once, so that peak memory does
// not grow with the number of inputs or of cores.
// 0 disables the bound.
var InFlightBytes int64 = 1 << 30

// MaxMapsInFlight is the most maps the budget lets run at once however
// small the reports: each counts at least InFlightBytes/MaxMapsInFlight.
// A map holds more than its tables (the profile's schema and strings, the
// part it returns, the collector's slack), and eight keep 8 or 16 cores
// busy on the reports we measured.
const MaxMapsInFlight = 8

// reportSize is the bytes of a report file, or of the files of an export
// directory (0 when it cannot be read: the open reports the error). A
// .nsys-rep/.qdrep is read through its SQLite export, so it counts as the
// export beside it, or as repExportRatio times its own size before the
// first export.
func reportSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	if st.IsDir() {
		return dirSize(path)
	}
	lower := strings.ToLower(path)
	if !strings.HasSuffix(lower, ".nsys-rep") && !strings.HasSuffix(lower, ".qdrep") {
		return st.Size()
	}
	if ex, err := os.Stat(strings.TrimSuffix(path, filepath.Ext(path)) + ".sqlite"); err == nil {
		return ex.Size()
	}
	return repExportRatio * st.Size()
}

// repExportRatio is about how much larger a report's SQLite export is than
// the (compressed) report: 3.5 for the profiles in testdata/profiles.
const repExportRatio = 4

// dirSize is the bytes of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// mapCost is a map's estimated memory for a report of size bytes. Under
// an NVTX filter every map loads the report's NVTX ranges first, whatever
// its recipe streams: at least nvtxFilterCost.
func mapCost(r *Recipe, o *Options, size int64) int64 {
	c := r.MapCost
	if c <= 0 {
		c = 1
	}
	if o != nil && (o.FilterNVTX != nil || o.FilterProjectedNVTX != nil) {
		c = max(c, nvtxFilterCost)
	}
	return max(int64(c*float64(size)), InFlightBytes/MaxMapsInFlight)
}

// nvtxFilterCost is the estimate of a map under an NVTX filter: the NVTX
// composite it loads peaks at about 3 bytes a byte of SQLite export, as in
// nvtx_gpu_proj_sum (8 x train30, cuda_gpu_time_util_map --filter-nvtx:
// 1.7 GB peak RSS with five maps in flight, the estimate then 1 byte a byte).
const nvtxFilterCost = 3

// mapsAdmitted is how many maps of the largest of costs a budget of limit
// bytes lets run at once: at least one; with no limit, as many as there
// are costs.
func mapsAdmitted(limit int64, costs []int64) int {
	if limit <= 0 || len(costs) == 0 {
		return max(1, len(costs))
	}
	return int(max(1, limit/slices.Max(costs)))
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

// grant is the share of the budget one map holds: its estimate when it
// starts, raised by Report.Grow.
type grant struct {
	mem  *budget
	size int64 // the report's bytes
	held int64
}

// grow raises the share to n bytes. The share held is given back before
// the wait, so that maps growing at once cannot wait for each other: each
// waits, as a map that starts does, until the others' shares leave room,
// or until nothing is in flight.
func (g *grant) grow(n int64) {
	if n <= g.held {
		return
	}
	g.mem.release(g.held)
	g.mem.acquire(n)
	g.held = n
}
