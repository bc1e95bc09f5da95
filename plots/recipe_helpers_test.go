package plots

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// goldenFrame reads a golden recipe Parquet file (testdata/golden/recipes/
// rel) into a recipe.Frame with arrow-go directly, independently of the
// recipe writers and readers.
func goldenFrame(t testing.TB, rel string) *recipe.Frame {
	t.Helper()
	tbl, _ := testutil.ParquetTable(t, testutil.GoldenRecipe(rel), nil)
	defer tbl.Release()
	f := &recipe.Frame{Index: recipe.NoIndex}
	for i := 0; i < int(tbl.NumCols()); i++ {
		col := &recipe.Column{Name: tbl.Schema().Field(i).Name}
		nulls := false
		for _, ch := range tbl.Column(i).Data().Chunks() {
			for j := 0; j < ch.Len(); j++ {
				null := ch.IsNull(j)
				nulls = nulls || null
				col.Valid = append(col.Valid, !null)
				appendCell(t, col, ch, j, null)
			}
		}
		if !nulls {
			col.Valid = nil
		}
		f.Cols = append(f.Cols, col)
	}
	return f
}

func appendCell(t testing.TB, col *recipe.Column, ch arrow.Array, j int, null bool) {
	switch a := ch.(type) {
	case *array.Int64:
		col.Type = recipe.Int64
		col.IntVals = append(col.IntVals, a.Value(j))
	case *array.Uint32:
		col.Type = recipe.Uint32
		col.IntVals = append(col.IntVals, int64(a.Value(j)))
	case *array.Uint64:
		col.Type = recipe.Uint64
		col.IntVals = append(col.IntVals, int64(a.Value(j)))
	case *array.Float64:
		col.Type = recipe.Float64
		col.FloatVals = append(col.FloatVals, a.Value(j))
	case *array.LargeString:
		col.Type = recipe.String
		col.Strs = append(col.Strs, a.Value(j))
	case *array.String:
		col.Type = recipe.String
		col.Strs = append(col.Strs, a.Value(j))
	case *array.Null:
		col.Type = recipe.Null
	default:
		col.Type = recipe.ListInt64
		col.Lists = append(col.Lists, nil)
	}
}

// goldenOutput reads every Parquet file of a golden recipe directory as
// the recipe's Output, tables in file name order.
func goldenOutput(t testing.TB, rel string) *recipe.Output {
	t.Helper()
	dir := filepath.Join(testutil.Root(), "testdata", "golden", "recipes", rel)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := &recipe.Output{}
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".parquet"); ok {
			out.Tables = append(out.Tables, recipe.Table{Name: n, Frame: goldenFrame(t, filepath.Join(rel, e.Name()))})
		}
	}
	return out
}
