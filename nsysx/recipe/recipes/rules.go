package recipes

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// This file runs nsys's rule recipes (gpu_time_util, gpu_gaps,
// cuda_api_sync, cuda_memcpy_async, cuda_memcpy_sync, cuda_memset_sync;
// docs/recipes.md §2.14-2.19): each runs the SQL of the `nsys analyze` rule
// of the same name, which nsysx reproduces as a rule (nsysx.LookupRule), and
// turns its rows into a frame. Filtering happens in the rule's SQL window
// (§1.4, rule recipes), not with FilterRows.

// ruleOptions are the option keys of the rule recipes, in nsys's order;
// gpu_time_util and gpu_gaps append their own.
var ruleOptions = []string{"input", "start", "end", "nvtx", "rows", "filter_time"}

const ruleNotebook = "analysis.ipynb"

// registerRule registers the rule recipe of rule; extra adds the rule's own
// options (threshold=, chunks=, gap=) from Options, and check, when set,
// validates them before any report is read (a usage error).
func registerRule(rule, display, help string, own []string, extra func(o *recipe.Options) []nsysx.KV, check func(o *recipe.Options) error) {
	var prepare func(context.Context, []*recipe.Report, *recipe.Options) (any, error)
	if check != nil {
		prepare = func(_ context.Context, _ []*recipe.Report, o *recipe.Options) (any, error) { return nil, check(o) }
	}
	recipe.Register(&recipe.Recipe{
		Name:        rule,
		DisplayName: display,
		Help:        help,
		Options:     append(append([]string(nil), ruleOptions...), own...),
		Notebook:    ruleNotebook,
		Prepare:     prepare,
		Map: func(ctx context.Context, r *recipe.Report, o *recipe.Options, _ any) (*recipe.Part, error) {
			return mapRule(ctx, r, o, rule, extra)
		},
		Reduce: recipe.AnalysisReduce,
	})
}

// mapRule runs the rule with rows= and the recipe's window, and returns its
// rows as the "analysis" frame; a SKIPPED rule or one without rows yields
// nothing.
func mapRule(ctx context.Context, r *recipe.Report, o *recipe.Options, rule string, extra func(*recipe.Options) []nsysx.KV) (*recipe.Part, error) {
	rep, err := nsysx.LookupRule(rule)
	if err != nil {
		return nil, err
	}
	opts := []nsysx.KV{{Key: "rows", Value: strconv.Itoa(o.Rows)}}
	if extra != nil {
		opts = append(opts, extra(o)...)
	}
	res, err := r.Profile.RunReport(ctx, rep, opts, RuleFilter(o))
	if err != nil {
		return nil, err
	}
	if res.Skipped != "" {
		if o.Log != nil {
			o.Log(fmt.Sprintf("%s: %s", filepath.Base(r.Path), res.Skipped))
		}
		return nil, nil
	}
	if res.Len() == 0 {
		return noData(o, r)
	}
	return &recipe.Part{Frames: map[string]*pyframe.Frame{"analysis": ResultFrame(res)}}, nil
}

// RuleFilter is the SQL window of a rule recipe (docs/recipes.md §1.4):
// --filter-time (or the deprecated --start/--end) bounds, unset ones 0 and
// 2^63−1, and --nvtx, whose range supplies the bounds not given.
func RuleFilter(o *recipe.Options) *nsysx.Filter {
	start, end := o.Start, o.End
	if o.FilterTime != nil {
		start, end = o.FilterTime.Start, o.FilterTime.End
	}
	if o.NVTX == nil {
		return nsysx.OptionFilter(start, end, "", false)
	}
	return nsysx.OptionFilter(start, end, NVTXArg(o.NVTX), true)
}

// NVTXArg writes an NVTX range back as the R[@D][/i] text the rules look
// up: the range text, "@" and the domain when given, "/" and the index
// when given.
func NVTXArg(r *recipe.NVTXRange) string {
	var b strings.Builder
	b.WriteString(r.Range)
	if r.Domain != nil {
		b.WriteString("@" + *r.Domain)
	}
	if r.Index != nil {
		b.WriteString("/" + strconv.Itoa(*r.Index))
	}
	return b.String()
}

// ResultFrame maps a rule's result onto the recipe's typed frame as pandas
// read the rule's SQL rows (docs/recipes.md §1.8, §2.17): hidden columns
// (names starting with "_", e.g. _Global ID, _API) are dropped, unit tags
// are cut from the names; an integer column is int64, one with any NULL
// (or any real) float64, an all-NULL column Arrow null, text large_utf8.
// Rows are numbered 0..n−1 (a RangeIndex).
func ResultFrame(res *nsysx.Result) *pyframe.Frame {
	f := &pyframe.Frame{Index: pyframe.RangeIndex}
	n := res.Len()
	for _, rc := range res.Visible() {
		f.Cols = append(f.Cols, resultColumn(rc, n))
	}
	return f
}

func resultColumn(rc *nsysx.ResultCol, n int) *pyframe.Column {
	var ints, floats, texts, nulls int
	for i := 0; i < n; i++ {
		switch rc.Value(i).Kind {
		case nsysx.IntKind:
			ints++
		case nsysx.FloatKind:
			floats++
		case nsysx.TextKind:
			texts++
		default:
			nulls++
		}
	}
	name := rc.Label()
	switch {
	case nulls == n:
		return &pyframe.Column{Name: name, Type: pyframe.Null, Valid: make([]bool, n)}
	case texts > 0:
		c := &pyframe.Column{Name: name, Type: pyframe.String, Strs: make([]string, n)}
		for i := 0; i < n; i++ {
			v := rc.Value(i)
			c.Strs[i] = v.S
			if v.Kind != nsysx.TextKind {
				c.Valid = pyframe.SetNull(c.Valid, n, i)
			}
		}
		return c
	case floats > 0 || nulls > 0:
		c := &pyframe.Column{Name: name, Type: pyframe.Float64, FloatVals: make([]float64, n)}
		for i := 0; i < n; i++ {
			v := rc.Value(i)
			c.FloatVals[i] = v.AsFloat()
			if v.IsNull() {
				c.Valid = pyframe.SetNull(c.Valid, n, i)
			}
		}
		return c
	}
	c := &pyframe.Column{Name: name, Type: pyframe.Int64, IntVals: make([]int64, n)}
	for i := 0; i < n; i++ {
		c.IntVals[i] = rc.Value(i).I
	}
	return c
}
