package stats

import (
	"cmp"
	"slices"
	"strings"
)

func init() {
	register(&Report{Name: "nvtx_sum", Title: "NVTX Range Summary", Aliases: []string{"nvtxsum"},
		Help: "NVTX push/pop and start/end ranges grouped by name and style: share of total range time, instances and duration statistics. " +
			"Ranges nest, so the shares add up range time, not wall time.",
		Run: runNVTXSum(true, true, true)})
	register(&Report{Name: "nvtx_pushpop_sum", Title: "NVTX Push/Pop Range Summary", Aliases: []string{"nvtxppsum"},
		Help: "NVTX push/pop ranges grouped by name: share of total push/pop range time, instances and duration statistics.",
		Run:  runNVTXSum(true, false, false)})
	register(&Report{Name: "nvtx_startend_sum", Title: "NVTX Start/End Range Summary", Aliases: []string{"nvtxsesum", "nvtxsssum"},
		Help: "NVTX start/end ranges grouped by name: share of total start/end range time, instances and duration statistics.",
		Run:  runNVTXSum(false, true, false)})
}

// runNVTXSum summarises the ranges of the selected styles by name (and style
// when withStyle). Every thread counts, cross-thread start/end ranges
// included; an unclosed range lasts until the latest timestamp of any
// NVTX_EVENTS row (docs/stats.md §4.12).
func runNVTXSum(pushPop, startEnd, withStyle bool) func(c *Ctx) (*Result, error) {
	return func(c *Ctx) (*Result, error) {
		if r, skip := nvtxPrereq(c); skip {
			return r, nil
		}
		if r, err := c.SetupFilter(); r != nil || err != nil {
			return r, err
		}
		d, err := loadNVTX(c, nvtxSel{pushPop: pushPop, startEnd: startEnd})
		if err != nil {
			return nil, err
		}
		m, mOK := d.maxAll.value()
		durs, groups := d.groupDurations(m, mOK, withStyle)
		forEachGroup(len(groups), func(k int) { g := &groups[k]; g.st = statsOf(durs[g.lo:g.hi]) })
		order, grand := nvtxSumOrder(d, groups)
		cols := SummaryCols("Instances")
		if withStyle {
			cols = append(cols, "Style")
		}
		return nvtxSumResult(c, d.names, groups, order, grand, append(cols, "Range")), nil
	}
}

// nvtxSumGroup is one nvtx_sum row: the ranges of one name (and style, when
// the report groups by style), their durations durs[lo:hi] of the
// groupDurations that made it, and their NULL durations.
type nvtxSumGroup struct {
	name          int32 // index into nvtxData.names
	style         uint8 // nvStartEnd or 0
	lo, hi, nulls int32
	st            groupStats
}

// nvtxSumResult is the report: one row per group, in order. The cells are
// computed from the groups as they are written (ComputedCol), so that a
// report of a million groups holds 60 bytes a group rather than a row of
// Values (400). They read the names alone, so that the ranges' arrays are
// free while the rows are written.
func nvtxSumResult(c *Ctx, names []string, groups []nvtxSumGroup, order []int32, grand int64, cols []string) *Result {
	res := NewResult(c.Report.Name, c.Report.Title)
	n := len(order)
	at := func(i int) *nvtxSumGroup { return &groups[order[i]] }
	for j, col := range cols {
		var fn func(i int) Value
		switch {
		case j < 8:
			fn = func(i int) Value {
				g := at(i)
				v := int(g.hi - g.lo)
				return g.st.cell(j, v, int64(v)+int64(g.nulls), grand)
			}
		case col == "Style":
			fn = func(i int) Value { return TextV(nvtxStyle(at(i).style)) }
		default:
			fn = func(i int) Value { return TextV(names[at(i).name]) }
		}
		// the kind a stored column takes: its first non-NULL cell's
		kind := NullKind
		for i := 0; i < n && kind == NullKind; i++ {
			kind = fn(i).Kind
		}
		res.Cols = append(res.Cols, ComputedCol(col, kind, n, fn))
	}
	return res
}

// nvtxSumOrder returns the row order of groups, Total descending with NULL
// last and ties in the natural order (the GROUP BY key: name, then style),
// and the grand total of all groups. One sort on the whole key: (name,
// style) is unique, so any sort gives the one order.
func nvtxSumOrder(d *nvtxData, groups []nvtxSumGroup) (order []int32, grand int64) {
	// the totals sorted with their groups' indexes: the comparisons read
	// the groups only on a tie
	type key struct {
		total int64
		g     int32
		null  bool
	}
	keys := make([]key, len(groups))
	for i := range groups {
		g := &groups[i]
		keys[i] = key{g.st.total, int32(i), g.hi == g.lo}
		grand = addInt(grand, g.st.total)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.null != b.null { // NULL total last
			if b.null {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.total, a.total); c != 0 {
			return c
		}
		ga, gb := &groups[a.g], &groups[b.g]
		if c := strings.Compare(d.names[ga.name], d.names[gb.name]); c != 0 {
			return c
		}
		return cmp.Compare(ga.style, gb.style) // "PushPop" < "StartEnd"
	})
	order = make([]int32, len(keys))
	for i, k := range keys {
		order[i] = k.g
	}
	return order, grand
}

// groupDurations returns the durations of the ranges grouped by name and,
// when withStyle, style: each group's values durs[lo:hi] hold its ranges'
// durations in the order nsys's GROUP BY meets them, which the standard
// deviation's last bits depend on (docs/stats.md §2.2): ranges of one
// (domain, text) pair in range order, the pairs of one name in pair order
// (and, without withStyle, each pair's push/pop ranges before its
// start/end ones). An unclosed range lasts until m, or has a NULL duration
// when !mOK.
//
// It is a counting sort on a key that orders the ranges so: (style, rank)
// or (rank, style), where rank orders the pairs by name, then pair. The
// ranges are cut into chunks (one per core): each chunk counts its ranges
// per key, the counts give every chunk its place in each key (after the
// earlier chunks'), and each chunk then writes its durations there. A
// chunk's counts are an array over the keys, so there are no more chunks
// than the ranges can fill: a PyTorch capture has nearly a name per range,
// and then one chunk.
func (d *nvtxData) groupDurations(m int64, mOK, withStyle bool) ([]int64, []nvtxSumGroup) {
	np := len(d.pairName)
	// rank and pairAt: the pairs ordered by name (a counting sort), then pair
	first := make([]int32, len(d.names)+1)
	for _, nm := range d.pairName {
		first[nm+1]++
	}
	for i := range d.names {
		first[i+1] += first[i]
	}
	rank, pairAt := make([]int32, np), make([]int32, np)
	for p, nm := range d.pairName {
		r := first[nm]
		first[nm]++
		rank[p], pairAt[r] = r, int32(p)
	}
	nk := 2 * np
	key := func(i int) int {
		r, st := int(rank[d.pair[i]]), int(d.flags[i]&nvStartEnd)
		if withStyle {
			return st*np + r
		}
		return r*2 + st
	}
	null := func(i int) bool { return !mOK && d.flags[i]&nvOpen != 0 }
	anyNull := !mOK && slices.ContainsFunc(d.flags, func(f uint8) bool { return f&nvOpen != 0 })
	chunks, bounds := rowChunks(d.n, max(1<<16, nk))
	counts := make([][]int32, chunks) // per chunk: its values per key
	nulls := make([][]int32, chunks)  // per chunk: its NULLs per key, when any
	forEachGroup(chunks, func(c int) {
		cnt := make([]int32, nk)
		var nl []int32
		if anyNull {
			nl = make([]int32, nk)
		}
		lo, hi := bounds(c)
		for i := lo; i < hi; i++ {
			if null(i) {
				nl[key(i)]++
			} else {
				cnt[key(i)]++
			}
		}
		counts[c], nulls[c] = cnt, nl
	})
	// counts[c][k] becomes chunk c's first position in key k; start[k]
	// is key k's first position, start[nk] the number of values
	start := make([]int32, nk+1)
	for k := range nk {
		next := start[k]
		for c := range chunks {
			n := counts[c][k]
			counts[c][k] = next
			next += n
		}
		start[k+1] = next
	}
	durs := make([]int64, start[nk])
	forEachGroup(chunks, func(c int) {
		pos := counts[c]
		lo, hi := bounds(c)
		for i := lo; i < hi; i++ {
			if null(i) {
				continue
			}
			k := key(i)
			e := d.end[i]
			if d.flags[i]&nvOpen != 0 {
				e = m
			}
			durs[pos[k]] = subInt(e, d.start[i])
			pos[k]++
		}
	})
	// the groups: runs of keys of one name (and style)
	groups := make([]nvtxSumGroup, 0, len(d.names))
	for k := range nk {
		var nl int32
		for c := range chunks {
			if nulls[c] != nil {
				nl += nulls[c][k]
			}
		}
		if start[k+1] == start[k] && nl == 0 {
			continue
		}
		r, st := k/2, uint8(k%2)
		if withStyle {
			r, st = k%np, uint8(k/np)
		}
		nm := d.pairName[pairAt[r]]
		if n := len(groups); n > 0 && groups[n-1].name == nm && (!withStyle || groups[n-1].style == st) {
			groups[n-1].hi = start[k+1]
			groups[n-1].nulls += nl
			continue
		}
		groups = append(groups, nvtxSumGroup{name: nm, style: st, lo: start[k], hi: start[k+1], nulls: nl})
	}
	return durs, groups
}
