package recipe

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// ConcatRanks appends a Rank column (int64, last before the index) to
// frames[r] for every rank r and concatenates them in Rank order, each
// keeping its own index (docs/recipes.md §1.3). Nil frames are skipped.
// Named indexes stay named; range and level indexes become the
// __index_level_0__ column of per-rank labels, except that a single
// RangeIndex frame stays a RangeIndex (as pandas' concat leaves it). A
// column that is integer in one frame and float in another becomes float,
// as in pandas.
func ConcatRanks(frames []*pyframe.Frame) *pyframe.Frame { return concatRanks(frames, false) }

// ConcatRanksConsume is ConcatRanks for frames nothing reads afterwards
// (the parts of a trace reduce): each frame's data columns are dropped as
// soon as they are copied, so that the output and its inputs are not all
// held at once, only the output and one column of the inputs.
func ConcatRanksConsume(frames []*pyframe.Frame) *pyframe.Frame { return concatRanks(frames, true) }

func concatRanks(frames []*pyframe.Frame, consume bool) *pyframe.Frame {
	var first *pyframe.Frame
	var ranks []int
	lens := make([]int, len(frames)) // row counts, before any column is dropped
	for r, f := range frames {
		if f != nil {
			if first == nil {
				first = f
			}
			ranks, lens[r] = append(ranks, r), f.Rows()
		}
	}
	if first == nil {
		return nil
	}
	nData := dataCols(first)
	out := &pyframe.Frame{Index: first.Index, IndexCols: first.IndexCols, RangeName: first.RangeName}
	// The Rank and index columns, which read no data column, are made
	// while the data columns are copied (one at a time, as consume wants).
	total := 0
	for _, r := range ranks {
		total += lens[r]
	}
	rank := &pyframe.Column{Name: "Rank", Type: pyframe.Int64, IntVals: make([]int64, 0, total)}
	index := &pyframe.Frame{Index: out.Index, IndexCols: out.IndexCols, RangeName: out.RangeName}
	levels := make([][]int64, len(frames)) // the stored labels, looked up before the copies change Cols
	for _, r := range ranks {
		if frames[r].Index == pyframe.LevelIndex {
			levels[r] = frames[r].Find(pyframe.LevelIndexName).IntVals
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for _, r := range ranks {
			for i := 0; i < lens[r]; i++ {
				rank.IntVals = append(rank.IntVals, int64(r))
			}
		}
		concatIndex(index, frames, levels, ranks, lens, nData, total)
	})
	for c := 0; c < nData; c++ {
		out.Cols = append(out.Cols, concatCol(frames, ranks, c, consume))
	}
	wg.Wait()
	out.Cols = append(append(out.Cols, rank), index.Cols...)
	out.Index, out.IndexCols, out.RangeName = index.Index, index.IndexCols, index.RangeName
	return out
}

// concatIndex appends the concatenated index of the frames of ranks
// (lens: their row counts, total in all; levels: the labels of those with
// a LevelIndex) to out.
func concatIndex(out *pyframe.Frame, frames []*pyframe.Frame, levels [][]int64, ranks, lens []int, nData, total int) {
	first := frames[ranks[0]]
	switch first.Index {
	case pyframe.NamedIndex:
		for c := nData; c < len(first.Cols); c++ {
			out.Cols = append(out.Cols, concatCol(frames, ranks, c, false))
		}
	case pyframe.RangeIndex, pyframe.LevelIndex:
		if first.Index == pyframe.RangeIndex && len(ranks) == 1 {
			return
		}
		lv := &pyframe.Column{Name: pyframe.LevelIndexName, Type: pyframe.Int64, IntVals: make([]int64, 0, total)}
		for _, r := range ranks {
			if frames[r].Index == pyframe.LevelIndex {
				lv.IntVals = append(lv.IntVals, levels[r]...)
				continue
			}
			for i := range lens[r] {
				lv.IntVals = append(lv.IntVals, int64(i))
			}
		}
		out.Cols = append(out.Cols, lv)
		out.Index, out.IndexCols, out.RangeName = pyframe.LevelIndex, []string{pyframe.LevelIndexName}, ""
	}
}

// Labels returns a frame's row labels: 0..n-1 for a RangeIndex or no
// index, the stored labels for a LevelIndex.
func Labels(f *pyframe.Frame) []int64 { return labels(f, f.Rows()) }

// labels is Labels for a frame of n rows.
func labels(f *pyframe.Frame, n int) []int64 {
	if f.Index == pyframe.LevelIndex {
		return f.Find(pyframe.LevelIndexName).IntVals
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

// dataCols is the number of columns before the stored index.
func dataCols(f *pyframe.Frame) int {
	switch f.Index {
	case pyframe.NamedIndex, pyframe.LevelIndex:
		return len(f.Cols) - len(f.IndexCols)
	}
	return len(f.Cols)
}

// concatCol concatenates column c of the frames of ranks, into columns
// sized once; consume replaces each input column by an empty one once it
// is copied.
func concatCol(frames []*pyframe.Frame, ranks []int, c int, consume bool) *pyframe.Column {
	toFloat := false
	k0 := frames[ranks[0]].Cols[c].Type
	total := 0
	for _, r := range ranks {
		if k := frames[r].Cols[c].Type; k != k0 {
			toFloat = true
		}
		total += frames[r].Cols[c].Len()
	}
	out := &pyframe.Column{Name: frames[ranks[0]].Cols[c].Name, Type: k0, Cats: frames[ranks[0]].Cols[c].Cats}
	if toFloat {
		out.Type = pyframe.Float64
	}
	pyframe.Reserve(out, total)
	for _, r := range ranks {
		src := frames[r].Cols[c]
		if toFloat {
			src = src.AsFloat()
		}
		pyframe.AppendCol(out, src)
		if consume {
			frames[r].Cols[c] = &pyframe.Column{Name: src.Name, Type: src.Type}
		}
	}
	return out
}

// AggExtra is an extra all_stats column computed per key from the rows of
// the concatenated per-rank frame; ok false gives NULL. It is rounded with
// the rest.
type AggExtra struct {
	Name string
	Func func(rank *pyframe.Frame, rows []int) (v float64, ok bool)
}

// AggNames are the columns Aggregate writes before the extras and index.
var AggNames = []string{"Count", "Mean", "Std (approx)", "Min", "Q1 (approx)", "Median (approx)", "Q3 (approx)", "Max", "Sum"}

// Aggregate is all_stats (docs/recipes.md §1.7): the concatenated, rounded
// per-rank describe frames grouped by their index (sorted): Count = ΣCount,
// Sum = ΣSum, Mean = Sum/Count, Std (approx) = mean of the non-NULL Stds,
// Min = min Min, Q1 (approx) = min Q1, Median (approx) = median of the
// Medians, Q3 (approx) = max Q3, Max = max Max; then the extras; rounded.
func Aggregate(rank *pyframe.Frame, extras ...AggExtra) (*pyframe.Frame, error) {
	keys := make([]*pyframe.Column, len(rank.IndexCols))
	for k, name := range rank.IndexCols {
		if keys[k] = rank.Find(name); keys[k] == nil {
			return nil, fmt.Errorf("aggregate: no index column %q", name)
		}
	}
	src := map[string]*pyframe.Column{}
	for _, name := range pyframe.StatNames {
		if src[name] = rank.Find(name); src[name] == nil {
			return nil, fmt.Errorf("aggregate: no column %q", name)
		}
	}
	order, starts := pyframe.GroupRows(keys, src["Count"])
	ng := len(starts) - 1
	cols := pyframe.StatColumns(AggNames, ng, func(name string) pyframe.Kind { return src[name].Type }, len(extras)+len(keys))
	for _, e := range extras {
		cols = append(cols, pyframe.NewColumn(e.Name, pyframe.Float64, ng))
	}
	for g := 0; g < ng; g++ {
		rows := order[starts[g]:starts[g+1]]
		aggregateGroup(cols, g, src, rows)
		for x, e := range extras {
			c := cols[len(AggNames)+x]
			if v, ok := e.Func(rank, rows); ok {
				c.FloatVals[g] = v
			} else {
				c.SetNull(g)
			}
		}
	}
	firsts := make([]int, ng)
	for g := range firsts {
		firsts[g] = order[starts[g]]
	}
	for _, key := range keys {
		cols = append(cols, key.Pick(firsts))
	}
	f := &pyframe.Frame{Cols: cols, Index: pyframe.NamedIndex, IndexCols: rank.IndexCols}
	pyframe.RoundFrame(f)
	return f, nil
}

// aggregateGroup fills row g of the all_stats columns.
func aggregateGroup(cols []*pyframe.Column, g int, src map[string]*pyframe.Column, rows []int) {
	var count int64
	for _, i := range rows {
		count += src["Count"].IntVals[i]
	}
	cols[0].IntVals[g] = count
	_, _, sum := pyframe.MinMaxSum(src["Sum"], rows)
	cols[8].Set(g, sum)
	s := sum.F
	switch src["Sum"].Type {
	case pyframe.Float64:
	case pyframe.Uint64:
		s = float64(uint64(sum.I))
	default:
		s = float64(sum.I)
	}
	cols[1].FloatVals[g] = s / float64(count)
	if m, ok := meanValid(src["Std"], rows); ok {
		cols[2].FloatVals[g] = m
	} else {
		cols[2].SetNull(g)
	}
	lo, _, _ := pyframe.MinMaxSum(src["Min"], rows)
	_, hi, _ := pyframe.MinMaxSum(src["Max"], rows)
	cols[3].Set(g, lo)
	cols[7].Set(g, hi)
	cols[4].FloatVals[g] = extreme(src["Q1"], rows, math.Min, math.Inf(1))
	cols[5].FloatVals[g] = medianValid(src["Median"], rows)
	cols[6].FloatVals[g] = extreme(src["Q3"], rows, math.Max, math.Inf(-1))
}

// meanValid is pandas' mean of the non-NULL values (Kahan sum in row
// order); ok is false when there are none.
func meanValid(c *pyframe.Column, rows []int) (float64, bool) {
	var sum, comp float64
	n := 0
	for _, i := range rows {
		if c.IsNull(i) {
			continue
		}
		y := c.Float(i) - comp
		t := sum + y
		comp = t - sum - y
		sum = t
		n++
	}
	return sum / float64(n), n > 0
}

// medianValid is the median of the non-NULL values (the middle two
// averaged); NaN when there are none.
func medianValid(c *pyframe.Column, rows []int) float64 {
	var v []float64
	for _, i := range rows {
		if !c.IsNull(i) {
			v = append(v, c.Float(i))
		}
	}
	if len(v) == 0 {
		return math.NaN()
	}
	sort.Float64s(v)
	m := len(v) / 2
	if len(v)%2 == 1 {
		return v[m]
	}
	return (v[m-1] + v[m]) / 2
}

// extreme folds the non-NULL values with f from init.
func extreme(c *pyframe.Column, rows []int, f func(a, b float64) float64, init float64) float64 {
	out := init
	for _, i := range rows {
		if !c.IsNull(i) {
			out = f(out, c.Float(i))
		}
	}
	return out
}

// FilesFrame is files.parquet (docs/recipes.md §1.3): one string column File
// with the stems in Rank order, and a RangeIndex named Rank.
func FilesFrame(stems []string) *pyframe.Frame {
	return &pyframe.Frame{Cols: []*pyframe.Column{pyframe.NewStrings("File", append([]string(nil), stems...), nil)}, Index: pyframe.RangeIndex, RangeName: "Rank"}
}

// Stems lists the parts' stems (Rank order).
func Stems(parts []*Part) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.Stem
	}
	return out
}

// The frame names a summary mapper returns (see StatsPart).
const (
	FrameStats         = "stats"
	FrameStatsByDevice = "stats_by_device"
)

// StatsPart is a summary mapper's result: the describe frame, and the
// by-device one when byDevice is set.
func StatsPart(stats, byDevice *pyframe.Frame) *Part {
	p := &Part{Frames: map[string]*pyframe.Frame{FrameStats: stats}}
	if byDevice != nil {
		p.Frames[FrameStatsByDevice] = byDevice
	}
	return p
}

// StatsReduce is the "stats trio" reducer of the summary recipes
// (docs/recipes.md §2): rank_stats (the parts' "stats" frames with Rank),
// rank_stats_by_device when the parts carry "stats_by_device",
// all_stats (Aggregate over rank_stats) and files.
func StatsReduce(_ context.Context, parts []*Part, _ *Options, _ any) (*Output, error) {
	return statsTrio(parts, false)
}

// StatsReduceConsume is StatsReduce for the summary recipes' runs, whose
// parts nothing reads afterwards: each part's statistics are dropped as they
// are copied into rank_stats (concatRanksConsume), so that a run over many
// reports of a million names each does not hold every rank's frame twice.
func StatsReduceConsume(_ context.Context, parts []*Part, _ *Options, _ any) (*Output, error) {
	return statsTrio(parts, true)
}

func statsTrio(parts []*Part, consume bool, extras ...AggExtra) (*Output, error) {
	var rankT, allT Table
	var spills *spillSet
	if srcs, ok, err := spilledSources(parts, consume, extras); err != nil {
		return nil, err
	} else if ok {
		if rankT, allT, err = statsStream(srcs); err != nil {
			return nil, err
		}
		spills = &spillSet{}
		for _, p := range parts {
			if p.spilled != nil {
				spills.add(p.spilled)
				p.spilled = nil
			}
		}
	} else {
		rank := concatRanks(PartFrames(parts, FrameStats), consume)
		if rank == nil {
			return nil, ErrNoData
		}
		all, err := Aggregate(rank, extras...)
		if err != nil {
			return nil, err
		}
		rankT, allT = Table{Name: "rank_stats", Frame: rank}, Table{Name: "all_stats", Frame: all}
	}
	out := &Output{Tables: []Table{rankT}, spills: spills}
	if dev := ConcatRanks(PartFrames(parts, FrameStatsByDevice)); dev != nil {
		out.Tables = append(out.Tables, Table{Name: "rank_stats_by_device", Frame: dev})
	}
	out.Tables = append(out.Tables, allT, Table{Name: "files", Frame: FilesFrame(Stems(parts))})
	return out, nil
}

// spilledSources are the sources of the streaming reduce when some part
// was spilled (a consuming reduce without extras, every frame
// streamable); ok is false otherwise, the spilled frames then read back.
func spilledSources(parts []*Part, consume bool, extras []AggExtra) ([]*rankSource, bool, error) {
	some := false
	for _, p := range parts {
		some = some || p.spilled != nil
	}
	if !some {
		return nil, false, nil
	}
	if !consume || len(extras) > 0 {
		return nil, false, unspill(parts)
	}
	return rankSources(parts)
}

// PartFrames is each part's frame named name (nil where it has none).
func PartFrames(parts []*Part, name string) []*pyframe.Frame {
	out := make([]*pyframe.Frame, len(parts))
	for i, p := range parts {
		out[i] = p.Frames[name]
	}
	return out
}

// RanksAndFiles is the output of the reducers without statistics over all
// ranks: table (the parts' frame named frame, with Rank) and files.
func RanksAndFiles(parts []*Part, frame, table string) *Output {
	return &Output{Tables: []Table{
		{Name: table, Frame: ConcatRanks(PartFrames(parts, frame))},
		{Name: "files", Frame: FilesFrame(Stems(parts))},
	}}
}

// StatsReduceWith is StatsReduce with extra all_stats columns.
func StatsReduceWith(extras ...AggExtra) func(context.Context, []*Part, *Options, any) (*Output, error) {
	return func(_ context.Context, parts []*Part, _ *Options, _ any) (*Output, error) {
		return statsTrio(parts, false, extras...)
	}
}

// AnalysisReduce is the reducer of the heatmaps and rule recipes: analysis (the per-rank tables with
// Rank) and files (docs/recipes.md §2.13).
func AnalysisReduce(_ context.Context, parts []*Part, _ *Options, _ any) (*Output, error) {
	return RanksAndFiles(parts, "analysis", "analysis"), nil
}
