package nsysxengine

import (
	"math"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// TestFrameBundleCells: a recipe table is shown with its named index
// first, its stored unnamed index left out, NULL and NaN as empty cells
// and a list as Python prints it, numbers right-aligned: the cells of its
// Result as the CSV formatter writes them.
func TestFrameBundleCells(t *testing.T) {
	f := &recipe.Frame{Index: recipe.NamedIndex, IndexCols: []string{"Name"}, Cols: []*recipe.Column{
		pyframe.NewInts("Count", recipe.Int64, []int64{12, 3}, recipe.Mask{true, false}),
		pyframe.NewFloats("Mean", []float64{2.5, math.NaN()}, nil),
		{Name: "Stack", Type: recipe.ListInt64, Lists: [][]int64{{0, 1}, {}}},
		pyframe.NewStrings("Name", []string{"aa", "b"}, nil),
	}}
	got := FrameBundle("sum", f, TableOptions{})["text/plain"].(string)
	want := strings.Join([]string{
		"sum: 2 rows",
		"Name  Count  Mean  Stack",
		"aa       12   2.5  [0, 1]",
		"b                  []",
	}, "\n")
	if got != want {
		t.Errorf("text\n%s\nwant\n%s", got, want)
	}
}
