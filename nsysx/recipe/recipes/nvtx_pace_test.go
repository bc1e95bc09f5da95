package recipes

import (
	"context"
	"slices"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

// TestNVTXPaceGolden reproduces nvtx_pace --name forward on rank0+rank1:
// stats, every pace file, pace_delta_stats, files and the .nsys-analysis.
func TestNVTXPaceGolden(t *testing.T) {
	res := runPace(t, "nvtx_pace", "forward", "rank0", "rank1")
	compareWritten(t, res, "rank0+rank1", "nvtx_pace", "stats", "pace_start", "pace_end", "pace_duration",
		"pace_duration_accum", "pace_delta", "pace_delta_accum", "pace_delta_stats", "files")
}

// TestPaceRowsScannedMatchLoaded: the one-pass scan of nvtx_pace keeps the
// same rows as the NVTX composite path (LoadNVTX + FilterRows), for every
// distinct text of the profiles' NVTX rows, with and without a time
// window.
func TestPaceRowsScannedMatchLoaded(t *testing.T) {
	ctx := context.Background()
	for _, prof := range []string{"rank0", "train"} {
		p, err := nsysx.Open(testutil.Profile(t, prof))
		if err != nil {
			t.Fatal(err)
		}
		nv, err := composite.LoadNVTX(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		names := someTexts(nv, 40)
		mid := nv.Start[nv.Len()/2]
		for name := range names {
			for _, win := range [][2]*int64{{nil, nil}, {&mid, nil}, {nil, &mid}} {
				o := recipe.Defaults()
				o.Name, o.Start, o.End = name, win[0], win[1]
				ws, we, wf, err := paceRowsLoaded(ctx, p, o)
				if err != nil {
					t.Fatal(err)
				}
				gs, ge, gf, err := paceRowsScanned(ctx, p, o)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(gs, ws) || !slices.Equal(ge, we) || gf != wf {
					t.Errorf("%s %q window %v: scan %d rows (float %v), load %d rows (float %v)", prof, name, win, len(gs), gf, len(ws), wf)
				}
			}
		}
		p.Close()
	}
}
