package frame

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestFrameResult: a frame's Result shows the named index first, leaves
// the stored unnamed index out, and has the cells pandas prints: NULLs,
// NaN as NULL, a uint64 past int64 as a float, a list as Python's text.
func TestFrameResult(t *testing.T) {
	f := &Frame{Index: NamedIndex, IndexCols: []string{"Name"}, Cols: []*Column{
		NewInts("Count", Int64, []int64{3, 4}, Mask{true, false}),
		NewFloats("Mean", []float64{1.5, math.NaN()}, nil),
		NewInts("PID", Uint64, []int64{7, -1}, nil),
		{Name: "Stack", Type: ListInt64, Lists: [][]int64{{0, 1}, {}}},
		{Name: "None", Type: AllNull, Valid: make([]bool, 2)},
		NewStrings("Name", []string{"a", "b"}, nil),
	}}
	r := f.Result("recipe", "t")
	if r.Report != "recipe" || r.Title != "t" {
		t.Errorf("report %q, title %q; want recipe, t", r.Report, r.Title)
	}
	var got []string
	for i := range r.Len() {
		var row []string
		for _, c := range r.Cols {
			v := c.Value(i)
			row = append(row, fmt.Sprintf("%s=%v:%v", c.Name, v.Kind, v))
		}
		got = append(got, strings.Join(row, " "))
	}
	want := []string{
		fmt.Sprintf("Name=%v:a Count=%v:3 Mean=%v:1.5 PID=%v:7 Stack=%v:[0, 1] None=%v:%v", TextKind, IntKind, FloatKind, IntKind, TextKind, NullKind, Null),
		fmt.Sprintf("Name=%v:b Count=%v:%v Mean=%v:%v PID=%v:1.8446744073709552e+19 Stack=%v:[] None=%v:%v", TextKind, NullKind, Null, NullKind, Null, FloatKind, TextKind, NullKind, Null),
	}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Errorf("row %d:\n got %v\nwant %s", i, got, want[i])
		}
	}
	lf := &Frame{Index: LevelIndex, IndexCols: []string{LevelIndexName}, Cols: []*Column{
		NewInts("x", Int64, []int64{1}, nil), NewInts(LevelIndexName, Int64, []int64{9}, nil)}}
	if cols := lf.Result("recipe", "l").Columns(); len(cols) != 1 || cols[0] != "x" {
		t.Errorf("level-index frame's columns %v, want [x]", cols)
	}
}

// TestFromResult: a result's visible columns become typed frame columns
// (ints, floats with an int among them, text, all-NULL) with NULL rows.
func TestFromResult(t *testing.T) {
	r := NewResult("r", "R", "Name", "Count", "Time:dur_ns", "Empty", "_hidden")
	r.Add(TextV("a"), IntV(2), FloatV(0.5), Null, IntV(1))
	r.Add(Null, IntV(3), IntV(4), Null, IntV(1))
	f := FromResult(r)
	if f.Index != RangeIndex || f.Rows() != 2 {
		t.Fatalf("index %v, %d rows; want RangeIndex, 2", f.Index, f.Rows())
	}
	var got []string
	for _, c := range f.Cols {
		got = append(got, fmt.Sprintf("%s %v %v %v %v %v", c.Name, c.Type, c.IntVals, c.FloatVals, c.Strs, c.Valid))
	}
	want := []string{
		"Name string [] [] [a ] [true false]",
		"Count int64 [2 3] [] [] []",
		"Time:dur_ns float64 [] [0.5 4] [] []",
		"Empty null [] [] [] [false false]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("columns\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
