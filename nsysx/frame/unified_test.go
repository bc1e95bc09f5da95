package frame

import (
	"math"
	"testing"
)

// A recipe's typed frame takes the table methods a report's result has,
// and its cells read as the formatters' values.
func TestTypedFrameTableMethods(t *testing.T) {
	f := &Frame{Index: RangeIndex, Cols: []*Column{
		NewStrings("Name", []string{"a", "b", "c"}, nil),
		NewFloats("Avg", []float64{2.5, math.NaN(), 7}, nil),
		NewInts("Big", Uint64, []int64{1, -1, 3}, Mask{true, true, false}),
	}}
	if !f.Typed() {
		t.Fatal("a recipe's frame is not Typed")
	}
	s := f.Sort("-Avg").Select("Name", "Avg", "Big")
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if s.Typed() {
		t.Error("a table method's output (cell columns) is Typed")
	}
	// SQLite order, descending: 7, 2.5, then NULL (the NaN).
	want := []string{"c", "a", "b"}
	for i, w := range want {
		if got := s.Col("Name").String(i); got != w {
			t.Errorf("row %d: Name %q, want %q", i, got, w)
		}
	}
	if !s.Col("Avg").IsNull(2) || s.Col("Avg").Float(0) != 7 {
		t.Errorf("Avg cells %v", s.Col("Avg").Floats())
	}
	if v := s.Col("Big").Value(2); v.Kind != FloatKind || v.F != math.MaxUint64 {
		t.Errorf("Uint64 1<<64-1 reads %+v, want the float 2^64-1", v)
	}
	if !s.Col("Big").IsNull(0) {
		t.Error("the NULL Big cell is not NULL")
	}
	if got := f.Schema().Col("Type").Strings(); len(got) != 3 || got[0] != "text" || got[1] != "float" || got[2] != "int" {
		t.Errorf("schema types %v, want text float int", got)
	}
	if NewResult("", "t", "a").Typed() {
		t.Error("an empty report result is Typed")
	}
}

// Append refuses a typed column that has rows instead of corrupting it.
func TestAppendToTypedPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Append to a typed column did not panic")
		}
	}()
	NewInts("x", Int64, []int64{1}, nil).Append(IntV(2))
}
