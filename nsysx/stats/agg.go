package stats

import (
	"math"
	"slices"
	"sort"

	"github.com/nsysx/nsysx/nsysx/frame"
	"github.com/nsysx/nsysx/nsysx/internal/order"
)

// Agg accumulates integer samples (durations, sizes) for one group and gives the
// SQLite aggregate semantics nsys reports rely on (docs/stats.md §2.2).
type Agg struct {
	vals  []int64
	nulls int
}

// Add records a value.
func (a *Agg) Add(v int64) { a.vals = append(a.vals, v) }

// AddNull records a NULL (counted by count(*), skipped by the rest).
func (a *Agg) AddNull() { a.nulls++ }

// Count is count(*).
func (a *Agg) Count() int64 { return int64(len(a.vals) + a.nulls) }

// N is count(x).
func (a *Agg) N() int { return len(a.vals) }

// Sum is sum(x): an integer, NULL when there are no values.
func (a *Agg) Sum() Value {
	if len(a.vals) == 0 {
		return Null
	}
	return IntV(a.Total())
}

// Total is sum(x) as int64 (0 when empty). A sum past int64 panics with an
// *OverflowError, which RunReport returns as the report's error (SQLite's
// sum() fails likewise: "integer overflow").
func (a *Agg) Total() int64 {
	var s int64
	for _, v := range a.vals {
		s = addInt(s, v)
	}
	return s
}

// addInt is a+b and subInt e-s (a duration), panicking with an
// *OverflowError when they wrap: the frames' checked arithmetic
// (frame.AddInt, frame.Elapsed), which the recipes use too.
func addInt(a, b int64) int64 { return frame.AddInt(a, b) }

func subInt(e, s int64) int64 { return frame.Elapsed(e, s) }

// Avg is avg(x) as a real, or NULL.
func (a *Agg) Avg() Value {
	if len(a.vals) == 0 {
		return Null
	}
	return FloatV(float64(a.Total()) / float64(len(a.vals)))
}

// Min is min(x), or NULL.
func (a *Agg) Min() Value {
	if len(a.vals) == 0 {
		return Null
	}
	return IntV(slices.Min(a.vals))
}

// Max is max(x), or NULL.
func (a *Agg) Max() Value {
	if len(a.vals) == 0 {
		return Null
	}
	return IntV(slices.Max(a.vals))
}

// Median is the SQLite extension's median: the middle integer for an odd
// count, the real mean of the two middle values for an even count.
func (a *Agg) Median() Value {
	if len(a.vals) == 0 {
		return Null
	}
	return median(slices.Clone(a.vals)) // the order of vals is Stdev's summation order
}

// median is the median of s (not empty), whose order it changes.
func median(s []int64) Value {
	n := len(s)
	m := order.Nth(s, n/2)
	if n%2 == 1 {
		return IntV(m)
	}
	return FloatV((float64(slices.Max(s[:n/2])) + float64(m)) / 2)
}

// Stdev is the sample standard deviation (n-1), 0.0 for fewer than 2 values.
func (a *Agg) Stdev() Value { return FloatV(stdev(a.vals)) }

func stdev(vals []int64) float64 {
	if len(vals) < 2 {
		return 0
	}
	var mean, m2 float64
	for i, v := range vals {
		x := float64(v)
		d := x - mean
		mean += d / float64(i+1)
		m2 += d * (x - mean)
	}
	return math.Sqrt(m2 / float64(len(vals)-1))
}

// R1 rounds a value to one decimal as SQLite round(x,1) (NULL stays NULL).
func R1(v Value) Value {
	switch v.Kind {
	case IntKind:
		return FloatV(Round1(float64(v.I)))
	case FloatKind:
		return FloatV(Round1(v.F))
	}
	return v
}

// Pct is round(part*100.0/whole, 1), NULL when whole is 0.
func Pct(part, whole int64) Value {
	if whole == 0 {
		return Null
	}
	return FloatV(Round1(float64(part) * 100.0 / float64(whole)))
}

// SummaryCols are the STATS(d, N) column names with the count label n.
func SummaryCols(n string) []string {
	return []string{"Time:ratio_%", "Total Time:dur_ns", n, "Avg:dur_ns", "Med:dur_ns", "Min:dur_ns", "Max:dur_ns", "StdDev:dur_ns"}
}

// Summary returns the 8 STATS values of a group (Time % against grand).
// The total, minimum and maximum come from one pass over the values. It
// selects the median among the values in place, after the standard
// deviation has summed them in their order, so it leaves them reordered:
// call it last (a group's Summary makes its report row). The values of a
// big group are not copied (22 MB for nvtx_sum on train x50).
func (a *Agg) Summary(grand int64) []Value {
	s := statsOf(a.vals)
	row := make([]Value, 8)
	for j := range row {
		row[j] = s.cell(j, len(a.vals), a.Count(), grand)
	}
	return row
}

// groupStats are the values of a group's STATS row that need a pass over
// its values; cell gives the row. A report of a million groups keeps these
// (40 bytes) rather than its rows of Values (320).
type groupStats struct {
	total, lo, hi int64
	med, sd       float64 // before rounding
}

// statsOf computes the groupStats of vals, which it reorders (see Summary).
func statsOf(vals []int64) groupStats {
	if len(vals) == 0 {
		return groupStats{}
	}
	s := groupStats{lo: vals[0], hi: vals[0]}
	for _, v := range vals {
		s.total = addInt(s.total, v)
		s.lo, s.hi = min(s.lo, v), max(s.hi, v)
	}
	s.sd = stdev(vals)
	s.med = median(vals).AsFloat()
	return s
}

// cell is column j of the STATS row (SummaryCols) of a group of n values
// and count rows, with Time % against grand.
func (s *groupStats) cell(j, n int, count, grand int64) Value {
	if n == 0 && j != 0 && j != 2 && j != 7 {
		return Null
	}
	switch j {
	case 0:
		return Pct(s.total, grand)
	case 1:
		return IntV(s.total)
	case 2:
		return IntV(count)
	case 3:
		return R1(FloatV(float64(s.total) / float64(n)))
	case 4:
		return FloatV(Round1(s.med))
	case 5:
		return IntV(s.lo)
	case 6:
		return IntV(s.hi)
	}
	return FloatV(Round1(s.sd))
}

// sortRows sorts a result's rows stably by less over row indexes.
func sortRows(r *Result, less func(a, b []Value) bool) {
	n := r.Len()
	rows := make([][]Value, n)
	for i := range rows {
		rows[i] = r.Row(i)
	}
	sort.SliceStable(rows, func(i, j int) bool { return less(rows[i], rows[j]) })
	for _, c := range r.Cols {
		*c = ResultCol{Name: c.Name}
	}
	for _, row := range rows {
		r.Add(row...)
	}
}

// byKeys builds a less function from column positions; a negative position
// -(i+1) sorts column i descending.
func byKeys(keys ...int) func(a, b []Value) bool {
	return func(a, b []Value) bool {
		for _, k := range keys {
			desc := k < 0
			if desc {
				k = -k - 1
			}
			c := Compare(a[k], b[k])
			if desc {
				c = -c
			}
			if c != 0 {
				return c < 0
			}
		}
		return false
	}
}

func sortStable(idx []int, less func(a, b int) bool) {
	sort.SliceStable(idx, func(i, j int) bool { return less(idx[i], idx[j]) })
}
