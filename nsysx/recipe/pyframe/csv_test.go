package pyframe

import (
	"bytes"
	"math"
	"testing"
)

func csvText(t *testing.T, f *Frame) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteCSV(&b, f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestPyFloat(t *testing.T) {
	// Expected texts are Python 3's repr() of the same doubles.
	tenth, fifth := 0.1, 0.2 // variables: Go folds constant 0.1+0.2 exactly
	cases := []struct {
		x    float64
		want string
	}{
		{28038, "28038.0"}, {1e-05, "1e-05"}, {0.0001, "0.0001"}, {0.1, "0.1"},
		{1.5, "1.5"}, {-2.25, "-2.25"}, {0, "0.0"}, {math.Copysign(0, -1), "-0.0"},
		{1e16, "1e+16"}, {1e15, "1000000000000000.0"}, {123456789012345678, "1.2345678901234568e+17"},
		{1.5e-7, "1.5e-07"}, {1e100, "1e+100"}, {5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e+308"},
		{tenth + fifth, "0.30000000000000004"}, {8320193.5, "8320193.5"}, {2.5e-5, "2.5e-05"},
		{math.Inf(1), "inf"}, {math.Inf(-1), "-inf"}, {math.NaN(), "nan"}, {9999999999999998, "9999999999999998.0"},
	}
	for _, c := range cases {
		if got := PyFloat(c.x); got != c.want {
			t.Errorf("PyFloat(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

func TestCSVNamedIndexAndValues(t *testing.T) {
	f := &Frame{
		Cols: []*Column{
			{Name: "Mean", Type: Float64, FloatVals: []float64{28038, 1e-05, math.NaN(), math.Inf(1)}},
			{Name: "Std", Type: Float64, FloatVals: []float64{1, 2, 3, 4}, Valid: []bool{true, false, true, true}},
			{Name: "Big", Type: Uint64, IntVals: []int64{-1, 0, 7, 1 << 40}},
			{Name: "Parent ID", Type: Int64, IntVals: []int64{0, 5, 0, -3}, Valid: []bool{false, true, true, true}},
			{Name: "Range Stack", Type: ListInt64, Lists: [][]int64{{0, 1}, {5}, {}, nil}, Valid: []bool{true, true, true, false}},
			{Name: "Green", Type: Null, Valid: make([]bool, 4)},
			{Name: "Name", Type: String, Strs: []string{"plain", `say "hi"`, "a,b", "two\nlines"}},
			{Name: "Device ID", Type: Uint32, IntVals: []int64{0, 1, 2, 3}},
		},
		Index:     NamedIndex,
		IndexCols: []string{"Name", "Device ID"},
	}
	want := "Name,Device ID,Mean,Std,Big,Parent ID,Range Stack,Green\n" +
		"plain,0,28038.0,1.0,18446744073709551615,,\"[0, 1]\",\n" +
		"\"say \"\"hi\"\"\",1,1e-05,,0,5,[5],\n" +
		"\"a,b\",2,,3.0,7,0,[],\n" +
		"\"two\nlines\",3,inf,4.0,1099511627776,-3,,\n"
	if got := csvText(t, f); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestCSVIndexKinds(t *testing.T) {
	files := &Frame{Cols: []*Column{{Name: "File", Type: String, Strs: []string{"fixed", "train"}}}, Index: RangeIndex, RangeName: "Rank"}
	if got, want := csvText(t, files), "Rank,File\n0,fixed\n1,train\n"; got != want {
		t.Errorf("RangeIndex: got %q, want %q", got, want)
	}
	unnamed := &Frame{Cols: []*Column{{Name: "In-Use", Type: Float64, FloatVals: []float64{12.5, 0.25}}}, Index: RangeIndex}
	if got, want := csvText(t, unnamed), ",In-Use\n0,12.5\n1,0.25\n"; got != want {
		t.Errorf("unnamed RangeIndex: got %q, want %q", got, want)
	}
	level := &Frame{
		Cols: []*Column{
			{Name: "Duration", Type: Int64, IntVals: []int64{10, 20}},
			{Name: LevelIndexName, Type: Int64, IntVals: []int64{3, 7}},
		},
		Index: LevelIndex, IndexCols: []string{LevelIndexName},
	}
	if got, want := csvText(t, level), ",Duration\n3,10\n7,20\n"; got != want {
		t.Errorf("LevelIndex: got %q, want %q", got, want)
	}
	pace := &Frame{Cols: []*Column{
		{Name: "0", Type: Int64, IntVals: []int64{100, 200}},
		{Name: "1", Type: Float64, FloatVals: []float64{150, math.NaN()}},
	}}
	if got, want := csvText(t, pace), "0,1\n100,150.0\n200,\n"; got != want {
		t.Errorf("NoIndex: got %q, want %q", got, want)
	}
	// Python's csv writer quotes a record that is one empty field.
	single := &Frame{Cols: []*Column{{Name: "Text", Type: String, Strs: []string{"", "x"}, Valid: []bool{false, true}}}}
	if got, want := csvText(t, single), "Text\n\"\"\nx\n"; got != want {
		t.Errorf("single empty field: got %q, want %q", got, want)
	}
}

func TestCSVRejectsRaggedFrame(t *testing.T) {
	f := &Frame{Cols: []*Column{
		{Name: "a", Type: Int64, IntVals: []int64{1, 2}},
		{Name: "b", Type: Int64, IntVals: []int64{1}},
	}}
	if err := WriteCSV(&bytes.Buffer{}, f); err == nil {
		t.Fatal("WriteCSV accepted columns of different lengths")
	}
}
