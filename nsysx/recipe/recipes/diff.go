package recipes

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// DiffDisplayName is the DisplayName nsys writes into a diff output's
// .nsys-analysis (its display name with " Diff" appended once more).
const DiffDisplayName = "Statistics Diff Diff"

// CompatRecipes lists the recipes whose outputs diff compares: those that
// write rank_stats, all_stats and files (diff --print-compat-recipes).
func CompatRecipes() []string {
	return []string{"cuda_api_sum", "cuda_gpu_kern_sum", "cuda_gpu_mem_size_sum", "cuda_gpu_mem_time_sum",
		"mpi_sum", "nccl_gpu_proj_sum", "nccl_sum", "nvtx_gpu_proj_sum", "nvtx_sum", "osrt_sum"}
}

// rowKey is a row's index labels (with the Rank for rank_stats), as text.
func rowKey(cols []*pyframe.Column, i int) string {
	var b strings.Builder
	for _, c := range cols {
		if c.IsNull(i) {
			b.WriteString("\x01null")
		} else {
			switch c.Type {
			case pyframe.String:
				b.WriteString(c.Strs[i])
			case pyframe.Float64:
				b.WriteString(strconv.FormatFloat(c.FloatVals[i], 'g', -1, 64))
			default:
				b.WriteString(strconv.FormatInt(c.IntVals[i], 10))
			}
		}
		b.WriteByte(0)
	}
	return b.String()
}

func isNumeric(k pyframe.Kind) bool {
	return k == pyframe.Int64 || k == pyframe.Uint64 || k == pyframe.Uint32 || k == pyframe.Float64
}

// indexColumns are a frame's index columns (NamedIndex and LevelIndex).
func indexColumns(f *pyframe.Frame) []*pyframe.Column {
	var out []*pyframe.Column
	for _, n := range f.IndexCols {
		if c := f.Find(n); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// dataColumns are the columns that are not the index.
func dataColumns(f *pyframe.Frame) []*pyframe.Column {
	idx := map[string]bool{}
	for _, n := range f.IndexCols {
		idx[n] = true
	}
	var out []*pyframe.Column
	for _, c := range f.Cols {
		if !idx[c.Name] {
			out = append(out, c)
		}
	}
	return out
}

// checkSameShape is diff's first check: equal columns and index names.
func checkSameShape(name string, a, b *pyframe.Frame) error {
	an, bn := names(dataColumns(a)), names(dataColumns(b))
	if strings.Join(an, "\x00") != strings.Join(bn, "\x00") {
		return fmt.Errorf("%s: the columns differ (%s vs %s)", name, strings.Join(an, ", "), strings.Join(bn, ", "))
	}
	ai, bi := indexNames(a), indexNames(b)
	if ai != bi {
		return fmt.Errorf("%s: the index differs (%q vs %q)", name, ai, bi)
	}
	return nil
}

func names(cs []*pyframe.Column) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

func indexNames(f *pyframe.Frame) string {
	switch f.Index {
	case pyframe.NamedIndex:
		return strings.Join(f.IndexCols, ", ")
	case pyframe.RangeIndex:
		return f.RangeName
	}
	return ""
}

// distinctRanks counts the distinct values of the Rank column.
func distinctRanks(f *pyframe.Frame) int {
	c := f.Find("Rank")
	if c == nil {
		return 0
	}
	seen := map[int64]bool{}
	for i, v := range c.IntVals {
		if !c.IsNull(i) {
			seen[v] = true
		}
	}
	return len(seen)
}

// DiffFrames is diff's computation for one table (docs/recipes.md §2.26 steps 1–7): a − b
// for every numeric column, rows aligned on a's index (with the Rank when
// rank is set: rank_stats), rows of b that a lacks dropped and rows of a
// that b lacks NULL (which makes the column float64). Magnitudes up to tol
// become 0; drop leaves out rows without a difference (every value 0, or
// NULL in both inputs). For rank_stats
// the Rank comes first. Integer differences are int64 (also for uint64
// inputs: nsys's pandas would wrap around below zero).
func DiffFrames(name string, a, b *pyframe.Frame, rank bool, tol float64, drop bool) (*pyframe.Frame, error) {
	if err := checkSameShape(name, a, b); err != nil {
		return nil, err
	}
	keyA, keyB := indexColumns(a), indexColumns(b)
	if rank {
		if a.Find("Rank") == nil || b.Find("Rank") == nil {
			return nil, fmt.Errorf("%s: no Rank column", name)
		}
		if na, nb := distinctRanks(a), distinctRanks(b); na != nb {
			return nil, fmt.Errorf("%s: the number of ranks differs (%d vs %d)", name, na, nb)
		}
		keyA, keyB = append([]*pyframe.Column{a.Find("Rank")}, keyA...), append([]*pyframe.Column{b.Find("Rank")}, keyB...)
	}
	if len(keyA) == 0 { // a positional index: align by row number
		keyA, keyB = []*pyframe.Column{positions(a.Rows())}, []*pyframe.Column{positions(b.Rows())}
	}
	rowB := map[string]int{}
	for i := 0; i < b.Rows(); i++ {
		k := rowKey(keyB, i)
		if _, dup := rowB[k]; dup {
			return nil, fmt.Errorf("%s: duplicate index label in the second directory", name)
		}
		rowB[k] = i
	}
	match := make([]int, a.Rows()) // a's row → b's row, or -1
	for i := range match {
		if j, ok := rowB[rowKey(keyA, i)]; ok {
			match[i] = j
		} else {
			match[i] = -1
		}
	}
	var cols []*pyframe.Column
	var same [][]bool
	for _, ca := range dataColumns(a) {
		if !isNumeric(ca.Type) || rank && ca.Name == "Rank" {
			continue
		}
		cols = append(cols, subColumn(ca, b.Find(ca.Name), match, tol))
		same = append(same, sameCells(ca, b.Find(ca.Name), match))
	}
	keep := keptRows(cols, same, a.Rows(), drop)
	return assembleDiff(a, cols, keep, rank), nil
}

func positions(n int) *pyframe.Column {
	c := &pyframe.Column{Name: "", Type: pyframe.Int64, IntVals: make([]int64, n)}
	for i := range c.IntVals {
		c.IntVals[i] = int64(i)
	}
	return c
}

// subColumn is a − b[match] with the tolerance applied.
func subColumn(ca, cb *pyframe.Column, match []int, tol float64) *pyframe.Column {
	float := ca.Type == pyframe.Float64 || cb.Type == pyframe.Float64
	for _, j := range match {
		if j < 0 {
			float = true
		}
	}
	n := len(match)
	out := &pyframe.Column{Name: ca.Name, Valid: make([]bool, n)}
	if float {
		out.Type, out.FloatVals = pyframe.Float64, make([]float64, n)
	} else {
		out.Type, out.IntVals = pyframe.Int64, make([]int64, n)
	}
	hasNull := false
	for i, j := range match {
		if j < 0 || ca.IsNull(i) || cb.IsNull(j) {
			hasNull = true
			continue
		}
		out.Valid[i] = true
		if float {
			d := ca.Float(i) - cb.Float(j)
			if math.IsNaN(d) {
				out.Valid[i], hasNull = false, true
				continue
			}
			if math.Abs(d) <= tol {
				d = 0
			}
			out.FloatVals[i] = d
		} else {
			d := ca.IntVals[i] - cb.IntVals[j]
			if math.Abs(float64(d)) <= tol {
				d = 0
			}
			out.IntVals[i] = d
		}
	}
	// pandas' nullable Int64 stays nullable; otherwise no NULL, no mask.
	if !hasNull && (float || ca.Valid == nil && cb.Valid == nil) {
		out.Valid = nil
	}
	return out
}

// sameCells marks the rows where both inputs hold NULL: no difference,
// although NULL − NULL is NULL.
func sameCells(ca, cb *pyframe.Column, match []int) []bool {
	out := make([]bool, len(match))
	for i, j := range match {
		out[i] = j >= 0 && ca.IsNull(i) && cb.IsNull(j)
	}
	return out
}

// keptRows lists the rows to write: all, or with drop those where some
// difference is neither 0 nor NULL on both sides (a row that the second
// input lacks is kept).
func keptRows(cols []*pyframe.Column, same [][]bool, n int, drop bool) []int {
	var keep []int
	for i := 0; i < n; i++ {
		if drop && noDifference(cols, same, i) {
			continue
		}
		keep = append(keep, i)
	}
	return keep
}

func noDifference(cols []*pyframe.Column, same [][]bool, i int) bool {
	for k, c := range cols {
		switch {
		case same[k][i]:
		case c.IsNull(i):
			return false
		case c.Type == pyframe.Float64 && c.FloatVals[i] != 0 || c.Type != pyframe.Float64 && c.IntVals[i] != 0:
			return false
		}
	}
	return true
}

// assembleDiff builds the output frame from the kept rows: [Rank,] the
// differences, then a's index columns.
func assembleDiff(a *pyframe.Frame, cols []*pyframe.Column, keep []int, rank bool) *pyframe.Frame {
	out := &pyframe.Frame{Index: a.Index, IndexCols: a.IndexCols, RangeName: a.RangeName}
	if rank {
		out.Cols = append(out.Cols, takeRows(a.Find("Rank"), keep))
	}
	for _, c := range cols {
		out.Cols = append(out.Cols, takeRows(c, keep))
	}
	for _, c := range indexColumns(a) {
		out.Cols = append(out.Cols, takeRows(c, keep))
	}
	if a.Index == pyframe.RangeIndex && len(keep) != a.Rows() {
		// Dropping rows leaves labels that are no longer 0..n-1.
		out.Index, out.IndexCols = pyframe.LevelIndex, []string{pyframe.LevelIndexName}
		out.Cols = append(out.Cols, takeRows(positions(a.Rows()), keep))
		out.Cols[len(out.Cols)-1].Name = pyframe.LevelIndexName
	}
	return out
}

// takeRows copies rows idx of c.
func takeRows(c *pyframe.Column, idx []int) *pyframe.Column {
	out := &pyframe.Column{Name: c.Name, Type: c.Type}
	if c.Valid != nil {
		out.Valid = make([]bool, len(idx))
	}
	for k, i := range idx {
		if c.Valid != nil {
			out.Valid[k] = c.Valid[i]
		}
		switch c.Type {
		case pyframe.Float64:
			out.FloatVals = append(out.FloatVals, c.FloatVals[i])
		case pyframe.String:
			out.Strs = append(out.Strs, c.Strs[i])
		case pyframe.ListInt64:
			out.Lists = append(out.Lists, c.Lists[i])
		case pyframe.Null:
		default:
			out.IntVals = append(out.IntVals, c.IntVals[i])
		}
	}
	if c.Type == pyframe.Null && out.Valid == nil {
		out.Valid = make([]bool, len(idx))
	}
	return out
}

// DiffFiles is the files table of a diff: File1 and File2 by Rank (a
// left join on the first directory's ranks), index a RangeIndex named Rank.
func DiffFiles(a, b *pyframe.Frame) (*pyframe.Frame, error) {
	fa, fb := a.Find("File"), b.Find("File")
	if fa == nil || fb == nil || fa.Type != pyframe.String || fb.Type != pyframe.String {
		return nil, fmt.Errorf("files: no File column")
	}
	n := a.Rows()
	f1 := &pyframe.Column{Name: "File1", Type: pyframe.String, Strs: append([]string(nil), fa.Strs...)}
	f2 := &pyframe.Column{Name: "File2", Type: pyframe.String, Strs: make([]string, n), Valid: make([]bool, n)}
	missing := false
	for i := 0; i < n; i++ {
		if i < len(fb.Strs) && !fb.IsNull(i) {
			f2.Strs[i], f2.Valid[i] = fb.Strs[i], true
		} else {
			missing = true
		}
	}
	if !missing {
		f2.Valid = nil
	}
	return &pyframe.Frame{Cols: []*pyframe.Column{f1, f2}, Index: pyframe.RangeIndex, RangeName: "Rank"}, nil
}
