package recipes

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

func TestWindow(t *testing.T) {
	s := composite.Span{
		Start:    []int64{-5, 0, 10, 20, 30, 40},
		End:      []int64{5, 8, 15, 25, 0, 50},
		EndValid: pyframe.Mask{true, true, true, true, false, true},
	}
	all := pyframe.Seq(s.Len())
	// No option: negative starts and NULL ends go, nothing else.
	if got := composite.Window(s, all, 0, nil); !reflect.DeepEqual(got, []int{1, 2, 3, 5}) {
		t.Errorf("default window kept %v", got)
	}
	// [12, 22]: whole rows with end ≥ 12 and start ≤ 22 (row 2 overlaps,
	// not clipped; row 3 starts inside).
	if got := composite.Window(s, all, 12, i64(22)); !reflect.DeepEqual(got, []int{2, 3}) {
		t.Errorf("window [12,22] kept %v", got)
	}
	// Touching bounds count: end == S and start == E.
	if got := composite.Window(s, all, 15, i64(20)); !reflect.DeepEqual(got, []int{2, 3}) {
		t.Errorf("window [15,20] kept %v", got)
	}
}

func TestChainOverlap(t *testing.T) {
	// Rows: 0 [0,10], 1 [10,20] touches 0, 2 [25,30], 3 [31,40],
	// 4 [100,110], 5 [19,26] bridges 1 and 2.
	s := composite.Span{Start: []int64{0, 10, 25, 31, 100, 19}, End: []int64{10, 20, 30, 40, 110, 26}}
	all := pyframe.Seq(s.Len())
	// A range inside row 0: the chain 0-1-5-2 is kept; 3 starts after 30.
	if got := composite.ChainOverlap(s, all, []int64{5}, []int64{6}); !reflect.DeepEqual(got, []int{0, 1, 2, 5}) {
		t.Errorf("chain kept %v", got)
	}
	// A range touching row 3 only from its end.
	if got := composite.ChainOverlap(s, all, []int64{40}, []int64{45}); !reflect.DeepEqual(got, []int{3}) {
		t.Errorf("touching range kept %v", got)
	}
	// A range in a gap keeps nothing; two ranges keep both chains.
	if got := composite.ChainOverlap(s, all, []int64{50}, []int64{60}); len(got) != 0 {
		t.Errorf("gap range kept %v", got)
	}
	if got := composite.ChainOverlap(s, all, []int64{50, 105}, []int64{60, 106}); !reflect.DeepEqual(got, []int{4}) {
		t.Errorf("two ranges kept %v", got)
	}
}

// testNVTX is a hand-built NVTX composite: domain 0 ranges "step" (two),
// a domain "D" (id 7) with its own "step", and a mark.
func testNVTX() *composite.NVTX {
	n := &composite.NVTX{
		Start:     []int64{0, 0, 100, 300, 500, 600},
		End:       []int64{0, 0, 200, 400, 550, 0},
		EndValid:  pyframe.Mask{false, false, true, true, true, false},
		Text:      []string{"D", "x", "step", "step", "step", "step"},
		EventType: []int64{75, 75, 59, 60, 59, 34},
		DomainID:  []int64{7, 8, 0, 0, 7, 0},
	}
	n.RawText, n.TextValid, n.RawTextValid = n.Text, nil, nil
	return n
}

func TestFilterNVTX(t *testing.T) {
	nv := testNVTX()
	// Frame rows: 0 [150,160] inside range 2, 1 [210,220] outside,
	// 2 [350,360] in range 3, 3 [520,530] in domain D's range, 4 [190,205]
	// overlapping range 2's end.
	s := composite.Span{Start: []int64{150, 210, 350, 520, 190}, End: []int64{160, 220, 360, 530, 205}}
	run := func(r recipe.NVTXRange) ([]int, error) {
		o := recipe.Defaults()
		o.FilterNVTX = &r
		return composite.FilterRows(context.Background(), nil, o, s, nv)
	}
	str := func(s string) *string { return &s }
	idx := func(i int) *int { return &i }
	cases := []struct {
		r    recipe.NVTXRange
		want []int
		err  string
	}{
		{recipe.NVTXRange{Range: "step"}, []int{0, 2, 4}, ""},
		{recipe.NVTXRange{Range: "step", Index: idx(1)}, []int{2}, ""},
		{recipe.NVTXRange{Range: "step", Domain: str("D")}, []int{3}, ""},
		// @*: every "step" row, the mark (NULL end) included but unusable.
		{recipe.NVTXRange{Range: "step", Domain: str("*")}, []int{0, 2, 3, 4}, ""},
		{recipe.NVTXRange{Range: "nope"}, nil, "Range 'nope' not found."},
		{recipe.NVTXRange{Range: "step", Domain: str("E")}, nil, "Domain 'E' not found."},
		{recipe.NVTXRange{Range: "step", Index: idx(2)}, nil, "Index 2 of range 'step' is out of bounds (2 matches)."},
	}
	for _, c := range cases {
		got, err := run(c.r)
		if c.err != "" {
			if err == nil || err.Error() != c.err || !errors.Is(err, composite.ErrFilter) {
				t.Errorf("%+v: error %v, want %q", c.r, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: kept %v (%v), want %v", c.r, got, err, c.want)
		}
	}
	// The time window applies after the NVTX filter.
	o := recipe.Defaults()
	o.FilterNVTX = &recipe.NVTXRange{Range: "step"}
	o.FilterTime = &recipe.TimeRange{Start: i64(200)}
	if got, _ := composite.FilterRows(context.Background(), nil, o, s, nv); !reflect.DeepEqual(got, []int{2, 4}) {
		t.Errorf("nvtx + time kept %v", got)
	}
	// Projected: without a projector, refused.
	saved := composite.ProjectNVTX
	composite.ProjectNVTX = nil
	defer func() { composite.ProjectNVTX = saved }()
	o = recipe.Defaults()
	o.FilterProjectedNVTX = &recipe.NVTXRange{Range: "step"}
	if _, err := composite.FilterRows(context.Background(), nil, o, s, nv); !errors.Is(err, composite.ErrFilter) {
		t.Errorf("projected filter without projector: %v", err)
	}
}

func TestRoundAndTitle(t *testing.T) {
	for x, want := range map[float64]float64{0.25: 0.2, 0.75: 0.8, 12.25: 12.2, -0.25: -0.2, 3.14159: 3.1, 28038: 28038} {
		if got := pyframe.Round(x); got != want {
			t.Errorf("Round(%v) = %v, want %v", x, got, want)
		}
	}
	for in, want := range map[string]string{"name": "Name", "text": "Text", "shortName": "Shortname", "device id": "Device Id", "a1b": "A1B"} {
		if got := pyframe.TitleCase(in); got != want {
			t.Errorf("TitleCase(%q) = %q, want %q", in, got, want)
		}
	}
}

// row renders row i of f as text, NULL as "-".
func row(f *pyframe.Frame, i int) string {
	s := ""
	for _, c := range f.Cols {
		v := frameValue(c, i)
		if v == nil {
			v = "-"
		}
		s += fmt.Sprint(v) + "|"
	}
	return s
}

// wantRows compares the rows of f (rendered by row) with want.
func wantRows(t *testing.T, what string, f *pyframe.Frame, want ...string) {
	t.Helper()
	if f == nil {
		t.Fatalf("%s: no frame", what)
	}
	if f.Rows() != len(want) {
		for i := 0; i < f.Rows(); i++ {
			t.Logf("%s row %d: %s", what, i, row(f, i))
		}
		t.Fatalf("%s: %d rows, want %d", what, f.Rows(), len(want))
	}
	for i, w := range want {
		if got := row(f, i); got != w {
			t.Errorf("%s row %d = %s, want %s", what, i, got, w)
		}
	}
}

func TestDescribe(t *testing.T) {
	key := pyframe.NewStrings("Name", []string{"b", "a", "b", "a", "a", "z", "c"}, pyframe.Mask{true, true, true, true, true, false, true})
	vals := pyframe.NewInts("duration", pyframe.Int64, []int64{5, 1, 7, 2, 4, 9, 3}, nil)
	f := pyframe.Describe([]*pyframe.Column{key}, vals)
	if got := f.Names(); !reflect.DeepEqual(got, append(append([]string{}, pyframe.StatNames...), "Name")) {
		t.Fatalf("columns %v", got)
	}
	// a: 1,2,4 (mean 7/3, std sqrt(7/3)); b: 5,7; c: 3 alone (no std);
	// the NULL key is dropped.
	want := []string{
		"3|2.3|1.5|1|1.5|2|3|4|7|a|",
		"2|6|1.4|5|5.5|6|6.5|7|12|b|",
		"1|3|-|3|3|3|3|3|3|c|",
	}
	wantRows(t, "describe", f, want...)
	if f.Find("Min").Type != pyframe.Int64 || f.Find("Mean").Type != pyframe.Float64 {
		t.Errorf("kinds %v %v", f.Find("Min").Type, f.Find("Mean").Type)
	}
	// Float values keep float Min/Max/Sum; a second key sorts numerically.
	dev := pyframe.NewInts("Device ID", pyframe.Uint32, []int64{10, 2, 10, 2, 10, 2, 2}, nil)
	fv := pyframe.NewFloats("duration", []float64{5, 1, 7, 2, 4, 9, 3}, nil)
	g := pyframe.Describe([]*pyframe.Column{key, dev}, fv)
	wantRows(t, "by device", g,
		"2|1.5|0.7|1|1.2|1.5|1.8|2|3|a|2|",
		"1|4|-|4|4|4|4|4|4|a|10|",
		"2|6|1.4|5|5.5|6|6.5|7|12|b|10|",
		"1|3|-|3|3|3|3|3|3|c|2|")
	if g.Find("Sum").Type != pyframe.Float64 || g.Find("Device ID").Type != pyframe.Uint32 {
		t.Errorf("kinds %v %v", g.Find("Sum").Type, g.Find("Device ID").Type)
	}
}

func TestAggregate(t *testing.T) {
	r0 := pyframe.Describe([]*pyframe.Column{pyframe.NewStrings("Name", []string{"a", "a", "b"}, nil)}, pyframe.NewInts("d", pyframe.Int64, []int64{1, 3, 10}, nil))
	r1 := pyframe.Describe([]*pyframe.Column{pyframe.NewStrings("Name", []string{"a", "a", "a"}, nil)}, pyframe.NewInts("d", pyframe.Int64, []int64{2, 4, 9}, nil))
	rank := recipe.ConcatRanks([]*pyframe.Frame{r0, r1})
	wantRows(t, "rank", rank,
		"2|2|1.4|1|1.5|2|2.5|3|4|0|a|",
		"1|10|-|10|10|10|10|10|10|0|b|",
		"3|5|3.6|2|3|4|6.5|9|15|1|a|")
	all, err := recipe.Aggregate(rank)
	if err != nil {
		t.Fatal(err)
	}
	// a: Count 5, Sum 19, Mean 3.8, Std mean(1.4, 3.6)=2.5, Min 1,
	// Q1 min(1.5,3)=1.5, Median mean(2,4)=3, Q3 max(2.5,6.5), Max 9.
	if got := all.Names(); !reflect.DeepEqual(got, append(append([]string{}, recipe.AggNames...), "Name")) {
		t.Fatalf("columns %v", got)
	}
	wantRows(t, "all", all,
		"5|3.8|2.5|1|1.5|3|6.5|9|19|a|",
		"1|10|-|10|10|10|10|10|10|b|")
}

func TestConcatRanks(t *testing.T) {
	a := &pyframe.Frame{Cols: []*pyframe.Column{pyframe.NewInts("v", pyframe.Int64, []int64{1, 2}, nil)}, Index: pyframe.RangeIndex}
	b := &pyframe.Frame{Cols: []*pyframe.Column{pyframe.NewFloats("v", []float64{3.5}, nil), pyframe.NewInts(pyframe.LevelIndexName, pyframe.Int64, []int64{4}, nil)},
		Index: pyframe.LevelIndex, IndexCols: []string{pyframe.LevelIndexName}}
	f := recipe.ConcatRanks([]*pyframe.Frame{a, nil, b})
	if f.Index != pyframe.LevelIndex || f.Find("v").Type != pyframe.Float64 {
		t.Fatalf("index %v kind %v", f.Index, f.Find("v").Type)
	}
	wantRows(t, "concat", f, "1|0|0|", "2|0|1|", "3.5|2|4|")
	if one := recipe.ConcatRanks([]*pyframe.Frame{a}); one.Index != pyframe.RangeIndex || len(one.Cols) != 2 {
		t.Errorf("single range frame: index %v, %v", one.Index, one.Names())
	}
}
