package stats

import (
	"cmp"
	"slices"
	"strconv"
)

// kernExecTrace lists the pairs in API start order, ties by kernel row (and
// runtime row): its cells are computed from the loaded tables as they are
// written, so that no copy of the rows is kept.
func kernExecTrace(c *Ctx, x *kernExec) *Result {
	rs, re, ks, ke, rg := x.rs.Ints, x.re.Ints, x.ks.Ints, x.ke.Ints, x.rg.Ints
	pairs := x.pairs
	byStart := func(a, b execPair) int {
		if c := cmp.Compare(rs[a.r], rs[b.r]); c != 0 {
			return c
		}
		if a.k != b.k {
			return cmp.Compare(a.k, b.k)
		}
		return cmp.Compare(a.r, b.r)
	}
	if !slices.IsSortedFunc(pairs, byStart) {
		slices.SortFunc(pairs, byStart)
	}
	res := &Result{Report: c.Report.Name, Title: c.Report.Title}
	add := func(name string, kind Kind, fn func(k, r int) Value) {
		res.Cols = append(res.Cols, ComputedCol(name, kind, len(pairs), func(i int) Value {
			p := pairs[i]
			return fn(int(p.k), int(p.r))
		}))
	}
	queued := func(k, r int) bool { return ks[k]-re[r] >= 0 }
	add("API Start:ts_ns", IntKind, func(_, r int) Value { return IntV(rs[r]) })
	add("API Dur:dur_ns", IntKind, func(_, r int) Value { return IntV(re[r] - rs[r]) })
	add("Queue Start:ts_ns", IntKind, func(k, r int) Value {
		if queued(k, r) {
			return IntV(re[r])
		}
		return Null
	})
	add("Queue Dur:dur_ns", IntKind, func(k, r int) Value {
		if queued(k, r) {
			return IntV(ks[k] - re[r])
		}
		return Null
	})
	add("Kernel Start:ts_ns", IntKind, func(k, _ int) Value { return IntV(ks[k]) })
	add("Kernel Dur:dur_ns", IntKind, func(k, _ int) Value { return IntV(ke[k] - ks[k]) })
	add("Total Dur:dur_ns", IntKind, func(k, r int) Value { return IntV(max(re[r], ke[k]) - rs[r]) })
	add("PID", IntKind, func(_, r int) Value { return IntV(gPID(rg[r])) })
	add("TID", IntKind, func(_, r int) Value { return IntV(gTID(rg[r])) })
	add("DevId", colKind(x.kd), func(k, _ int) Value { return nv(x.kd, k) })
	add("API Function", TextKind, func(_, r int) Value { return x.api.of(r) })
	t := x.k
	grid := [3]*Column{t.Col("gridX"), t.Col("gridY"), t.Col("gridZ")}
	block := [3]*Column{t.Col("blockX"), t.Col("blockY"), t.Col("blockZ")}
	add("GridXYZ", TextKind, func(k, _ int) Value { return TextV(geometry4d(grid, k)) })
	add("BlockXYZ", TextKind, func(k, _ int) Value { return TextV(geometry4d(block, k)) })
	add("Kernel Name", TextKind, func(k, _ int) Value { return x.names.at(k) })
	return res
}

// geometry4d is geometry's text (printf('%4d %4d %4d'), NULL as 0) without
// fmt: the trace makes two a row.
func geometry4d(xyz [3]*Column, i int) string {
	var b [64]byte
	out := b[:0]
	for j, c := range xyz {
		if j > 0 {
			out = append(out, ' ')
		}
		v := int64(0)
		if !c.IsNull(i) {
			v = c.Ints[i]
		}
		var n [20]byte
		d := strconv.AppendInt(n[:0], v, 10)
		for k := len(d); k < 4; k++ {
			out = append(out, ' ')
		}
		out = append(out, d...)
	}
	return string(out)
}

// colKind is the kind of a loaded column's non-NULL cells.
func colKind(c *Column) Kind {
	switch {
	case c == nil || c.Type == Int:
		return IntKind
	case c.Type == Float:
		return FloatKind
	}
	return TextKind
}
