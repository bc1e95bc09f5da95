package recipe

import (
	"context"
	"fmt"
	"math"
	"sort"
)

// ConcatRanks appends a Rank column (int64, last before the index) to
// frames[r] for every rank r and concatenates them in Rank order, each
// keeping its own index (docs/recipes.md §1.3). Nil frames are skipped.
// Named indexes stay named; range and level indexes become the
// __index_level_0__ column of per-rank labels, except that a single
// RangeIndex frame stays a RangeIndex (as pandas' concat leaves it). A
// column that is integer in one frame and float in another becomes float,
// as in pandas.
func ConcatRanks(frames []*Frame) *Frame { return concatRanks(frames, false) }

// concatRanksConsume is ConcatRanks for frames nothing reads afterwards
// (the parts of a trace reduce): each frame's data columns are dropped as
// soon as they are copied, so that the output and its inputs are not all
// held at once, only the output and one column of the inputs.
func concatRanksConsume(frames []*Frame) *Frame { return concatRanks(frames, true) }

func concatRanks(frames []*Frame, consume bool) *Frame {
	var first *Frame
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
	out := &Frame{Index: first.Index, IndexCols: first.IndexCols, RangeName: first.RangeName}
	for c := 0; c < nData; c++ {
		out.Cols = append(out.Cols, concatCol(frames, ranks, c, consume))
	}
	rank := &Column{Name: "Rank", Kind: Int64, Ints: make([]int64, 0, out.Cols[0].Len())}
	for _, r := range ranks {
		for i := 0; i < lens[r]; i++ {
			rank.Ints = append(rank.Ints, int64(r))
		}
	}
	out.Cols = append(out.Cols, rank)
	concatIndex(out, frames, ranks, lens, nData)
	return out
}

// concatIndex appends the concatenated index of the frames of ranks
// (lens: their row counts) to out.
func concatIndex(out *Frame, frames []*Frame, ranks, lens []int, nData int) {
	first := frames[ranks[0]]
	switch first.Index {
	case NamedIndex:
		for c := nData; c < len(first.Cols); c++ {
			out.Cols = append(out.Cols, concatCol(frames, ranks, c, false))
		}
	case RangeIndex, LevelIndex:
		if first.Index == RangeIndex && len(ranks) == 1 {
			return
		}
		lv := &Column{Name: LevelIndexName, Kind: Int64}
		for _, r := range ranks {
			lv.Ints = append(lv.Ints, labels(frames[r], lens[r])...)
		}
		out.Cols = append(out.Cols, lv)
		out.Index, out.IndexCols, out.RangeName = LevelIndex, []string{LevelIndexName}, ""
	}
}

// Labels returns a frame's row labels: 0..n-1 for a RangeIndex or no
// index, the stored labels for a LevelIndex.
func Labels(f *Frame) []int64 { return labels(f, f.Rows()) }

// labels is Labels for a frame of n rows.
func labels(f *Frame, n int) []int64 {
	if f.Index == LevelIndex {
		return f.Col(LevelIndexName).Ints
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

// dataCols is the number of columns before the stored index.
func dataCols(f *Frame) int {
	switch f.Index {
	case NamedIndex, LevelIndex:
		return len(f.Cols) - len(f.IndexCols)
	}
	return len(f.Cols)
}

// concatCol concatenates column c of the frames of ranks, into columns
// sized once; consume replaces each input column by an empty one once it
// is copied.
func concatCol(frames []*Frame, ranks []int, c int, consume bool) *Column {
	toFloat := false
	k0 := frames[ranks[0]].Cols[c].Kind
	total := 0
	for _, r := range ranks {
		if k := frames[r].Cols[c].Kind; k != k0 {
			toFloat = true
		}
		total += frames[r].Cols[c].Len()
	}
	out := &Column{Name: frames[ranks[0]].Cols[c].Name, Kind: k0, Cats: frames[ranks[0]].Cols[c].Cats}
	if toFloat {
		out.Kind = Float64
	}
	reserve(out, total)
	for _, r := range ranks {
		src := frames[r].Cols[c]
		if toFloat {
			src = src.asFloat()
		}
		appendCol(out, src)
		if consume {
			frames[r].Cols[c] = &Column{Name: src.Name, Kind: src.Kind}
		}
	}
	return out
}

// AggExtra is an extra all_stats column computed per key from the rows of
// the concatenated per-rank frame; ok false gives NULL. It is rounded with
// the rest.
type AggExtra struct {
	Name string
	Func func(rank *Frame, rows []int) (v float64, ok bool)
}

// AggNames are the columns Aggregate writes before the extras and index.
var AggNames = []string{"Count", "Mean", "Std (approx)", "Min", "Q1 (approx)", "Median (approx)", "Q3 (approx)", "Max", "Sum"}

// Aggregate is all_stats (docs/recipes.md §1.7): the concatenated, rounded
// per-rank describe frames grouped by their index (sorted): Count = ΣCount,
// Sum = ΣSum, Mean = Sum/Count, Std (approx) = mean of the non-NULL Stds,
// Min = min Min, Q1 (approx) = min Q1, Median (approx) = median of the
// Medians, Q3 (approx) = max Q3, Max = max Max; then the extras; rounded.
func Aggregate(rank *Frame, extras ...AggExtra) (*Frame, error) {
	keys := make([]*Column, len(rank.IndexCols))
	for k, name := range rank.IndexCols {
		if keys[k] = rank.Col(name); keys[k] == nil {
			return nil, fmt.Errorf("aggregate: no index column %q", name)
		}
	}
	src := map[string]*Column{}
	for _, name := range StatNames {
		if src[name] = rank.Col(name); src[name] == nil {
			return nil, fmt.Errorf("aggregate: no column %q", name)
		}
	}
	order, starts := groupRows(keys, src["Count"])
	ng := len(starts) - 1
	cols := statColumns(AggNames, ng, func(name string) Kind { return src[name].Kind }, len(extras)+len(keys))
	for _, e := range extras {
		cols = append(cols, newColumn(e.Name, Float64, ng))
	}
	for g := 0; g < ng; g++ {
		rows := order[starts[g]:starts[g+1]]
		aggregateGroup(cols, g, src, rows)
		for x, e := range extras {
			c := cols[len(AggNames)+x]
			if v, ok := e.Func(rank, rows); ok {
				c.Floats[g] = v
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
	f := &Frame{Cols: cols, Index: NamedIndex, IndexCols: rank.IndexCols}
	RoundFrame(f)
	return f, nil
}

// aggregateGroup fills row g of the all_stats columns.
func aggregateGroup(cols []*Column, g int, src map[string]*Column, rows []int) {
	var count int64
	for _, i := range rows {
		count += src["Count"].Ints[i]
	}
	cols[0].Ints[g] = count
	_, _, sum := minMaxSum(src["Sum"], rows)
	cols[8].set(g, sum)
	s := sum.f
	switch src["Sum"].Kind {
	case Float64:
	case Uint64:
		s = float64(uint64(sum.i))
	default:
		s = float64(sum.i)
	}
	cols[1].Floats[g] = s / float64(count)
	if m, ok := meanValid(src["Std"], rows); ok {
		cols[2].Floats[g] = m
	} else {
		cols[2].SetNull(g)
	}
	lo, _, _ := minMaxSum(src["Min"], rows)
	_, hi, _ := minMaxSum(src["Max"], rows)
	cols[3].set(g, lo)
	cols[7].set(g, hi)
	cols[4].Floats[g] = extreme(src["Q1"], rows, math.Min, math.Inf(1))
	cols[5].Floats[g] = medianValid(src["Median"], rows)
	cols[6].Floats[g] = extreme(src["Q3"], rows, math.Max, math.Inf(-1))
}

// meanValid is pandas' mean of the non-NULL values (Kahan sum in row
// order); ok is false when there are none.
func meanValid(c *Column, rows []int) (float64, bool) {
	var sum, comp float64
	n := 0
	for _, i := range rows {
		if c.IsNull(i) {
			continue
		}
		y := c.float(i) - comp
		t := sum + y
		comp = t - sum - y
		sum = t
		n++
	}
	return sum / float64(n), n > 0
}

// medianValid is the median of the non-NULL values (the middle two
// averaged); NaN when there are none.
func medianValid(c *Column, rows []int) float64 {
	var v []float64
	for _, i := range rows {
		if !c.IsNull(i) {
			v = append(v, c.float(i))
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
func extreme(c *Column, rows []int, f func(a, b float64) float64, init float64) float64 {
	out := init
	for _, i := range rows {
		if !c.IsNull(i) {
			out = f(out, c.float(i))
		}
	}
	return out
}

// FilesFrame is files.parquet (docs/recipes.md §1.3): one string column File
// with the stems in Rank order, and a RangeIndex named Rank.
func FilesFrame(stems []string) *Frame {
	return &Frame{Cols: []*Column{NewStrings("File", append([]string(nil), stems...), nil)}, Index: RangeIndex, RangeName: "Rank"}
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
func StatsPart(stats, byDevice *Frame) *Part {
	p := &Part{Frames: map[string]*Frame{FrameStats: stats}}
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

// statsReduceConsume is StatsReduce for the summary recipes' runs, whose
// parts nothing reads afterwards: each part's statistics are dropped as they
// are copied into rank_stats (concatRanksConsume), so that a run over many
// reports of a million names each does not hold every rank's frame twice.
func statsReduceConsume(_ context.Context, parts []*Part, _ *Options, _ any) (*Output, error) {
	return statsTrio(parts, true)
}

func statsTrio(parts []*Part, consume bool, extras ...AggExtra) (*Output, error) {
	rank := concatRanks(partFrames(parts, FrameStats), consume)
	if rank == nil {
		return nil, ErrNoData
	}
	all, err := Aggregate(rank, extras...)
	if err != nil {
		return nil, err
	}
	out := &Output{Tables: []Table{{Name: "rank_stats", Frame: rank}}}
	if dev := ConcatRanks(partFrames(parts, FrameStatsByDevice)); dev != nil {
		out.Tables = append(out.Tables, Table{Name: "rank_stats_by_device", Frame: dev})
	}
	out.Tables = append(out.Tables,
		Table{Name: "all_stats", Frame: all},
		Table{Name: "files", Frame: FilesFrame(Stems(parts))})
	return out, nil
}

// partFrames is each part's frame named name (nil where it has none).
func partFrames(parts []*Part, name string) []*Frame {
	out := make([]*Frame, len(parts))
	for i, p := range parts {
		out[i] = p.Frames[name]
	}
	return out
}

// ranksAndFiles is the output of the reducers without statistics over all
// ranks: table (the parts' frame named frame, with Rank) and files.
func ranksAndFiles(parts []*Part, frame, table string) *Output {
	return &Output{Tables: []Table{
		{Name: table, Frame: ConcatRanks(partFrames(parts, frame))},
		{Name: "files", Frame: FilesFrame(Stems(parts))},
	}}
}

// StatsReduceWith is StatsReduce with extra all_stats columns.
func StatsReduceWith(extras ...AggExtra) func(context.Context, []*Part, *Options, any) (*Output, error) {
	return func(_ context.Context, parts []*Part, _ *Options, _ any) (*Output, error) {
		return statsTrio(parts, false, extras...)
	}
}
