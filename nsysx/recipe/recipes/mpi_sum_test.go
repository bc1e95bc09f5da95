package recipes

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// runFixtures runs recipe name over testdata/fixtures/<f>.sqlite files.
func runFixtures(t *testing.T, name string, o *recipe.Options, fixtures ...string) (*recipe.Result, error) {
	t.Helper()
	r, err := recipe.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fixtures {
		o.Input = append(o.Input, filepath.Join(testutil.Root(), "testdata", "fixtures", f+".sqlite"))
	}
	return recipe.Run(context.Background(), r, o, nil)
}

// The fixture's values (make_recipe_fixtures.py), worked out by hand:
// rank a: Allreduce 60, 30, 20; Init 90; Send 50, 10 (the negative-start
// Send and the zero-length Recv are dropped); Wait 40. Rank b (no
// start/wait table): Allreduce 50; Init 60; Recv 80, 10.
func TestMPISumFixture(t *testing.T) {
	res, err := runFixtures(t, "mpi_sum", recipe.Defaults(), "recipe_mpi_b", "recipe_mpi_a")
	if err != nil {
		t.Fatal(err)
	}
	wantRows(t, "rank_stats", res.Output.Table("rank_stats"),
		"3|36.7|20.8|20|25|30|45|60|110|0|MPI_Allreduce|",
		"1|90|-|90|90|90|90|90|90|0|MPI_Init|",
		"2|30|28.3|10|20|30|40|50|60|0|MPI_Send|",
		"1|40|-|40|40|40|40|40|40|0|MPI_Wait|",
		"1|50|-|50|50|50|50|50|50|1|MPI_Allreduce|",
		"1|60|-|60|60|60|60|60|60|1|MPI_Init|",
		"2|45|49.5|10|27.5|45|62.5|80|90|1|MPI_Recv|")
	// Std (approx) is the mean of the non-NULL Stds; Median (approx) the
	// median of the Medians.
	wantRows(t, "all_stats", res.Output.Table("all_stats"),
		"4|40|20.8|20|25|40|50|60|160|MPI_Allreduce|",
		"2|75|-|60|60|75|90|90|150|MPI_Init|",
		"2|45|49.5|10|27.5|45|62.5|80|90|MPI_Recv|",
		"2|30|28.3|10|20|30|40|50|60|MPI_Send|",
		"1|40|-|40|40|40|40|40|40|MPI_Wait|")
	wantRows(t, "files", res.Output.Table("files"), "recipe_mpi_a|", "recipe_mpi_b|")
	if k := res.Output.Table("rank_stats").Find("Sum").Type; k != pyframe.Int64 {
		t.Errorf("Sum kind %v, want int64", k)
	}
	if got := res.Output.Table("rank_stats").IndexCols; len(got) != 1 || got[0] != "Text" {
		t.Errorf("index %v, want [Text]", got)
	}
}

// --filter-time 150/350 keeps whole rows with end ≥ 150 and start ≤ 350:
// rank a's Sends (100-150 touches) and the first Allreduce (300-360).
func TestMPISumFilterTime(t *testing.T) {
	o := recipe.Defaults()
	o.FilterTime = &recipe.TimeRange{Start: i64(150), End: i64(350)}
	res, err := runFixtures(t, "mpi_sum", o, "recipe_mpi_a")
	if err != nil {
		t.Fatal(err)
	}
	wantRows(t, "rank_stats", res.Output.Table("rank_stats"),
		"1|60|-|60|60|60|60|60|60|0|MPI_Allreduce|",
		"2|30|28.3|10|20|30|40|50|60|0|MPI_Send|")
}

// --filter-nvtx step: rank a's range [290,310] chains with the Allreduce
// at 300-360 only; rank b has no such range, so it fails and gets no Rank.
func TestMPISumFilterNVTX(t *testing.T) {
	o := recipe.Defaults()
	o.FilterNVTX = &recipe.NVTXRange{Range: "step"}
	var logs []string
	o.Log = func(s string) { logs = append(logs, s) }
	res, err := runFixtures(t, "mpi_sum", o, "recipe_mpi_a", "recipe_mpi_b")
	if err != nil {
		t.Fatal(err)
	}
	wantRows(t, "rank_stats", res.Output.Table("rank_stats"), "1|60|-|60|60|60|60|60|60|0|MPI_Allreduce|")
	wantRows(t, "files", res.Output.Table("files"), "recipe_mpi_a|")
	if len(res.Failed) != 1 || !errors.Is(res.Failed[0], composite.ErrFilter) || res.Failed[0].Err.Error() != "Range 'step' not found." {
		t.Errorf("failed %v, want rank b with Range 'step' not found.", res.Failed)
	}
	// Strict: the failed report fails the run.
	o = recipe.Defaults()
	o.FilterNVTX, o.Strict = &recipe.NVTXRange{Range: "step"}, true
	if _, err := runFixtures(t, "mpi_sum", o, "recipe_mpi_a", "recipe_mpi_b"); !errors.Is(err, composite.ErrFilter) {
		t.Errorf("strict: %v", err)
	}
	// No report with data: ErrNoData.
	o = recipe.Defaults()
	o.FilterNVTX = &recipe.NVTXRange{Range: "step"}
	if _, err := runFixtures(t, "mpi_sum", o, "recipe_mpi_b"); !errors.Is(err, recipe.ErrNoData) {
		t.Errorf("no data: %v", err)
	}
}

// mapMPISum (the tables grouped by textId with the reports' aggregation,
// merged by text in start order) gives the stats frame of the MPI
// composite's path (the four tables loaded, stacked, sorted by start and
// described by text), with and without the filters, on every MPI fixture.
func TestMPISumGroupsMatchComposite(t *testing.T) {
	window := recipe.Defaults()
	start, end := int64(120), int64(450)
	window.Start, window.End = &start, &end
	nvtx := recipe.Defaults()
	nvtx.FilterNVTX = &recipe.NVTXRange{Range: "step"}
	for _, f := range []string{"recipe_mpi_a", "recipe_mpi_b", "mpi_early", "mpi_late"} {
		for name, o := range map[string]*recipe.Options{"all": recipe.Defaults(), "window": window, "nvtx": nvtx} {
			path := filepath.Join(testutil.Root(), "testdata", "fixtures", f+".sqlite")
			open := func() *recipe.Report {
				p, err := nsysx.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { p.Close() })
				return &recipe.Report{Path: path, Stem: f, Profile: p}
			}
			want, werr := mapMPISumComposite(t.Context(), open(), o)
			got, gerr := mapMPISum(t.Context(), open(), o, nil)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Errorf("%s %s: error %v, want %v", f, name, gerr, werr)
				continue
			}
			if werr != nil || got == nil && want == nil {
				continue
			}
			if got == nil || want == nil || !reflect.DeepEqual(got.Frames, want.Frames) {
				t.Errorf("%s %s: frames differ:\n got %v\nwant %v", f, name, got.Frames, want.Frames)
			}
		}
	}
}
