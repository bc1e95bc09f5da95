package nsysx

import (
	"slices"
	"strings"
)

func init() {
	register(&Report{Name: "nvtx_sum", Title: "NVTX Range Summary", Aliases: []string{"nvtxsum"},
		Help: "NVTX push/pop and start/end ranges grouped by name and style: share of total range time, instances and duration statistics. " +
			"Ranges nest, so the shares add up range time, not wall time.",
		run: runNVTXSum(true, true, true)})
	register(&Report{Name: "nvtx_pushpop_sum", Title: "NVTX Push/Pop Range Summary", Aliases: []string{"nvtxppsum"},
		Help: "NVTX push/pop ranges grouped by name: share of total push/pop range time, instances and duration statistics.",
		run:  runNVTXSum(true, false, false)})
	register(&Report{Name: "nvtx_startend_sum", Title: "NVTX Start/End Range Summary", Aliases: []string{"nvtxsesum", "nvtxsssum"},
		Help: "NVTX start/end ranges grouped by name: share of total start/end range time, instances and duration statistics.",
		run:  runNVTXSum(false, true, false)})
}

// runNVTXSum summarises the ranges of the selected styles by name (and style
// when withStyle). Every thread counts, cross-thread start/end ranges
// included; an unclosed range lasts until the latest timestamp of any
// NVTX_EVENTS row (docs/stats.md §4.12).
func runNVTXSum(pushPop, startEnd, withStyle bool) func(c *Ctx) (*Result, error) {
	return func(c *Ctx) (*Result, error) {
		if r, skip := c.nvtxPrereq(); skip {
			return r, nil
		}
		if r, err := c.setupFilter(); r != nil || err != nil {
			return r, err
		}
		d, err := c.loadNVTX(nvtxSel{pushPop: pushPop, startEnd: startEnd})
		if err != nil {
			return nil, err
		}
		m, mOK := d.maxAll.value()
		finals := mergeNVTXGroups(d, d.groupDurations(m, mOK), withStyle)
		order, grand := nvtxSumOrder(finals)
		cols := SummaryCols("Instances")
		if withStyle {
			cols = append(cols, "Style")
		}
		res := NewResult(c.Report.Name, c.Report.Title, append(cols, "Range")...)
		rows := make([][]Value, len(order)) // tens of thousands of groups on a PyTorch capture: on every core
		forEachGroup(len(order), func(k int) { rows[k] = finals[order[k]].agg.Summary(grand) })
		for k, i := range order {
			f := finals[i]
			row := rows[k]
			if withStyle {
				row = append(row, TextV(f.style))
			}
			res.Add(append(row, TextV(f.name))...)
		}
		return res, nil
	}
}

// nvtxSumGroup is one nvtx_sum row being accumulated: the durations of every
// range with that name (and style, when the report groups by style).
type nvtxSumGroup struct {
	name, style string
	agg         Agg
}

// mergeNVTXGroups merges the (pair, style) duration groups into one group per
// display name (and style when withStyle), in first-seen order.
func mergeNVTXGroups(d *nvtxData, groups []*Agg, withStyle bool) []*nvtxSumGroup {
	byKey := map[[2]string]*nvtxSumGroup{}
	var finals []*nvtxSumGroup
	for gid, g := range groups {
		if g.Count() == 0 {
			continue
		}
		style := nvtxStyle(uint8(gid & 1))
		for _, name := range d.pairNames[gid>>1] {
			k := [2]string{name, ""}
			if withStyle {
				k[1] = style
			}
			f := byKey[k]
			if f == nil {
				f = &nvtxSumGroup{name: name, style: style}
				byKey[k] = f
				finals = append(finals, f)
			}
			if f.agg.Count() == 0 {
				f.agg = *g
			} else {
				f.agg.vals = append(append([]int64(nil), f.agg.vals...), g.vals...)
				f.agg.nulls += g.nulls
			}
		}
	}
	return finals
}

// nvtxSumOrder returns the row order of finals, Total descending with NULL
// last and ties in the natural order (the GROUP BY key: name, then style),
// and the grand total of all groups. One sort on the whole key: (name,
// style) is unique, so any sort gives the one order.
func nvtxSumOrder(finals []*nvtxSumGroup) (order []int, grand int64) {
	totals := make([]Value, len(finals))
	for i, f := range finals {
		if totals[i] = f.agg.Sum(); totals[i].Kind == IntKind {
			grand = addInt(grand, totals[i].I)
		}
	}
	order = make([]int, len(finals))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := Compare(totals[b], totals[a]); c != 0 {
			return c
		}
		if c := strings.Compare(finals[a].name, finals[b].name); c != 0 {
			return c
		}
		return strings.Compare(finals[a].style, finals[b].style)
	})
	return order, grand
}

// groupDurations returns the durations of the ranges grouped by (pair,
// style): group pair*2+styleBit. An unclosed range lasts until m, or has a
// NULL duration when !mOK.
//
// It is a counting sort over the ranges cut into one chunk per core: each
// chunk counts its ranges per group, the counts give every chunk its place
// in each group (after the earlier chunks'), and each chunk then writes its
// durations there, so that a group's values keep the ranges' order.
func (d *nvtxData) groupDurations(m int64, mOK bool) []*Agg {
	ng := 2 * len(d.pairNames)
	chunks, bounds := rowChunks(d.n, 1<<16)
	gid := func(i int) int { return int(d.pair[i])*2 + int(d.flags[i]&nvStartEnd) }
	null := func(i int) bool { return !mOK && d.flags[i]&nvOpen != 0 }
	counts := make([][]int32, chunks) // per chunk: its values per group
	nulls := make([][]int32, chunks)
	forEachGroup(chunks, func(c int) {
		cnt, nl := make([]int32, ng), make([]int32, ng)
		lo, hi := bounds(c)
		for i := lo; i < hi; i++ {
			if null(i) {
				nl[gid(i)]++
			} else {
				cnt[gid(i)]++
			}
		}
		counts[c], nulls[c] = cnt, nl
	})
	// counts[c][g] becomes chunk c's first position in group g; start[g]
	// is group g's first position, start[ng] the number of values
	start := make([]int32, ng+1)
	for g := 0; g < ng; g++ {
		next := start[g]
		for c := range chunks {
			n := counts[c][g]
			counts[c][g] = next
			next += n
		}
		start[g+1] = next
	}
	durs := make([]int64, start[ng])
	forEachGroup(chunks, func(c int) {
		pos := counts[c]
		lo, hi := bounds(c)
		for i := lo; i < hi; i++ {
			if null(i) {
				continue
			}
			g := gid(i)
			e := d.end[i]
			if d.flags[i]&nvOpen != 0 {
				e = m
			}
			durs[pos[g]] = subInt(e, d.start[i])
			pos[g]++
		}
	})
	aggs := make([]Agg, ng)
	out := make([]*Agg, ng)
	for g := range out {
		n := 0
		for c := range chunks {
			n += int(nulls[c][g])
		}
		aggs[g] = Agg{vals: durs[start[g]:start[g+1]:start[g+1]], nulls: n}
		out[g] = &aggs[g]
	}
	return out
}
