package nsysx

import (
	"sort"
	"strconv"
	"strings"
	"unsafe"
)

func init() {
	register(&Report{Name: "nvtx_pushpop_trace", Title: "NVTX Push/Pop Range Trace", Aliases: []string{"nvtxpptrace"},
		Help: "Every NVTX push/pop range in start order with its duration, the time spent in and outside its child ranges, " +
			"its nesting level, parent and the stack of range ids above it.",
		run: runNVTXPushPopTrace})
}

// runNVTXPushPopTrace lists push/pop ranges with their place in each
// thread's range tree (§4.13).
func runNVTXPushPopTrace(c *Ctx) (*Result, error) {
	if r, skip := c.nvtxPrereq(); skip {
		return r, nil
	}
	if r, err := c.setupFilter(); r != nil || err != nil {
		return r, err
	}
	d, err := c.loadNVTX(nvtxSel{pushPop: true, ids: true})
	if err != nil {
		return nil, err
	}
	if d.multiDomain() {
		return nil, nvtxInternalError(c, "NVTX_PARENT")
	}
	m, mOK := d.maxPP.value()
	sp := d.spans(m, mOK)
	t := sp.tree()
	n := d.n
	childDur := make([]int64, n)
	childNum := make([]int32, n)
	for i := 0; i < n; i++ {
		if p := t.parent[i]; p >= 0 {
			childNum[p]++
			if !sp.effNull[i] {
				childDur[p] += sp.eff[i] - d.start[i]
			}
		}
	}
	// Rows: ranges reachable from a root, by start, then duration, then rowid.
	order := make([]int32, 0, n)
	for i := 0; i < n; i++ {
		if t.level[i] >= 0 {
			order = append(order, int32(i))
		}
	}
	less := func(a, b int32) bool {
		if d.start[a] != d.start[b] {
			return d.start[a] < d.start[b]
		}
		if sp.effNull[a] != sp.effNull[b] {
			return sp.effNull[a]
		}
		da, db := sp.eff[a]-d.start[a], sp.eff[b]-d.start[b]
		if da != db {
			return da < db
		}
		return d.rowid[a] < d.rowid[b]
	}
	for k := 1; k < len(order); k++ {
		if less(order[k], order[k-1]) {
			sort.Slice(order, func(i, j int) bool { return less(order[i], order[j]) })
			break
		}
	}
	stacks := rangeStacks(d, t)
	trees := map[[2]int32]Value{}
	res := NewResult(c.Report.Name, c.Report.Title, "Start:ts_ns", "End:ts_ns", "Duration:dur_ns", "DurChild:dur_ns", "DurNonChild:dur_ns",
		"Name", "PID", "TID", "Lvl", "NumChild", "RangeId", "ParentId", "RangeStack", "NameTree")
	for _, col := range res.Cols {
		col.Grow(len(order))
	}
	row := make([]Value, len(res.Cols))
	for _, i := range order {
		name, _ := d.name(int(i))
		row[0] = IntV(d.start[i])
		if sp.effNull[i] {
			row[1], row[2], row[4] = Null, Null, Null
		} else {
			dur := sp.eff[i] - d.start[i]
			row[1], row[2], row[4] = IntV(sp.eff[i]), IntV(dur), IntV(dur-childDur[i])
		}
		row[3] = IntV(childDur[i])
		row[5] = TextV(name)
		row[6], row[7] = gtidPIDTID(d, i)
		row[8] = IntV(int64(t.level[i]))
		row[9] = IntV(int64(childNum[i]))
		row[10] = IntV(d.rowid[i])
		row[11] = Null
		if p := t.parent[i]; p >= 0 {
			row[11] = IntV(d.rowid[p])
		}
		row[12] = TextV(stacks[i])
		k := [2]int32{t.level[i], d.pair[i]}
		nt, ok := trees[k]
		if !ok {
			nt = TextV(strings.Repeat("--", int(t.level[i])) + name)
			trees[k] = nt
		}
		row[13] = nt
		res.Add(row...)
	}
	return res, nil
}

// gtidPIDTID returns the PID and TID of range i (NULL without a thread).
func gtidPIDTID(d *nvtxData, i int32) (Value, Value) {
	if d.flags[i]&nvNoTid != 0 {
		return Null, Null
	}
	return IntV(gPID(d.gtid[i])), IntV(gTID(d.gtid[i]))
}

// rangeStacks builds each reachable range's RangeStack, ":" followed by the
// rowids from its root down to itself joined by ":". The strings share one
// buffer; unreachable ranges get "".
func rangeStacks(d *nvtxData, t *nvtxTree) []string {
	off := make([]int64, d.n)
	size := make([]int32, d.n)
	var buf []byte
	for _, i := range t.order {
		if t.level[i] < 0 {
			continue
		}
		o := int64(len(buf))
		if p := t.parent[i]; p >= 0 {
			buf = append(buf, buf[off[p]:off[p]+int64(size[p])]...)
		}
		buf = append(buf, ':')
		buf = strconv.AppendInt(buf, d.rowid[i], 10)
		off[i], size[i] = o, int32(int64(len(buf))-o)
	}
	out := make([]string, d.n)
	for i := range out {
		if size[i] > 0 {
			out[i] = unsafe.String(&buf[off[i]], int(size[i]))
		}
	}
	return out
}
