package frame

import (
	"container/heap"
	"encoding/binary"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/nsysx/nsysx/nsysx/internal/order"
)

// Round is numpy's round(x, 1): round-half-even of x·10, divided by 10
// (docs/recipes.md §1.7). It is not decimal rounding: Round(0.15) is 0.1.
func Round(x float64) float64 { return math.RoundToEven(x*10) / 10 }

// RoundFrame rounds every Float64 column of f in place.
func RoundFrame(f *Frame) {
	for _, c := range f.Cols {
		if c.Type == Float64 {
			for i, v := range c.FloatVals {
				c.FloatVals[i] = Round(v)
			}
		}
	}
}

// TitleCase is Python's str.title, which names a describe index after its
// grouping column: name → Name, text → Text, shortName → Shortname.
func TitleCase(s string) string {
	out := []rune(s)
	prevCased := false
	for i, r := range out {
		cased := unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
		if cased {
			if prevCased {
				out[i] = unicode.ToLower(r)
			} else {
				out[i] = unicode.ToTitle(r)
			}
		}
		prevCased = cased
	}
	return string(out)
}

// StatNames are the columns Describe writes before the index.
var StatNames = []string{"Count", "Mean", "Std", "Min", "Q1", "Median", "Q3", "Max", "Sum"}

// StatColumns makes the statistics columns names (StatNames or AggNames)
// of n rows, with room for more columns after them: Count is Int64, Min,
// Max and Sum of the kind valueKind gives for the name, the others
// Float64.
func StatColumns(names []string, n int, valueKind func(name string) Type, more int) []*Column {
	cols := make([]*Column, 0, len(names)+more)
	for _, name := range names {
		k := Float64
		switch name {
		case "Count":
			k = Int64
		case "Min", "Max", "Sum":
			k = valueKind(name)
		}
		cols = append(cols, NewColumn(name, k, n))
	}
	return cols
}

// Describe is nsys's per-rank statistics (docs/recipes.md §1.7): vals
// grouped by the key columns, one row per key, keys ascending (strings in
// code-point order, numbers numerically), rows with a NULL key or value
// left out. Columns: Count (int64); Mean (Kahan sum in row order / Count);
// Std (Welford in row order, n−1; NULL below two values); Min; Q1, Median,
// Q3 (linear interpolation); Max; Sum (exact for integers, compensated for
// floats); then the keys as a NamedIndex, named as the key columns are.
// Min, Max and Sum keep vals' kind; every float is rounded with Round.
// vals is Int64, Uint64, Uint32 or Float64; keys are String or integer
// kinds.
func Describe(keys []*Column, vals *Column) *Frame {
	order, starts := GroupRows(keys, vals)
	firsts := make([]int, len(starts)-1)
	for g := range firsts {
		firsts[g] = order[starts[g]]
	}
	index := make([]*Column, len(keys))
	for k, key := range keys {
		index[k] = key.Pick(firsts)
	}
	return DescribeGrouped(vals, order, starts, index)
}

// DescribeGrouped is Describe of vals' rows already grouped, in key order:
// group g is rows order[starts[g]:starts[g+1]], in row order, and row g of
// the index columns holds its key. A nil order is the rows in order
// (group g is rows starts[g] to starts[g+1]−1).
func DescribeGrouped(vals *Column, order, starts []int, index []*Column) *Frame {
	ng := len(starts) - 1
	cols := StatColumns(StatNames, ng, func(string) Type { return vals.Type }, len(index))
	most := 0
	for g := 0; g < ng; g++ {
		most = max(most, starts[g+1]-starts[g])
	}
	scratch := make([]float64, 0, most)
	var seq []int // a group's rows when order is nil
	if order == nil {
		seq = make([]int, 0, most)
	}
	for g := 0; g < ng; g++ {
		var rows []int
		if order != nil {
			rows = order[starts[g]:starts[g+1]]
		} else {
			seq = seq[:0]
			for i := starts[g]; i < starts[g+1]; i++ {
				seq = append(seq, i)
			}
			rows = seq
		}
		scratch = describeGroup(cols, g, vals, rows, scratch)
	}
	idx := make([]string, len(index))
	for k, key := range index {
		cols = append(cols, key)
		idx[k] = key.Name
	}
	f := &Frame{Cols: cols, Index: NamedIndex, IndexCols: idx}
	RoundFrame(f)
	return f
}

// describeGroup fills row g of the stat columns from vals' rows.
func describeGroup(cols []*Column, g int, vals *Column, rows []int, scratch []float64) []float64 {
	n := len(rows)
	var sum, comp, mean, m2 float64
	scratch = scratch[:0]
	for k, i := range rows {
		v := vals.Float(i)
		y := v - comp
		t := sum + y
		comp = t - sum - y
		if math.IsNaN(comp) {
			comp = 0
		}
		sum = t
		old := mean
		mean += (v - old) / float64(k+1)
		m2 += (v - mean) * (v - old)
		scratch = append(scratch, v)
	}
	cols[0].IntVals[g] = int64(n)
	cols[1].FloatVals[g] = sum / float64(n)
	if n >= 2 {
		cols[2].FloatVals[g] = math.Sqrt(m2 / float64(n-1))
	} else {
		cols[2].SetNull(g)
	}
	for c, q := range Quartiles(scratch) {
		cols[4+c].FloatVals[g] = q
	}
	lo, hi, total := MinMaxSum(vals, rows)
	cols[3].Set(g, lo)
	cols[7].Set(g, hi)
	cols[8].Set(g, total)
	return scratch
}

// Quartiles returns the linear Q1, median and Q3 of v (reordering v): by
// selection, which is what sorting v first would give; with a NaN, by
// sorting (NaN first, as sort.Float64s puts it).
func Quartiles(v []float64) [3]float64 {
	var out [3]float64
	if slices.ContainsFunc(v, math.IsNaN) {
		sort.Float64s(v)
		for c, q := range []float64{0.25, 0.5, 0.75} {
			out[c] = Quantile(v, q)
		}
		return out
	}
	from := 0 // v[:from] holds the smallest values, in place
	for c, q := range []float64{0.25, 0.5, 0.75} {
		h := q * float64(len(v)-1)
		i := int(math.Floor(h))
		order.Nth(v[from:], i-from) // v[from:] holds the rest
		from = i
		lo := v[i]
		if f := h - float64(i); f != 0 {
			out[c] = lo + (slices.Min(v[i+1:])-lo)*f
		} else {
			out[c] = lo
		}
	}
	return out
}

// Quantile is the linear quantile of sorted v.
func Quantile(v []float64, q float64) float64 {
	h := q * float64(len(v)-1)
	i := math.Floor(h)
	f := h - i
	lo := v[int(i)]
	if f == 0 {
		return lo
	}
	return lo + (v[int(i)+1]-lo)*f
}

// Num is one value of an integer or float column: I for the integer
// kinds, F for Float64 (what MinMaxSum returns and Column.Set stores).
type Num struct {
	I int64
	F float64
}

// MinMaxSum returns the extremes and the sum of vals' rows in vals' kind:
// integers exactly (uint64 compared unsigned; a sum past 64 bits panics
// with an *nsysx.OverflowError, checked.go), floats with a compensated
// sum.
func MinMaxSum(vals *Column, rows []int) (lo, hi, sum Num) {
	switch vals.Type {
	case Float64:
		lo.F, hi.F = math.Inf(1), math.Inf(-1)
		var comp float64
		for _, i := range rows {
			v := vals.FloatVals[i]
			lo.F, hi.F = math.Min(lo.F, v), math.Max(hi.F, v)
			y := v - comp
			t := sum.F + y
			comp = t - sum.F - y
			sum.F = t
		}
	case Uint64:
		lo.I, hi.I = -1, 0
		for _, i := range rows {
			v := vals.IntVals[i]
			if uint64(v) < uint64(lo.I) {
				lo.I = v
			}
			if uint64(v) > uint64(hi.I) {
				hi.I = v
			}
			sum.I = addUint(sum.I, v)
		}
	default:
		lo.I, hi.I = math.MaxInt64, math.MinInt64
		for _, i := range rows {
			v := vals.IntVals[i]
			lo.I, hi.I = min(lo.I, v), max(hi.I, v)
			sum.I = AddInt(sum.I, v)
		}
	}
	return lo, hi, sum
}

// GroupRows assigns the rows with non-NULL keys and value to groups and
// returns them grouped: order[starts[g]:starts[g+1]] are group g's rows in
// row order, groups sorted by key.
func GroupRows(keys []*Column, vals *Column) (order, starts []int) {
	n := vals.Len()
	if len(keys) == 1 && keys[0].Type == String && keys[0].Valid == nil && vals.Type != AllNull && vals.Valid == nil {
		if runs := increasingRuns(keys[0].Strs); runs != nil {
			return mergeRuns(keys[0].Strs, runs)
		}
	}
	gid := make([]int32, n)
	var firsts []int
	single := len(keys) == 1 && keys[0].Type == String
	byStr := map[string]int32{}
	var buf []byte
	for i := 0; i < n; i++ {
		gid[i] = -1
		if vals.IsNull(i) || anyNull(keys, i) {
			continue
		}
		var g int32
		var ok bool
		if single {
			g, ok = byStr[keys[0].Strs[i]]
		} else {
			buf = encodeKey(buf[:0], keys, i)
			g, ok = byStr[string(buf)] // no copy for the lookup
		}
		if !ok {
			g = int32(len(firsts))
			if single {
				byStr[keys[0].Strs[i]] = g
			} else {
				byStr[string(buf)] = g
			}
			firsts = append(firsts, i)
		}
		gid[i] = g
	}
	var rank []int
	if single {
		rank = rankStrings(keys[0].Strs, firsts)
	} else {
		rank = make([]int, len(firsts))
		byKey := Seq(len(firsts))
		sort.Slice(byKey, func(a, b int) bool { return compareKeys(keys, firsts[byKey[a]], firsts[byKey[b]]) < 0 })
		for r, g := range byKey {
			rank[g] = r
		}
	}
	starts = make([]int, len(firsts)+1)
	for _, g := range gid {
		if g >= 0 {
			starts[rank[g]+1]++
		}
	}
	for g := 1; g < len(starts); g++ {
		starts[g] += starts[g-1]
	}
	order = make([]int, starts[len(firsts)])
	fill := append([]int(nil), starts[:len(firsts)]...)
	for i, g := range gid {
		if g >= 0 {
			r := rank[g]
			order[fill[r]] = i
			fill[r]++
		}
	}
	return order, starts
}

// increasingRuns returns where each run of strictly increasing strings
// begins (and len(strs) last) when there are few runs, nil otherwise. The
// concatenated describe frames of the ranks (all_stats) are such runs, one
// per rank: each frame's rows are its groups, sorted.
func increasingRuns(strs []string) []int {
	runs := []int{0}
	for i := 1; i < len(strs); i++ {
		if strs[i] <= strs[i-1] {
			if runs = append(runs, i); len(runs) > 1024 {
				return nil
			}
		}
	}
	return append(runs, len(strs))
}

// mergeRuns is GroupRows over keys in increasing runs (increasingRuns):
// a merge of the runs, by key and then run, so that a key's rows come in
// row order, with no map of the keys. A heap of the runs' heads holds the
// merge's state.
func mergeRuns(strs []string, runs []int) (order, starts []int) {
	order = make([]int, 0, len(strs))
	starts = make([]int, 0, len(strs)+1)
	h := runHeap{strs: strs}
	for r := 0; r+1 < len(runs); r++ {
		if runs[r] < runs[r+1] {
			h.at = append(h.at, runs[r])
			h.end = append(h.end, runs[r+1])
		}
	}
	heap.Init(&h)
	for h.Len() > 0 {
		i := h.at[0]
		if len(order) == 0 || strs[i] != strs[order[len(order)-1]] {
			starts = append(starts, len(order))
		}
		order = append(order, i)
		if h.at[0]++; h.at[0] < h.end[0] {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return order, append(starts, len(order))
}

// runHeap orders the runs' next rows by key, then row (the earlier run
// first: no key repeats within a run).
type runHeap struct {
	strs    []string
	at, end []int
}

func (h *runHeap) Len() int { return len(h.at) }
func (h *runHeap) Less(a, b int) bool {
	if c := strings.Compare(h.strs[h.at[a]], h.strs[h.at[b]]); c != 0 {
		return c < 0
	}
	return h.at[a] < h.at[b]
}
func (h *runHeap) Swap(a, b int) {
	h.at[a], h.at[b] = h.at[b], h.at[a]
	h.end[a], h.end[b] = h.end[b], h.end[a]
}
func (h *runHeap) Push(any) {}
func (h *runHeap) Pop() any {
	n := len(h.at) - 1
	h.at, h.end = h.at[:n], h.end[:n]
	return nil
}

// rankStrings is the rank of every group (first row firsts[g] of strs) in
// the order of the groups' strings, which are distinct. The (string, group)
// pairs are sorted in one slice with one three-way comparison per step: on a
// PyTorch capture, where nearly every NVTX range has a text of its own, the
// sort of a million row indices by two string comparisons through the key
// columns was most of a summary's map.
func rankStrings(strs []string, firsts []int) []int {
	type keyGroup struct {
		s string
		g int32
	}
	kg := make([]keyGroup, len(firsts))
	for g, i := range firsts {
		kg[g] = keyGroup{strs[i], int32(g)}
	}
	slices.SortFunc(kg, func(a, b keyGroup) int { return strings.Compare(a.s, b.s) })
	rank := make([]int, len(firsts))
	for r, x := range kg {
		rank[x.g] = r
	}
	return rank
}

func anyNull(keys []*Column, i int) bool {
	for _, k := range keys {
		if k.IsNull(i) {
			return true
		}
	}
	return false
}

// encodeKey appends row i's key values, length-prefixed, to b.
func encodeKey(b []byte, keys []*Column, i int) []byte {
	for _, k := range keys {
		if k.Type == String {
			b = binary.AppendUvarint(b, uint64(len(k.Strs[i])))
			b = append(b, k.Strs[i]...)
		} else if k.Type == Float64 {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(k.FloatVals[i]))
		} else {
			b = binary.LittleEndian.AppendUint64(b, uint64(k.IntVals[i]))
		}
	}
	return b
}

// compareKeys orders rows a and b by the key columns: strings by code point
// (byte order of UTF-8), uint64 unsigned, other integers signed, floats
// numerically.
func compareKeys(keys []*Column, a, b int) int {
	for _, k := range keys {
		c := 0
		switch k.Type {
		case String:
			c = cmp3(k.Strs[a] < k.Strs[b], k.Strs[a] > k.Strs[b])
		case Uint64:
			c = cmp3(uint64(k.IntVals[a]) < uint64(k.IntVals[b]), uint64(k.IntVals[a]) > uint64(k.IntVals[b]))
		case Float64:
			c = cmp3(k.FloatVals[a] < k.FloatVals[b], k.FloatVals[a] > k.FloatVals[b])
		default:
			c = cmp3(k.IntVals[a] < k.IntVals[b], k.IntVals[a] > k.IntVals[b])
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}
