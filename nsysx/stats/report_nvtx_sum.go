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
		durs, groups, more := d.groupDurations(m, mOK, withStyle)
		names := d.names
		*d = nvtxData{} // the ranges are not needed any more
		forEachGroup(len(more), func(k int) { x := &more[k]; x.st = statsOf(durs[x.lo:x.hi]) })
		grand := sortNVTXSum(names, groups, more)
		cols := SummaryCols("Instances")
		if withStyle {
			cols = append(cols, "Style")
		}
		return nvtxSumResult(c, names, groups, more, grand, append(cols, "Range")), nil
	}
}

// nvtxSumGroup is one nvtx_sum row: the ranges of one name (and style, when
// the report groups by style). A PyTorch capture has a name per range
// nearly, and then a group of one value: 24 bytes, its statistics taken
// from its total; a group of more values, or with NULL durations, has an
// nvtxSumMore too.
type nvtxSumGroup struct {
	total int64 // the values' sum: the one value of a group without more
	name  int32 // index into nvtxData.names
	n     int32 // values (non-NULL durations)
	more  int32 // index + 1 into the groups' nvtxSumMore; 0 for none
	style uint8 // nvStartEnd or 0
}

// nvtxSumMore is the rest of a group of several values or with NULLs:
// its values durs[lo:hi] of the groupDurations that made it, its NULL
// durations and its statistics.
type nvtxSumMore struct {
	st            groupStats
	lo, hi, nulls int32
}

// stats returns g's statistics and NULL durations.
func (g *nvtxSumGroup) stats(more []nvtxSumMore) (groupStats, int32) {
	if g.more == 0 {
		v := g.total
		return groupStats{total: v, lo: v, hi: v, med: float64(v)}, 0
	}
	x := &more[g.more-1]
	return x.st, x.nulls
}

// nvtxSumResult is the report: one row per group, in order. The cells are
// computed from the groups as they are written (ComputedCol), so that a
// report of a million groups holds 24 bytes a group rather than a row of
// Values (400). They read the names alone, so that the ranges' arrays are
// free while the rows are written.
func nvtxSumResult(c *Ctx, names []string, groups []nvtxSumGroup, more []nvtxSumMore, grand int64, cols []string) *Result {
	return nvtxGroupResult(c, cols, names, groups, func(j int) func(g *nvtxSumGroup) Value {
		if j < 8 {
			return func(g *nvtxSumGroup) Value {
				st, nulls := g.stats(more)
				return st.cell(j, int(g.n), int64(g.n)+int64(nulls), grand)
			}
		}
		return func(g *nvtxSumGroup) Value { return TextV(nvtxStyle(g.style)) }
	})
}

// nvtxGroupResult is a report of one row per group, in order, of computed
// cells: column j's cells are col(j)'s of the groups, but for the column
// named "Range", the groups' names. Every block of rows reads its names
// ahead (touchNames). A column's kind is that of its first non-NULL cell.
func nvtxGroupResult(c *Ctx, cols, names []string, groups []nvtxSumGroup, col func(j int) func(g *nvtxSumGroup) Value) *Result {
	res := NewResult(c.Report.Name, c.Report.Title)
	n := len(groups)
	for j, name := range cols {
		var fn func(i int) Value
		if name == "Range" {
			fn = func(i int) Value {
				if i%nvtxTouchRows == 0 { // the names of the next rows, ahead of their cells
					touchSink.Add(touchNames(names, groups[i:min(i+nvtxTouchRows, n)]))
				}
				return TextV(names[groups[i].name])
			}
		} else {
			cell := col(j)
			fn = func(i int) Value { return cell(&groups[i]) }
		}
		kind := NullKind
		for i := 0; i < n && kind == NullKind; i++ {
			kind = fn(i).Kind
		}
		res.Cols = append(res.Cols, ComputedCol(name, kind, n, fn))
	}
	return res
}

// sortNVTXSum sorts the groups in row order, Total descending with NULL
// (no values) last and ties in the natural order (the GROUP BY key: name,
// then style), after setting the totals of the groups with more, and
// returns the grand total of all groups. (name, style) is unique, so any
// sort gives the one order.
func sortNVTXSum(names []string, groups []nvtxSumGroup, more []nvtxSumMore) (grand int64) {
	for i := range groups {
		g := &groups[i]
		if g.more > 0 {
			g.total = more[g.more-1].st.total
		}
		grand = addInt(grand, g.total)
	}
	orderNVTXGroups(names, groups)
	return grand
}

// orderNVTXGroups sorts the groups in row order: Total descending with
// NULL (no values) last and ties by name, then style.
func orderNVTXGroups(names []string, groups []nvtxSumGroup) {
	// by total (a radix sort), then the runs of one total by name and
	// style, on every core: the names, a million of them on a PyTorch
	// capture, are compared only within a run
	sortByTotal(groups)
	byName := func(a, b nvtxSumGroup) int {
		if c := strings.Compare(names[a.name], names[b.name]); c != 0 {
			return c
		}
		return cmp.Compare(a.style, b.style) // "PushPop" < "StartEnd"
	}
	same := func(i int) bool { // groups i-1 and i have one total
		a, b := &groups[i-1], &groups[i]
		return a.total == b.total && (a.n == 0) == (b.n == 0)
	}
	// the parts, cut at starts of runs before any is sorted
	parts, bounds := rowChunks(len(groups), 1<<14)
	cut := make([]int, parts+1)
	for c := 1; c < parts; c++ {
		lo, _ := bounds(c)
		lo = max(lo, cut[c-1])
		for lo > 0 && lo < len(groups) && same(lo) {
			lo++
		}
		cut[c] = lo
	}
	cut[parts] = len(groups)
	forEachGroup(parts, func(c int) {
		for i, hi := cut[c], cut[c+1]; i < hi; {
			j := i + 1
			for j < hi && same(j) {
				j++
			}
			if j-i > 1 {
				touchSink.Add(touchNames(names, groups[i:j]))
				slices.SortFunc(groups[i:j], byName)
			}
			i = j
		}
	})
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
func (d *nvtxData) groupDurations(m int64, mOK, withStyle bool) ([]int64, []nvtxSumGroup, []nvtxSumMore) {
	np := len(d.pairName)
	// rank and pairAt: the pairs ordered by name (a counting sort), then
	// pair; nil when pair p is name p (ranges without domain names), so
	// that both are the identity
	var rank, pairAt []int32
	if !isIdentity(d.pairName) || len(d.names) != np {
		rank, pairAt = d.pairRanks()
	}
	rankOf := func(p int32) int32 {
		if rank == nil {
			return p
		}
		return rank[p]
	}
	nk := 2 * np
	key := func(i int) int {
		r, st := int(rankOf(d.pair[i])), int(d.flags[i]&nvStartEnd)
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
	var more []nvtxSumMore
	var lo, hi, gNulls int32 // the last group's values durs[lo:hi] and NULLs
	done := func() {
		g := &groups[len(groups)-1]
		if g.n = hi - lo; g.n == 1 && gNulls == 0 {
			g.total = durs[lo]
			return
		}
		more = append(more, nvtxSumMore{lo: lo, hi: hi, nulls: gNulls})
		g.more = int32(len(more))
	}
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
		nm := int32(r)
		if pairAt != nil {
			nm = d.pairName[pairAt[r]]
		}
		if n := len(groups); n > 0 && groups[n-1].name == nm && (!withStyle || groups[n-1].style == st) {
			hi = start[k+1]
			gNulls += nl
			continue
		}
		if len(groups) > 0 {
			done()
		}
		groups = append(groups, nvtxSumGroup{name: nm, style: st})
		lo, hi, gNulls = start[k], start[k+1], nl
	}
	if len(groups) > 0 {
		done()
	}
	return durs, groups, more
}

// touchNames reads the names of groups, their headers and their first and
// last bytes, one after another: the groups are in total order and their
// names in the order of the ranges, so each name is a cache miss or two,
// which overlap here rather than stall the sort's comparisons or the
// CSV writer's cells one by one (textTable.touch). It returns a value of
// the bytes only so that the reads are kept.
func touchNames(names []string, groups []nvtxSumGroup) uint32 {
	var acc uint32
	for k := range groups {
		if s := names[groups[k].name]; s != "" {
			acc += uint32(s[0]) + uint32(s[len(s)-1])
		}
	}
	return acc
}

// sortByTotal orders the groups by total, descending, the groups without
// values (a NULL total) last. It is an LSD radix sort on the bytes of the
// totals, skipping the bytes every total shares (most totals are durations
// of under a second: four or five passes of the groups), then a stable
// partition of the NULL totals; a comparison sort took three times as long
// on the 1.6 M groups of a PyTorch capture (docs/performance.md, "NVTX
// summaries: radix, prefetch"). The order of equal totals is left as it
// comes.
func sortByTotal(groups []nvtxSumGroup) {
	n := len(groups)
	if n < 1024 {
		slices.SortFunc(groups, func(a, b nvtxSumGroup) int {
			if an, bn := a.n == 0, b.n == 0; an != bn { // NULL total last
				if bn {
					return -1
				}
				return 1
			}
			return cmp.Compare(b.total, a.total)
		})
		return
	}
	// the key ascends as the total descends
	key := func(g *nvtxSumGroup) uint64 { return ^(uint64(g.total) ^ 1<<63) }
	var counts [8][256]int
	nulls := 0
	for i := range groups {
		k := key(&groups[i])
		for d := range counts {
			counts[d][byte(k>>(8*d))]++
		}
		if groups[i].n == 0 {
			nulls++
		}
	}
	tmp := make([]nvtxSumGroup, n)
	src, dst := groups, tmp
	first := key(&groups[0])
	for d := range counts {
		shift := uint(8 * d)
		c := &counts[d]
		if c[byte(first>>shift)] == n {
			continue // every total has this byte
		}
		var pos [256]int
		sum := 0
		for b := range c {
			pos[b], sum = sum, sum+c[b]
		}
		for i := range src {
			g := &src[i]
			b := byte(key(g) >> shift)
			dst[pos[b]] = *g
			pos[b]++
		}
		src, dst = dst, src
	}
	if nulls > 0 {
		k, j := 0, n-nulls
		for i := range src {
			if src[i].n == 0 {
				dst[j] = src[i]
				j++
			} else {
				dst[k] = src[i]
				k++
			}
		}
		src = dst
	}
	if &src[0] != &groups[0] {
		copy(groups, src)
	}
}

// pairRanks returns the rank of each pair ordered by name (a counting
// sort), then pair, and the pair at each rank.
func (d *nvtxData) pairRanks() (rank, pairAt []int32) {
	first := make([]int32, len(d.names)+1)
	for _, nm := range d.pairName {
		first[nm+1]++
	}
	for i := range d.names {
		first[i+1] += first[i]
	}
	rank, pairAt = make([]int32, len(d.pairName)), make([]int32, len(d.pairName))
	for p, nm := range d.pairName {
		r := first[nm]
		first[nm]++
		rank[p], pairAt[r] = r, int32(p)
	}
	return rank, pairAt
}

// isIdentity reports whether s[i] == i for every i.
func isIdentity(s []int32) bool {
	for i, v := range s {
		if v != int32(i) {
			return false
		}
	}
	return true
}
