package recipes

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// runOn runs recipe name over the named test profiles (in the given input
// order) and fails the test on error.
func runOn(t *testing.T, name string, o *recipe.Options, profiles ...string) *recipe.Result {
	t.Helper()
	if o == nil {
		o = recipe.Defaults()
	}
	o.Strict = true
	res, err := tryRun(t, name, o, profiles...)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// tryRun is runOn returning the error.
func tryRun(t *testing.T, name string, o *recipe.Options, profiles ...string) (*recipe.Result, error) {
	t.Helper()
	r, err := recipe.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	o.Input = testutil.Links(t, profiles...) // the stems decide the Rank order and files.parquet
	return recipe.Run(context.Background(), r, o, nil)
}

// runPace is runOn of a pace recipe with --name name.
func runPace(t *testing.T, rname, name string, profiles ...string) *recipe.Result {
	t.Helper()
	o := recipe.Defaults()
	o.Name = name
	return runOn(t, rname, o, profiles...)
}

// goldenDir is testdata/golden/recipes/<set>/<recipe>.
func goldenDir(set, rname string) string {
	return testutil.GoldenRecipe(set, rname)
}

// goldenCol is one column of a golden Parquet file.
type goldenCol struct {
	name, typ string
	vals      []any // int64, uint64, float64, string, or nil for NULL
}

// readGolden reads a golden Parquet file: its columns (physical order),
// Arrow types, values, and the pandas index_columns metadata as JSON.
func readGolden(t *testing.T, path string) ([]goldenCol, string) {
	t.Helper()
	tbl, kv := testutil.ParquetTable(t, path, nil)
	defer tbl.Release()
	var meta struct {
		IndexColumns json.RawMessage `json:"index_columns"`
	}
	if v := kv.FindValue("pandas"); v != nil {
		if err := json.Unmarshal([]byte(*v), &meta); err != nil {
			t.Fatal(err)
		}
	}
	var out []goldenCol
	for c := 0; c < int(tbl.NumCols()); c++ {
		col := tbl.Column(c)
		g := goldenCol{name: col.Name(), typ: col.DataType().String()}
		for _, ch := range col.Data().Chunks() {
			for i := 0; i < ch.Len(); i++ {
				g.vals = append(g.vals, arrowValue(ch, i))
			}
		}
		out = append(out, g)
	}
	return out, string(meta.IndexColumns)
}

func arrowValue(a arrow.Array, i int) any {
	if _, null := a.(*array.Null); null || a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Int64:
		return a.Value(i)
	case *array.Uint32:
		return uint64(a.Value(i))
	case *array.Uint64:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.LargeString:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.List:
		vals, ok := a.ListValues().(*array.Int64)
		if !ok {
			break
		}
		s, e := a.ValueOffsets(i)
		l := []int64{}
		for k := s; k < e; k++ {
			l = append(l, vals.Value(int(k)))
		}
		return fmt.Sprint(l)
	}
	return fmt.Sprintf("unsupported %T", a)
}

// goldenArrowType is the Arrow type name a Kind is written as.
func goldenArrowType(k pyframe.Kind) string {
	switch k {
	case pyframe.String:
		return "large_utf8"
	case pyframe.ListInt64:
		return "list<element: int64, nullable>"
	case pyframe.Category:
		return "int64" // pqarrow decodes the dictionary; see checkCategories
	}
	return k.String()
}

// frameValue is row i of c as readGolden returns values.
func frameValue(c *pyframe.Column, i int) any {
	if c.IsNull(i) {
		return nil
	}
	switch c.Type {
	case pyframe.Float64:
		if math.IsNaN(c.FloatVals[i]) {
			return nil
		}
		return c.FloatVals[i]
	case pyframe.String:
		return c.Strs[i]
	case pyframe.Uint64, pyframe.Uint32:
		return uint64(c.IntVals[i])
	case pyframe.ListInt64:
		return fmt.Sprint(c.Lists[i])
	}
	return c.IntVals[i]
}

// indexJSON is the pandas index_columns metadata a frame is written with.
func indexJSON(f *pyframe.Frame) string {
	var v any
	switch f.Index {
	case pyframe.NamedIndex, pyframe.LevelIndex:
		v = f.IndexCols
	case pyframe.RangeIndex:
		var name any
		if f.RangeName != "" {
			name = f.RangeName
		}
		v = []any{map[string]any{"kind": "range", "name": name, "start": 0, "stop": f.Rows(), "step": 1}}
	default:
		v = []string{}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// compareGolden compares frame f with the golden Parquet file: column
// names, order and types, every value, and the index metadata.
func compareGolden(t *testing.T, path string, f *pyframe.Frame) {
	t.Helper()
	if f == nil {
		t.Fatalf("%s: no frame", path)
	}
	want, wantIdx := readGolden(t, path)
	var wi, gi any
	_ = json.Unmarshal([]byte(wantIdx), &wi)
	_ = json.Unmarshal([]byte(indexJSON(f)), &gi)
	if fmt.Sprint(wi) != fmt.Sprint(gi) {
		t.Errorf("%s: index %v, want %v", path, gi, wi)
	}
	if len(f.Cols) != len(want) {
		t.Fatalf("%s: columns %v, want %d columns", path, f.Names(), len(want))
	}
	bad := 0
	for c, w := range want {
		g := f.Cols[c]
		if g.Name != w.name || goldenArrowType(g.Type) != w.typ {
			t.Errorf("%s: column %d is %s %s, want %s %s", path, c, g.Name, goldenArrowType(g.Type), w.name, w.typ)
			continue
		}
		if g.Len() != len(w.vals) {
			t.Errorf("%s: column %s has %d rows, want %d", path, w.name, g.Len(), len(w.vals))
			continue
		}
		for i, wv := range w.vals {
			if gv := frameValue(g, i); gv != wv && bad < 10 {
				bad++
				t.Errorf("%s: %s[%d] = %v, want %v", path, w.name, i, gv, wv)
			}
		}
	}
}
