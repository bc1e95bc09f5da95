package stats

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// execKey is a summary group: launching thread, device and API and kernel
// names (the last three as dense indexes).
type execKey struct {
	pid, tid      int64
	dev, api, ker int32
}

// kernExecSum groups the pairs by execKey. Each pair gets a dense group id
// (groups numbered in order of first pair); the values of each group then
// lie together in one array per statistic, in pair order.
func kernExecSum(c *Ctx, x *kernExec) *Result {
	gids, keys, devs := x.groupIDs()
	return kernExecRows(c, x, keys, devs, x.groupAggs(gids, len(keys)))
}

// groupIDs returns the group of each pair, the groups' keys and the
// devices (by their index in execKey.dev). A group is found by one integer:
// the index of its (thread, device), its API name's and its kernel name's,
// the first looked up only when they change from the previous pair's.
func (x *kernExec) groupIDs() ([]int32, []execKey, []Value) {
	gids := make([]int32, len(x.pairs))
	threadDevs := map[[2]int64]int64{} // PID and TID bits of globalTid, device -> index
	groups := map[int64]int32{}
	var keys []execKey
	var devs []Value
	na, nk := int64(len(x.api.dict)), int64(len(x.names.dict))
	lastG, lastDev, td := int64(-1), int32(-1), int64(0)
	for i, p := range x.pairs {
		g := x.rg.Ints[p.r] & (1<<48 - 1)
		d := lastDev
		if v := nv(x.kd, int(p.k)); d < 0 || devs[d] != v {
			d = devIndex(&devs, v)
		}
		if g != lastG || d != lastDev {
			var ok bool
			if td, ok = threadDevs[[2]int64{g, int64(d)}]; !ok {
				td = int64(len(threadDevs))
				threadDevs[[2]int64{g, int64(d)}] = td
			}
			lastG, lastDev = g, d
		}
		a, kr := x.api.id(int(p.r)), x.names.ids[p.k]
		gid, ok := groups[(td*na+int64(a))*nk+int64(kr)]
		if !ok {
			gid = int32(len(keys))
			groups[(td*na+int64(a))*nk+int64(kr)] = gid
			keys = append(keys, execKey{pid: gPID(g), tid: gTID(g), dev: d, api: a, ker: kr})
		}
		gids[i] = gid
	}
	return gids, keys, devs
}

// devIndex returns the index of v in *devs (a few devices), adding it.
func devIndex(devs *[]Value, v Value) int32 {
	for j, d := range *devs {
		if d == v {
			return int32(j)
		}
	}
	*devs = append(*devs, v)
	return int32(len(*devs) - 1)
}

// execAggs are a group's total (API start to the later end), API, queue
// and kernel times.
type execAggs [4]Agg

func (x *kernExec) groupAggs(gids []int32, ng int) []execAggs {
	n := len(gids)
	start := make([]int32, ng+1)
	for _, g := range gids {
		start[g+1]++
	}
	for g := 0; g < ng; g++ {
		start[g+1] += start[g]
	}
	pos, qpos := append([]int32(nil), start[:ng]...), append([]int32(nil), start[:ng]...)
	nulls := make([]int, ng)
	var vals [4][]int64
	for m := range vals {
		vals[m] = make([]int64, n)
	}
	rs, re, ks, ke := x.rs.Ints, x.re.Ints, x.ks.Ints, x.ke.Ints
	for i, p := range x.pairs {
		g := gids[i]
		o := pos[g]
		pos[g]++
		vals[0][o] = max(re[p.r], ke[p.k]) - rs[p.r]
		vals[1][o] = re[p.r] - rs[p.r]
		vals[3][o] = ke[p.k] - ks[p.k]
		if q := ks[p.k] - re[p.r]; q >= 0 {
			vals[2][qpos[g]] = q
			qpos[g]++
		} else {
			nulls[g]++
		}
	}
	out := make([]execAggs, ng)
	for g := range out {
		for m := range out[g] {
			e := pos[g]
			if m == 2 {
				e = qpos[g]
			}
			out[g][m].vals = vals[m][start[g]:e:e]
		}
		out[g][2].nulls = nulls[g]
	}
	return out
}

func kernExecRows(c *Ctx, x *kernExec, keys []execKey, devs []Value, aggs []execAggs) *Result {
	cols := []string{"PID", "TID", "DevId", "Count", "QCount"}
	for _, p := range []string{"T", "A", "Q", "K"} {
		cols = append(cols, p+"Avg:dur_ns", p+"Med:dur_ns", p+"Min:dur_ns", p+"Max:dur_ns", p+"StdDev:dur_ns")
	}
	res := NewResult(c.Report.Name, c.Report.Title, append(cols, "API Name", "Kernel Name")...)
	rows := make([][]Value, len(keys))
	forEachGroup(len(keys), func(g int) {
		kk, gr := keys[g], &aggs[g]
		row := make([]Value, 0, len(res.Cols))
		row = append(row, IntV(kk.pid), IntV(kk.tid), devs[kk.dev], IntV(gr[3].Count()), IntV(int64(gr[2].N())))
		for m := range gr {
			a := &gr[m]
			row = append(row, R1(a.Avg()), R1(a.Median()), a.Min(), a.Max(), R1(a.Stdev()))
		}
		rows[g] = append(row, x.api.dict[kk.api], x.names.dict[kk.ker])
	})
	for _, row := range rows {
		res.Add(row...)
	}
	n := len(res.Cols)
	sortRows(res, byKeys(0, 1, 2, n-2, n-1))
	sortRows(res, byKeys(-6))
	return res
}

// rowChunks cuts rows 0..n-1 into one chunk per core, each of at least
// minRows rows (one chunk for fewer), and returns their number and the
// bounds [lo, hi) of chunk c: the chunked groupings (groupKernGeom,
// nvtxData.groupDurations) walk them with forEachGroup.
func rowChunks(n, minRows int) (int, func(c int) (lo, hi int)) {
	chunks := max(1, min(runtime.GOMAXPROCS(0), n/minRows))
	return chunks, func(c int) (int, int) { return n * c / chunks, n * (c + 1) / chunks }
}

// forEachGroup calls fn(g) for every g < n, on as many goroutines as there
// are cores; a panic of fn (an *OverflowError) is raised again in the caller.
func forEachGroup(n int, fn func(g int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var failure any
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			defer func() {
				if e := recover(); e != nil {
					once.Do(func() { failure = e })
				}
			}()
			for g := int(next.Add(1) - 1); g < n; g = int(next.Add(1) - 1) {
				fn(g)
			}
		})
	}
	wg.Wait()
	if failure != nil {
		panic(failure)
	}
}
