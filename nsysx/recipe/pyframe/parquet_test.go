package pyframe

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/nsysx/nsysx/internal/pqcompare"
	"github.com/nsysx/nsysx/internal/testutil"
)

// goldenParquet lists every Parquet file nsys wrote in the recipe goldens.
func goldenParquet(t *testing.T) []string {
	t.Helper()
	var out []string
	root := filepath.Join(testutil.Root(), "testdata", "golden", "recipes")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			out = append(out, p)
		}
		return err
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("no golden parquet files under %s: %v", root, err)
	}
	return out
}

func writeFrame(t *testing.T, f *Frame) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteParquet(&buf, f); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "out.parquet")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestParquetRoundTripGoldens reads every nsys golden, writes it again and
// requires pqcompare to find no difference: the proof that WriteParquet
// writes what pandas + pyarrow write.
func TestParquetRoundTripGoldens(t *testing.T) {
	files := goldenParquet(t)
	for _, g := range files {
		rel, _ := filepath.Rel(filepath.Join(testutil.Root(), "testdata", "golden", "recipes"), g)
		t.Run(rel, func(t *testing.T) {
			f, err := ReadParquet(g)
			if err != nil {
				t.Fatal(err)
			}
			if err := pqcompare.Files(g, writeFrame(t, f)); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Logf("%d golden parquet files round-tripped", len(files))
}

// TestParquetPandasMetadataBytes checks that the pandas JSON WriteParquet
// stores is byte for byte pyarrow's (creator aside) for every golden.
func TestParquetPandasMetadataBytes(t *testing.T) {
	ours, _ := PyJSON(Creator, -1)
	for _, g := range goldenParquet(t) {
		f, err := ReadParquet(g)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pandasMetadata(f)
		if err != nil {
			t.Fatal(err)
		}
		want := kvValue(t, g, "pandas")
		want = strings.Replace(want, `{"library": "pyarrow", "version": "25.0.1"}`, ours, 1)
		if got != want {
			t.Errorf("%s: pandas metadata\n got %s\nwant %s", g, got, want)
		}
	}
}

func kvValue(t *testing.T, path, key string) string {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	v := pf.MetaData().KeyValueMetadata().FindValue(key)
	if v == nil {
		t.Fatalf("%s: no %s metadata", path, key)
	}
	return *v
}

// TestPQCompareDetects mutates a golden frame in one way at a time and
// requires pqcompare to report it.
func TestPQCompareDetects(t *testing.T) {
	golden := testutil.GoldenRecipe("rank0+rank1/cuda_gpu_kern_sum/rank_stats.parquet")
	trace := testutil.GoldenRecipe("rank0+rank1/nvtx_gpu_proj_trace/trace.parquet")
	cases := []struct {
		name, path, want string
		mutate           func(f *Frame)
	}{
		{"float value", golden, `column "Mean" row 3`, func(f *Frame) {
			f.Find("Mean").FloatVals[3] = math.Nextafter(f.Find("Mean").FloatVals[3], math.Inf(1))
		}},
		{"int value", golden, `column "Count" row 0: want`, func(f *Frame) { f.Find("Count").IntVals[0]++ }},
		{"string value", golden, `column "Name" row 1`, func(f *Frame) { f.Find("Name").Strs[1] += "x" }},
		{"NULL mask", golden, `column "Q1" row 2: want`, func(f *Frame) {
			c := f.Find("Q1")
			c.Valid = make([]bool, len(c.FloatVals))
			for i := range c.Valid {
				c.Valid[i] = i != 2
			}
		}},
		{"type", golden, `Arrow schema: want field "Min": int64`, func(f *Frame) {
			c := f.Find("Min")
			c.Type, c.FloatVals = Float64, make([]float64, len(c.IntVals))
			for i, v := range c.IntVals {
				c.FloatVals[i] = float64(v)
			}
		}},
		{"nullable int metadata", golden, `numpy_type: want "int64", got "Int64"`, func(f *Frame) {
			c := f.Find("Count")
			c.Valid = make([]bool, len(c.IntVals))
			for i := range c.Valid {
				c.Valid[i] = true
			}
		}},
		{"index kind", golden, "index_columns", func(f *Frame) {
			f.Index, f.IndexCols = NoIndex, nil
		}},
		{"column order", golden, "parquet schema", func(f *Frame) {
			f.Cols[1], f.Cols[2] = f.Cols[2], f.Cols[1]
		}},
		{"row count", golden, "rows: want", func(f *Frame) {
			for _, c := range f.Cols {
				c.IntVals, c.FloatVals, c.Strs = trim(c.IntVals), trim(c.FloatVals), trim(c.Strs)
			}
		}},
		{"list element", trace, `column "Range Stack" row 5`, func(f *Frame) {
			l := f.Find("Range Stack").Lists
			l[5] = append(append([]int64(nil), l[5]...), 99)
		}},
		{"nullable NULL", trace, `column "Parent ID" row 0`, func(f *Frame) {
			c := f.Find("Parent ID")
			c.Valid[0] = !c.Valid[0]
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ReadParquet(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			tc.mutate(f)
			err = pqcompare.Files(tc.path, writeFrame(t, f))
			if err == nil {
				t.Fatal("pqcompare found no difference")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error does not mention %q:\n%v", tc.want, err)
			}
			t.Log(err)
		})
	}
}

func trim[T any](s []T) []T {
	if len(s) == 0 {
		return s
	}
	return s[:len(s)-1]
}

// TestParquetReadIndexKinds checks the index kind ReadParquet recovers for
// each kind of golden.
func TestParquetReadIndexKinds(t *testing.T) {
	cases := []struct {
		rel   string
		kind  IndexKind
		cols  []string
		rname string
	}{
		{"rank0+rank1/cuda_gpu_kern_sum/rank_stats_by_device.parquet", NamedIndex, []string{"Name", "Device ID"}, ""},
		{"rank0+rank1/nvtx_gpu_proj_trace/trace.parquet", LevelIndex, []string{LevelIndexName}, ""},
		{"rank0+rank1/nvtx_pace/files.parquet", RangeIndex, nil, "Rank"},
		{"train+fixed/gpu_time_util/analysis.parquet", RangeIndex, nil, ""},
		{"rank0+rank1/nvtx_pace/pace_delta.parquet", NoIndex, nil, ""},
	}
	for _, tc := range cases {
		f, err := ReadParquet(testutil.GoldenRecipe(tc.rel))
		if err != nil {
			t.Fatal(err)
		}
		if f.Index != tc.kind || strings.Join(f.IndexCols, ",") != strings.Join(tc.cols, ",") || f.RangeName != tc.rname {
			t.Errorf("%s: index %v %q %q, want %v %q %q", tc.rel, f.Index, f.IndexCols, f.RangeName, tc.kind, tc.cols, tc.rname)
		}
	}
	f, err := ReadParquet(testutil.GoldenRecipe("rank0+rank1/nvtx_gpu_proj_trace/trace.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if c := f.Find("PID"); c.Type != Uint64 {
		t.Errorf("PID kind %v, want uint64", c.Type)
	}
	if c := f.Find("Parent ID"); c.Type != Int64 || c.Valid == nil {
		t.Errorf("Parent ID: kind %v valid %v, want nullable int64", c.Type, c.Valid != nil)
	}
}
