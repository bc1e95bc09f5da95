package recipe

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// spillRecipe is a summary recipe over synthetic parts: rank Pos describes
// durations of texts drawn from a shared pool (so that ranks share some
// names and not others), int64 durations on even ranks and float64 on odd
// ones (rank_stats upcasts), with names of one range (a NULL Std). Its
// reduce records how many parts still held their stats frame in memory.
func spillRecipe(held *int) *Recipe {
	var mu sync.Mutex
	return &Recipe{Name: "spill_test", SpillStats: true,
		Map: func(_ context.Context, r *Report, _ *Options, _ any) (*Part, error) {
			rng := rand.New(rand.NewPCG(uint64(r.Pos), 7))
			n := 40 + 13*r.Pos
			text := make([]string, n)
			ints := make([]int64, n)
			floats := make([]float64, n)
			for i := range text {
				text[i] = fmt.Sprintf("op %03d", rng.IntN(60))
				ints[i] = 1 + rng.Int64N(1000)
				floats[i] = float64(ints[i]) + 0.25
			}
			vals := pyframe.NewInts("duration", pyframe.Int64, ints, nil)
			if r.Pos%2 == 1 {
				vals = pyframe.NewFloats("duration", floats, nil)
			}
			return StatsPart(pyframe.Describe([]*pyframe.Column{pyframe.NewStrings("Text", text, nil)}, vals), nil), nil
		},
		Reduce: func(ctx context.Context, parts []*Part, o *Options, shared any) (*Output, error) {
			mu.Lock()
			for _, p := range parts {
				if p.Frames[FrameStats] != nil {
					*held++
				}
			}
			mu.Unlock()
			return StatsReduceConsume(ctx, parts, o, shared)
		}}
}

// TestSpilledStatsReduce: with SpillParts, no part's stats frame is held
// until the reduce (each was spilled, and the spill file is gone from the
// directory at once), and the output files are byte for byte those of the
// in-memory reduce: rank_stats streamed in chunks cut across the parts,
// all_stats merged in batches cut between groups, the CSV twins, the
// charts' rows (Output.Rows).
func TestSpilledStatsReduce(t *testing.T) {
	oldChunk, oldBatch := spillChunk, aggBatch
	spillChunk, aggBatch = 7, 11 // chunks and batches cut everywhere
	defer func() { spillChunk, aggBatch = oldChunk, oldBatch }()
	inputs := testutil.Links(t, "rank0@a", "rank0@b", "rank0@c", "rank0@d", "rank0@e")
	write := func(spill bool) (string, *Result, int) {
		held := 0
		o := Defaults()
		o.Input, o.Workers, o.CSV, o.SpillParts = inputs, 2, true, spill
		o.SpillDir = t.TempDir()
		res, err := Run(context.Background(), spillRecipe(&held), o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if left, _ := os.ReadDir(o.SpillDir); len(left) != 0 {
			t.Errorf("spill %v: %d files left in the spill directory", spill, len(left))
		}
		o.Output = filepath.Join(t.TempDir(), "out")
		dir, err := res.Write(nil)
		if err != nil {
			t.Fatal(err)
		}
		return dir, res, held
	}
	var spilled atomic.Int64 // the maps spill on their own goroutines
	spillHook = func(*Part) { spilled.Add(1) }
	defer func() { spillHook = nil }()
	memDir, memRes, memHeld := write(false)
	if memHeld != len(inputs) || spilled.Load() != 0 {
		t.Fatalf("in memory: %d parts held, %d spilled; want %d, 0", memHeld, spilled.Load(), len(inputs))
	}
	spDir, spRes, spHeld := write(true)
	defer spRes.Close()
	if spHeld != 0 || spilled.Load() != int64(len(inputs)) {
		t.Errorf("spilled: %d parts held in memory at the reduce, %d spilled; want 0, %d", spHeld, spilled.Load(), len(inputs))
	}
	for _, f := range []string{"rank_stats", "all_stats", "files"} {
		for _, ext := range []string{".parquet", ".csv"} {
			a, errA := os.ReadFile(filepath.Join(memDir, f+ext))
			b, errB := os.ReadFile(filepath.Join(spDir, f+ext))
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s%s: spilled run differs from the in-memory one (%d vs %d bytes)", f, ext, len(b), len(a))
			}
		}
	}
	keep := func(f *pyframe.Frame, i int) bool { return f.Find("Text").Strs[i] >= "op 050" }
	want, wn, _ := memRes.Output.Rows("rank_stats", keep)
	got, gn, err := spRes.Output.Rows("rank_stats", keep)
	if err != nil || gn != wn || got.Rows() != want.Rows() || got.Rows() == 0 {
		t.Fatalf("Rows: %v, %d of %d rows; want %d of %d", err, got.Rows(), gn, want.Rows(), wn)
	}
	for c := range want.Cols {
		for i := range want.Rows() {
			if fmt.Sprint(cell(want.Cols[c], i)) != fmt.Sprint(cell(got.Cols[c], i)) {
				t.Fatalf("Rows: column %s row %d: %v, want %v", want.Cols[c].Name, i, cell(got.Cols[c], i), cell(want.Cols[c], i))
			}
		}
	}
}

// cell is a cell's value for comparison (nil when NULL).
func cell(c *pyframe.Column, i int) any {
	switch {
	case c.IsNull(i):
		return nil
	case c.Type == pyframe.String:
		return c.Strs[i]
	case c.Type == pyframe.Float64:
		return c.FloatVals[i]
	}
	return c.IntVals[i]
}
