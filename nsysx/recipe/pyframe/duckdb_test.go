package pyframe

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// TestParquetOpensInDuckDB writes recipe frames with every column kind and
// reads them with DuckDB through tools/npm-check: the column names, the
// types, the pandas metadata and every value must come back. Skipped when
// node or the tool's node_modules is missing (fails then under CI).
func TestParquetOpensInDuckDB(t *testing.T) {
	check := testutil.NodeCheck(t, "npm-check", "@duckdb/node-api")
	frames, names := map[string]*Frame{}, map[string]string{}
	var files []string
	for _, rel := range []string{"rank0+rank1/nvtx_gpu_proj_trace/trace.parquet", "train+fixed/cuda_memcpy_async/analysis.parquet",
		"rank0+rank1/cuda_gpu_kern_sum/rank_stats_by_device.parquet", "rank0+rank1/nvtx_pace/pace_delta.parquet"} {
		f, err := ReadParquet(testutil.GoldenRecipe(rel))
		if err != nil {
			t.Fatal(err)
		}
		p := writeFrame(t, f)
		frames[p], names[p] = f, rel
		files = append(files, p)
	}
	var got []testutil.NPMCheckFile
	if check(files, &got); len(got) != len(files) {
		t.Fatalf("check.mjs: %d outputs for %d files", len(got), len(files))
	}
	for _, o := range got {
		checkDuckDB(t, o, names[o.File], frames[o.File])
	}
}

// duckTypes are the DuckDB types of the frame kinds (Null is left out:
// DuckDB picks its own type for an all-NULL column).
var duckTypes = map[Kind]string{Int64: "BIGINT", Uint64: "UBIGINT", Uint32: "UINTEGER", Float64: "DOUBLE", String: "VARCHAR", ListInt64: "BIGINT[]"}

func checkDuckDB(t *testing.T, o testutil.NPMCheckFile, name string, f *Frame) {
	t.Helper()
	if f == nil || o.Rows != f.Rows() || len(o.Columns) != len(f.Cols) {
		t.Errorf("%s: %d rows %d columns, want %d, %d", name, o.Rows, len(o.Columns), f.Rows(), len(f.Cols))
		return
	}
	var pm map[string]any
	if err := json.Unmarshal([]byte(o.Metadata["pandas"]), &pm); err != nil || pm["index_columns"] == nil {
		t.Errorf("%s: pandas metadata not visible to DuckDB: %v", name, err)
	}
	for j, c := range f.Cols {
		if o.Columns[j].Name != c.Name {
			t.Errorf("%s: column %d named %q, want %q", name, j, o.Columns[j].Name, c.Name)
		}
		if w, ok := duckTypes[c.Type]; ok && o.Columns[j].Type != w {
			t.Errorf("%s: column %q is %s, want %s", name, c.Name, o.Columns[j].Type, w)
		}
		for i := 0; i < len(o.Data); i++ {
			if g, w := duckCell(o.Data[i][j]), wantCell(c, i); g != w {
				t.Errorf("%s: %q row %d = %s, want %s", name, c.Name, i, g, w)
				break
			}
		}
	}
}

func duckCell(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case json.Number:
		if f, err := strconv.ParseFloat(string(x), 64); err == nil {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
	case []any:
		s := "["
		for k, e := range x {
			if k > 0 {
				s += " "
			}
			s += duckCell(e)
		}
		return s + "]"
	}
	return fmt.Sprint(v)
}

func wantCell(c *Column, i int) string {
	if c.IsNull(i) || (c.Type == Float64 && c.FloatVals[i] != c.FloatVals[i]) {
		return "NULL"
	}
	switch c.Type {
	case Float64:
		return strconv.FormatFloat(c.FloatVals[i], 'g', -1, 64)
	case String:
		return c.Strs[i]
	case ListInt64:
		s := "["
		for k, e := range c.Lists[i] {
			if k > 0 {
				s += " "
			}
			s += strconv.FormatFloat(float64(e), 'g', -1, 64)
		}
		return s + "]"
	case Uint64:
		u := uint64(c.IntVals[i])
		if u > 1<<53 {
			return strconv.FormatUint(u, 10) // check.mjs prints big integers as strings
		}
		return strconv.FormatFloat(float64(u), 'g', -1, 64)
	}
	if v := c.IntVals[i]; v > 1<<53 || v < -(1<<53) {
		return strconv.FormatInt(v, 10)
	}
	return strconv.FormatFloat(float64(c.IntVals[i]), 'g', -1, 64)
}
