package stats

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestProjGroups: nvtx_gpu_proj_sum's groups (name and style) and their
// cells, against a map of (name string, style) to the projected durations
// and sums written out here, in the order of the summary (total projected
// time descending, NULL last, then name and style): ranges without a
// projection are left out, projections without an end count as NULL
// durations, several pairs share a name, and many totals tie.
func TestProjGroups(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	const n, pairs, names = 20_000, 700, 400
	d := &nvtxData{n: n, start: make([]int64, n), flags: make([]uint8, n), pair: make([]int32, n),
		pairName: make([]int32, pairs), names: make([]string, names)}
	for k := range names {
		d.names[k] = fmt.Sprintf(":op%d", r.IntN(1e6)*names+k) // distinct, in no order
	}
	for p := range pairs {
		d.pairName[p] = int32(r.IntN(names))
	}
	sp := &nvtxSpans{d: d, eff: make([]int64, n)}
	tr := &nvtxTree{level: make([]int32, n)}
	proj := newProjSet(n)
	for i := range n {
		d.start[i] = r.Int64N(1e6)
		sp.eff[i] = d.start[i] + r.Int64N(1e4)
		d.pair[i] = int32(r.IntN(pairs))
		if r.IntN(3) == 0 {
			d.flags[i] |= nvStartEnd
		}
		tr.level[i] = int32(r.IntN(5) - 1) // -1: unreachable
		if r.IntN(4) == 0 {
			continue // no GPU operations
		}
		o := callOps{start: r.Int64N(1e6), hasEnd: r.IntN(10) != 0}
		o.end = o.start + r.Int64N(4)*1000 // few values: tied totals
		p := proj.add(int32(i), o)
		p.ops, p.child = int32(1+r.IntN(3)), int32(r.IntN(3))
	}
	type key struct {
		name  string
		style string
	}
	type want struct {
		key
		durs                         []int64
		nulls, rangeTime, ops, child int64
		lvlSum, lvlN, instances      int64
	}
	byKey := map[key]*want{}
	for i := range n {
		p := proj.get(int32(i))
		if p == nil {
			continue
		}
		k := key{d.name(i), nvtxStyle(d.flags[i])}
		w := byKey[k]
		if w == nil {
			w = &want{key: k}
			byKey[k] = w
		}
		if p.hasEnd() {
			w.durs = append(w.durs, p.end-p.start)
		} else {
			w.nulls++
		}
		w.rangeTime += sp.eff[i] - d.start[i]
		w.ops += int64(p.ops)
		w.child += int64(p.child)
		if tr.level[i] >= 0 {
			w.lvlSum += int64(tr.level[i])
			w.lvlN++
		}
		w.instances++
	}
	var wants []*want
	for _, w := range byKey {
		wants = append(wants, w)
	}
	sum := func(v []int64) (s int64) {
		for _, x := range v {
			s += x
		}
		return s
	}
	slices.SortFunc(wants, func(a, b *want) int {
		if an, bn := len(a.durs) == 0, len(b.durs) == 0; an != bn {
			if an {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(sum(b.durs), sum(a.durs)), strings.Compare(a.name, b.name), strings.Compare(a.style, b.style))
	})
	groups, sums := projGroups(d, sp, tr, proj)
	if len(groups) != len(wants) {
		t.Fatalf("%d groups, want %d", len(groups), len(wants))
	}
	for i, w := range wants {
		g, x := &groups[i], &sums[groups[i].more-1]
		if d.names[g.name] != w.name || nvtxStyle(g.style) != w.style {
			t.Fatalf("row %d is %s %s, want %s %s", i, d.names[g.name], nvtxStyle(g.style), w.name, w.style)
		}
		if int(g.n) != len(w.durs) || int64(x.nulls) != w.nulls || g.total != sum(w.durs) {
			t.Fatalf("row %d (%s): %d values, %d NULLs, total %d; want %d, %d, %d", i, w.name, g.n, x.nulls, g.total, len(w.durs), w.nulls, sum(w.durs))
		}
		if len(w.durs) > 0 {
			sorted := slices.Sorted(slices.Values(w.durs))
			med := float64(sorted[len(sorted)/2])
			if len(sorted)%2 == 0 {
				med = (float64(sorted[len(sorted)/2-1]) + med) / 2
			}
			var mean, m2 float64
			for k, v := range w.durs { // Welford's, in range order
				dx := float64(v) - mean
				mean += dx / float64(k+1)
				m2 += dx * (float64(v) - mean)
			}
			sd := 0.0
			if len(w.durs) > 1 {
				sd = math.Sqrt(m2 / float64(len(w.durs)-1))
			}
			if x.st.lo != sorted[0] || x.st.hi != sorted[len(sorted)-1] || x.st.med != med || x.st.sd != sd {
				t.Fatalf("row %d (%s): min %d max %d med %v sd %v; want %d %d %v %v", i, w.name,
					x.st.lo, x.st.hi, x.st.med, x.st.sd, sorted[0], sorted[len(sorted)-1], med, sd)
			}
		}
		if x.rangeTime != w.rangeTime || x.ops != w.ops || x.childSum != w.child || x.lvlSum != w.lvlSum ||
			x.lvlN != w.lvlN || x.instances != w.instances {
			t.Fatalf("row %d (%s): sums %+v, want %+v", i, w.name, *x, *w)
		}
	}
}
