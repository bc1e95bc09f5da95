package recipes

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// goldenTrace reads nsys's nvtx_gpu_proj_trace of rank0+rank1: its scalar
// columns by name.
func goldenTrace(t *testing.T) map[string][]any {
	t.Helper()
	f, err := pyframe.ReadParquet(filepath.Join(goldenDir("rank0+rank1", "nvtx_gpu_proj_trace"), "trace.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]any{}
	for _, c := range f.Cols {
		if c.Type == pyframe.ListInt64 {
			continue
		}
		for i := 0; i < c.Len(); i++ {
			out[c.Name] = append(out[c.Name], frameValue(c, i))
		}
	}
	return out
}

// TestNVTXGPUProjPace: the projected "forward" ranges that nvtx_gpu_proj_pace
// paces are the "forward" rows of nsys's projection trace, shifted by the
// session offset, with durations End−Start and int64 pace columns.
func TestNVTXGPUProjPace(t *testing.T) {
	res := runPace(t, "nvtx_gpu_proj_pace", "forward", "rank0", "rank1")
	gold := goldenTrace(t)
	utc := []int64{rawUTC(t, "rank0"), rawUTC(t, "rank1")}
	minUTC := min(utc[0], utc[1])
	total := 0
	for r := range 2 {
		var start, dur []float64
		for i, text := range gold["Text"] {
			if text == "forward" && gold["Rank"][i] == int64(r) {
				s, e := gold["Start"][i].(int64), gold["End"][i].(int64)
				start, dur = append(start, float64(s+utc[r]-minUTC)), append(dur, float64(e-s))
			}
		}
		total += len(start)
		if got := floatsOf(res.Output.Table("pace_start").Cols[r]); !slices.Equal(got, start) {
			t.Errorf("rank %d pace_start %v, want %v", r, got, start)
		}
		if got := floatsOf(res.Output.Table("pace_duration").Cols[r]); !slices.Equal(got, dur) {
			t.Errorf("rank %d pace_duration %v, want %v", r, got, dur)
		}
		for _, tb := range []string{"pace_start", "pace_end", "pace_delta", "pace_duration_accum"} {
			if k := res.Output.Table(tb).Cols[r].Type; k != pyframe.Int64 {
				t.Errorf("%s kind %v, want int64 (GPU times)", tb, k)
			}
		}
	}
	st := res.Output.Table("stats")
	if total == 0 || st.Find("Count").IntVals[0] != int64(total) || st.Find("Min").Type != pyframe.Int64 {
		t.Errorf("stats Count %v (kind Min %v), want %d", st.Find("Count").IntVals, st.Find("Min").Type, total)
	}
}
