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

// nvtxSumOrder sorts finals into the natural order (the GROUP BY key) and
// returns the row order, Total descending with NULL last, and the grand total
// of all groups.
func nvtxSumOrder(finals []*nvtxSumGroup) (order []int, grand int64) {
	slices.SortFunc(finals, func(a, b *nvtxSumGroup) int { // (name, style) is unique: any sort gives one order
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return strings.Compare(a.style, b.style)
	})
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
	slices.SortFunc(order, func(a, b int) int { // stable: ties in the natural order
		if c := Compare(totals[b], totals[a]); c != 0 {
			return c
		}
		return a - b
	})
	return order, grand
}

// groupDurations returns the durations of the ranges grouped by (pair,
// style): group pair*2+styleBit. An unclosed range lasts until m, or has a
// NULL duration when !mOK.
func (d *nvtxData) groupDurations(m int64, mOK bool) []*Agg {
	ng := 2 * len(d.pairNames)
	counts := make([]int32, ng+1)
	gid := func(i int) int { return int(d.pair[i])*2 + int(d.flags[i]&nvStartEnd) }
	for i := 0; i < d.n; i++ {
		counts[gid(i)+1]++
	}
	for g := 0; g < ng; g++ {
		counts[g+1] += counts[g]
	}
	durs := make([]int64, d.n)
	pos := append([]int32(nil), counts[:ng]...)
	nulls := make([]int, ng)
	for i := 0; i < d.n; i++ {
		g := gid(i)
		e := d.end[i]
		if d.flags[i]&nvOpen != 0 {
			if !mOK {
				nulls[g]++
				continue
			}
			e = m
		}
		durs[pos[g]] = subInt(e, d.start[i])
		pos[g]++
	}
	out := make([]*Agg, ng)
	for g := 0; g < ng; g++ {
		out[g] = &Agg{vals: durs[counts[g]:pos[g]:pos[g]], nulls: nulls[g]}
	}
	return out
}
