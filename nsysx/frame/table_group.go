package frame

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/internal/suggest"
	"github.com/nsysx/nsysx/nsysx/model"
)

// Grouped is a Result split by key columns, waiting for Agg.
type Grouped struct {
	r    *Result
	keys []*ResultCol
	err  error
}

// GroupBy groups the rows by the values of the key columns; Agg then gives
// one row per distinct key, in order of first appearance.
func (r *Result) GroupBy(keys ...string) *Grouped {
	if r == nil || r.err != nil {
		return &Grouped{r: r, err: r.Err()}
	}
	cols, err := r.columns(keys)
	return &Grouped{r: r, keys: cols, err: err}
}

// aggFuncs are the aggregations Agg knows. NULL cells are skipped (SQL
// semantics); count(*) counts rows.
var aggFuncs = []string{"count", "sum", "mean", "min", "max", "median", "std", "first", "last"}

type aggSpec struct {
	fn, label string
	col       *ResultCol // nil for count(*)
}

// Agg computes one row per group: the key columns, then one column per
// spec. A spec is "FUNC(Column)" or "FUNC(Column) as Name" with FUNC one of
// count, sum, mean, min, max, median, std (sample standard deviation),
// first, last; "count(*)" counts rows. Sums, means, extremes and medians of
// a column keep its unit tag, so durations still print as durations.
func (g *Grouped) Agg(specs ...string) *Result {
	if g.err != nil {
		return g.r.failedOr(g.err)
	}
	r := g.r
	aggs := make([]aggSpec, len(specs))
	for i, s := range specs {
		a, err := r.parseAgg(s)
		if err != nil {
			return r.failedOr(err)
		}
		aggs[i] = a
	}
	order, groups := g.split()
	out := &Result{Report: r.Report, Title: r.Title, Args: r.Args, Source: r.Source}
	for _, k := range g.keys {
		out.Cols = append(out.Cols, newCells(k.Name))
	}
	for _, a := range aggs {
		out.Cols = append(out.Cols, newCells(a.label))
	}
	for _, key := range order {
		rows := groups[key]
		vals := make([]Value, 0, len(out.Cols))
		for _, k := range g.keys {
			vals = append(vals, k.Value(rows[0]))
		}
		for _, a := range aggs {
			vals = append(vals, a.apply(rows))
		}
		out.Add(vals...)
	}
	return out
}

func (r *Result) failedOr(err error) *Result {
	if r == nil {
		return (&Result{}).failed(err)
	}
	return r.failed(err)
}

// split returns the distinct keys in order of first appearance and the
// rows of each.
func (g *Grouped) split() ([]string, map[string][]int) {
	var order []string
	groups := map[string][]int{}
	var b strings.Builder
	for i := 0; i < g.r.Len(); i++ {
		b.Reset()
		for _, k := range g.keys {
			v := k.Value(i)
			fmt.Fprintf(&b, "%d\x00%d\x00%v\x00%s\x01", v.Kind, v.I, v.F, v.S)
		}
		key := b.String()
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], i)
	}
	return order, groups
}

func (r *Result) parseAgg(spec string) (aggSpec, error) {
	s, alias, hasAlias := strings.Cut(spec, " as ")
	s = strings.TrimSpace(s)
	fn, rest, ok := strings.Cut(s, "(")
	if !ok || !strings.HasSuffix(rest, ")") {
		return aggSpec{}, fmt.Errorf("nsysx: aggregation %q: want FUNC(Column), FUNC one of %s", spec, strings.Join(aggFuncs, ", "))
	}
	fn = strings.ToLower(strings.TrimSpace(fn))
	if fn == "avg" {
		fn = "mean"
	}
	known := false
	for _, f := range aggFuncs {
		known = known || f == fn
	}
	if !known {
		return aggSpec{}, fmt.Errorf("nsysx: unknown aggregation %q%s; known: %s", fn, suggest.Suggest(fn, aggFuncs), strings.Join(aggFuncs, ", "))
	}
	name := strings.TrimSpace(strings.TrimSuffix(rest, ")"))
	a := aggSpec{fn: fn, label: fn + "(" + name + ")"}
	if name != "*" || fn != "count" {
		c, err := r.Column(name)
		if err != nil {
			return aggSpec{}, err
		}
		a.col = c
		if tag := c.Tag(); tag != "" && fn != "count" && fn != "std" {
			a.label += ":" + tag
		}
	}
	if hasAlias {
		_, tag, _ := strings.Cut(a.label, ":")
		a.label = strings.TrimSpace(alias)
		if tag != "" {
			a.label += ":" + tag
		}
	}
	return a, nil
}

// apply aggregates the cells of rows.
func (a aggSpec) apply(rows []int) Value {
	if a.col == nil {
		return IntV(int64(len(rows)))
	}
	var vals []Value
	for _, i := range rows {
		if v := a.col.Value(i); !v.IsNull() {
			vals = append(vals, v)
		}
	}
	switch a.fn {
	case "count":
		return IntV(int64(len(vals)))
	case "first", "last", "min", "max":
		return pick(a.fn, vals)
	}
	return numericAgg(a.fn, vals)
}

func pick(fn string, vals []Value) Value {
	if len(vals) == 0 {
		return Null
	}
	best := vals[0]
	for _, v := range vals[1:] {
		switch {
		case fn == "last", fn == "min" && model.Compare(v, best) < 0, fn == "max" && model.Compare(v, best) > 0:
			best = v
		}
	}
	return best
}

// numericAgg is sum, mean, median or std over numbers; a sum of integers
// stays an integer unless it does not fit in one.
func numericAgg(fn string, vals []Value) Value {
	var nums []float64
	allInt := true
	var isum int64
	for _, v := range vals {
		if v.Kind == TextKind {
			continue
		}
		nums = append(nums, v.AsFloat())
		allInt = allInt && v.Kind == IntKind
		s := isum + v.I
		allInt = allInt && (s > isum) == (v.I > 0) // past int64: the float sum
		isum = s
	}
	if len(nums) == 0 {
		return Null
	}
	sum := 0.0
	for _, x := range nums {
		sum += x
	}
	n := float64(len(nums))
	switch fn {
	case "sum":
		if allInt {
			return IntV(isum)
		}
		return FloatV(sum)
	case "mean":
		return FloatV(sum / n)
	case "median":
		sort.Float64s(nums)
		m := len(nums) / 2
		if len(nums)%2 == 1 {
			return FloatV(nums[m])
		}
		return FloatV((nums[m-1] + nums[m]) / 2)
	}
	if len(nums) < 2 { // std
		return Null
	}
	mean, ss := sum/n, 0.0
	for _, x := range nums {
		ss += (x - mean) * (x - mean)
	}
	return FloatV(math.Sqrt(ss / (n - 1)))
}
