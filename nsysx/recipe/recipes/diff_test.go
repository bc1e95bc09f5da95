package recipes

import (
	"math"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// statsFrame builds a small rank_stats-like frame: Count (int64), Mean
// (float64), Rank, index Name.
func statsFrame(names []string, ranks []int64, counts []int64, means []float64) *pyframe.Frame {
	return &pyframe.Frame{Index: pyframe.NamedIndex, IndexCols: []string{"Name"}, Cols: []*pyframe.Column{
		{Name: "Count", Type: pyframe.Int64, IntVals: counts},
		{Name: "Mean", Type: pyframe.Float64, FloatVals: means},
		{Name: "Rank", Type: pyframe.Int64, IntVals: ranks},
		{Name: "Name", Type: pyframe.String, Strs: names},
	}}
}

func TestDiffFramesSame(t *testing.T) {
	a := statsFrame([]string{"k1", "k2", "k1"}, []int64{0, 0, 1}, []int64{3, 4, 5}, []float64{1.5, 2, math.NaN()})
	a.Cols[1].Valid = []bool{true, true, false}
	got, err := DiffFrames("rank_stats", a, a, true, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(got.Names(), ","); n != "Rank,Count,Mean,Name" {
		t.Fatalf("columns %s, want Rank,Count,Mean,Name", n)
	}
	if got.Find("Count").Type != pyframe.Int64 || got.Find("Mean").Type != pyframe.Float64 {
		t.Errorf("kinds %v %v, want int64 float64", got.Find("Count").Type, got.Find("Mean").Type)
	}
	for i := 0; i < 3; i++ {
		if got.Find("Count").IntVals[i] != 0 {
			t.Errorf("row %d: Count %d, want 0", i, got.Find("Count").IntVals[i])
		}
	}
	if !got.Find("Mean").IsNull(2) || got.Find("Mean").FloatVals[0] != 0 {
		t.Errorf("Mean: NULL − NULL must stay NULL, 1.5 − 1.5 = 0: %+v", got.Find("Mean"))
	}
	// --drop removes every row: zeros, and NULL on both sides.
	got, _ = DiffFrames("rank_stats", a, a, true, 0, true)
	if got.Rows() != 0 {
		t.Errorf("drop: %d rows, want none", got.Rows())
	}
	// A NULL against a value is a difference.
	b := statsFrame([]string{"k1", "k2", "k1"}, []int64{0, 0, 1}, []int64{3, 4, 5}, []float64{1.5, 2, 7})
	got, _ = DiffFrames("rank_stats", a, b, true, 0, true)
	if got.Rows() != 1 || got.Find("Name").Strs[0] != "k1" || got.Find("Rank").IntVals[0] != 1 || !got.Find("Mean").IsNull(0) {
		t.Errorf("drop: %d rows, want the (k1, rank 1) row with a NULL Mean", got.Rows())
	}
}

func TestDiffFramesAlign(t *testing.T) {
	a := statsFrame([]string{"k1", "k2", "k3"}, []int64{0, 0, 0}, []int64{10, 20, 30}, []float64{1, 2, 3})
	// b: k2 first, k3 missing, an extra k9 that a lacks.
	b := statsFrame([]string{"k2", "k1", "k9"}, []int64{0, 0, 0}, []int64{25, 4, 1}, []float64{0.5, 1.25, 9})
	got, err := DiffFrames("rank_stats", a, b, true, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	c, m := got.Find("Count"), got.Find("Mean")
	if c.Type != pyframe.Float64 {
		t.Fatalf("Count: a missing row must make it float64, got %v", c.Type)
	}
	want := []float64{10 - 4, 20 - 25}
	for i, w := range want {
		if c.FloatVals[i] != w || c.IsNull(i) {
			t.Errorf("Count row %d: %v, want %v", i, c.FloatVals[i], w)
		}
	}
	if !c.IsNull(2) || !m.IsNull(2) || got.Rows() != 3 {
		t.Errorf("k3 (absent from b) must be NULL, and k9 (absent from a) left out: %d rows", got.Rows())
	}
	if m.FloatVals[0] != 1-1.25 || m.FloatVals[1] != 2-0.5 {
		t.Errorf("Mean %v", m.FloatVals)
	}
	// tolerance 1: |−0.25| and |1.5|... only values ≤ 1 in magnitude become 0.
	got, _ = DiffFrames("rank_stats", a, b, true, 1, false)
	if m := got.Find("Mean"); m.FloatVals[0] != 0 || m.FloatVals[1] != 1.5 {
		t.Errorf("tolerance 1: Mean %v, want [0 1.5 NULL]", m.FloatVals)
	}
}

func TestDiffFramesAllStatsUint(t *testing.T) {
	mk := func(v []int64) *pyframe.Frame {
		return &pyframe.Frame{Index: pyframe.NamedIndex, IndexCols: []string{"Name"}, Cols: []*pyframe.Column{
			{Name: "Sum", Type: pyframe.Uint64, IntVals: v},
			{Name: "Name", Type: pyframe.String, Strs: []string{"HtoD", "DtoH"}},
		}}
	}
	got, err := DiffFrames("all_stats", mk([]int64{5, 100}), mk([]int64{7, 1}), false, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if s := got.Find("Sum"); s.Type != pyframe.Int64 || s.IntVals[0] != -2 || s.IntVals[1] != 99 {
		t.Errorf("uint64 Sum: %v %v, want int64 [-2 99]", s.Type, s.IntVals)
	}
}

func TestDiffFramesErrors(t *testing.T) {
	a := statsFrame([]string{"k1"}, []int64{0}, []int64{1}, []float64{1})
	b := statsFrame([]string{"k1", "k1"}, []int64{0, 1}, []int64{1, 1}, []float64{1, 1})
	if _, err := DiffFrames("rank_stats", a, b, true, 0, false); err == nil || !strings.Contains(err.Error(), "number of ranks differs (1 vs 2)") {
		t.Errorf("rank counts: %v", err)
	}
	c := statsFrame([]string{"k1"}, []int64{0}, []int64{1}, []float64{1})
	c.Cols[1].Name = "Median"
	if _, err := DiffFrames("rank_stats", a, c, true, 0, false); err == nil || !strings.Contains(err.Error(), "columns differ") {
		t.Errorf("columns: %v", err)
	}
	d := statsFrame([]string{"k1"}, []int64{0}, []int64{1}, []float64{1})
	d.IndexCols, d.Cols[3].Name = []string{"Text"}, "Text"
	if _, err := DiffFrames("rank_stats", a, d, true, 0, false); err == nil || !strings.Contains(err.Error(), "index differs") {
		t.Errorf("index: %v", err)
	}
}

func TestDiffFiles(t *testing.T) {
	f := func(s ...string) *pyframe.Frame {
		return &pyframe.Frame{Index: pyframe.RangeIndex, RangeName: "Rank", Cols: []*pyframe.Column{{Name: "File", Type: pyframe.String, Strs: s}}}
	}
	got, err := DiffFiles(f("fixed", "train"), f("rank0", "rank1"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(got.Names(), ","); n != "File1,File2" || got.Index != pyframe.RangeIndex || got.RangeName != "Rank" {
		t.Fatalf("files: %s index %v %q", n, got.Index, got.RangeName)
	}
	if got.Find("File1").Strs[1] != "train" || got.Find("File2").Strs[0] != "rank0" || got.Find("File2").Valid != nil {
		t.Errorf("files: %+v %+v", got.Find("File1"), got.Find("File2"))
	}
}
