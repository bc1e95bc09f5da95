package nsysx

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
// devices (by their index in execKey.dev).
func (x *kernExec) groupIDs() ([]int32, []execKey, []Value) {
	gids := make([]int32, len(x.pairs))
	threads := map[int64]int32{} // PID and TID bits of globalTid -> thread index
	groups := map[[4]int32]int32{}
	var keys []execKey
	var devs []Value
	lastDev := int32(-1)
	for i, p := range x.pairs {
		g := x.rg.Ints[p.r] & (1<<48 - 1)
		t, ok := threads[g]
		if !ok {
			t = int32(len(threads))
			threads[g] = t
		}
		if v := nv(x.kd, int(p.k)); lastDev < 0 || devs[lastDev] != v {
			lastDev = devIndex(&devs, v)
		}
		kk := [4]int32{t, lastDev, x.api.id(int(p.r)), x.names.ids[p.k]}
		gid, ok := groups[kk]
		if !ok {
			gid = int32(len(keys))
			groups[kk] = gid
			keys = append(keys, execKey{pid: gPID(g), tid: gTID(g), dev: kk[1], api: kk[2], ker: kk[3]})
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
