package plots

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Without merging, the timeline of one iteration holds exactly the rows of
// nsys's nvtx_gpu_proj_trace that overlap the range (clipped to it), per
// thread and level, and per device and stream the union of the operations
// of nsys's cuda_gpu_trace in the window.
func TestTimelineMatchesTraces(t *testing.T) {
	for _, tc := range []struct{ prof, rng string }{
		{"train", "iteration 12"}, {"rank1", "iteration 7"}, {"fixed", "iteration 20"},
	} {
		t.Run(tc.prof, func(t *testing.T) {
			var ws, we int64 = -1, -1
			pp, _ := goldenCSV(t, tc.prof, "nvtx_pushpop_trace.csv")
			for _, r := range pp {
				if r["Name"] == ":"+tc.rng {
					ws, we = int64(atof(t, r["Start (ns)"])), int64(atof(t, r["End (ns)"]))
					break
				}
			}
			if ws < 0 {
				t.Fatalf("nsys has no range %q", tc.rng)
			}
			d, note, err := timelineData(context.Background(), profile(t, tc.prof), &Options{Range: tc.rng}, nil)
			if err != nil || note != "" {
				t.Fatalf("note %q, err %v", note, err)
			}
			if d.Start != ws || d.End != we || d.Resolution != 0 {
				t.Errorf("window %d-%d (res %d), nsys range %d-%d", d.Start, d.End, d.Resolution, ws, we)
			}
			got := map[string][]string{}
			for _, l := range d.Lanes {
				for _, b := range l.Bars {
					got[l.Label] = append(got[l.Label], fmt.Sprintf("%d-%d %s", b.Start, b.End, b.Name))
				}
			}
			want := map[string][]string{}
			proj, _ := goldenCSV(t, tc.prof, "nvtx_gpu_proj_trace.csv")
			for _, r := range proj {
				s := int64(atof(t, r["Projected Start (ns)"]))
				e := s + int64(atof(t, r["Projected Duration (ns)"]))
				if e < ws || s > we {
					continue
				}
				lane := fmt.Sprintf("TID %s · L%s", r["TID"], r["Lvl"])
				want[lane] = append(want[lane], fmt.Sprintf("%d-%d %s", max(s, ws), min(e, we), rangeLabel(r["Name"])))
			}
			want = mergeGPU(t, tc.prof, ws, we, want)
			if len(want) < 3 {
				t.Fatalf("only %d lanes in the traces", len(want))
			}
			for lane, w := range want {
				g := got[lane]
				slices.Sort(g)
				slices.Sort(w)
				if !slices.Equal(g, w) {
					t.Errorf("lane %s: %d bars, nsys %d; first: %v vs %v", lane, len(g), len(w), first(g), first(w))
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d lanes, nsys traces give %d", len(got), len(want))
			}
		})
	}
}

func first(v []string) []string { return v[:min(3, len(v))] }

var devNum = regexp.MustCompile(`\((\d+)\)$`)

// mergeGPU adds the GPU lanes from nsys's cuda_gpu_trace: per device,
// stream and kind, the union of the operations overlapping [ws, we].
func mergeGPU(t *testing.T, prof string, ws, we int64, lanes map[string][]string) map[string][]string {
	rows, _ := goldenCSV(t, prof, "cuda_gpu_trace.csv")
	spans := map[[2]string][]span{}
	for _, r := range rows {
		s := int64(atof(t, r["Start (ns)"]))
		e := s + int64(atof(t, r["Duration (ns)"]))
		if e < ws || s > we {
			continue
		}
		kind := "kernel"
		switch {
		case strings.HasPrefix(r["Name"], "nccl"):
			kind = "NCCL kernel"
		case strings.HasPrefix(r["Name"], "[CUDA memcpy"):
			kind = "memcpy"
		case strings.HasPrefix(r["Name"], "[CUDA memset"):
			kind = "memset"
		}
		m := devNum.FindStringSubmatch(r["Device"])
		dev, _ := strconv.Atoi(m[1])
		lane := fmt.Sprintf("GPU %d · stream %s", dev, r["Strm"])
		spans[[2]string{lane, kind}] = append(spans[[2]string{lane, kind}], span{max(s, ws), min(e, we)})
	}
	for k, v := range spans {
		for _, x := range consolidate(v) {
			lanes[k[0]] = append(lanes[k[0]], fmt.Sprintf("%d-%d %s", x.s, x.e, k[1]))
		}
	}
	return lanes
}

// At the chart's resolution no lane has more bars than pixels, and every
// GPU lane covers the kernels' busy time to within a pixel per bar.
func TestTimelineAggregates(t *testing.T) {
	for _, name := range []string{"train", "bt", "nsysai_h100_2gpu_1s"} {
		c, err := NVTXTimeline(context.Background(), profile(t, name), nil)
		if err != nil {
			t.Fatal(err)
		}
		d := c.data.(*TimelineData)
		px := int((d.End-d.Start)/d.Resolution) + 1
		if d.Resolution <= 0 {
			t.Fatalf("%s: no resolution", name)
		}
		for _, l := range d.Lanes {
			if len(l.Bars) > px {
				t.Errorf("%s %s: %d bars for %d pixels", name, l.Label, len(l.Bars), px)
			}
			for i := 1; i < len(l.Bars); i++ {
				if l.GPU && l.Bars[i].Start < l.Bars[i-1].End {
					t.Errorf("%s %s: bars overlap", name, l.Label)
				}
			}
		}
	}
}

// The instances are those nsys's nvtx_sum counts for the matched names,
// with the same total duration.
func TestIterationsMatchNVTXSum(t *testing.T) {
	for _, tc := range []struct {
		prof string
		o    Options
		n    int
	}{
		{"train", Options{}, 20},
		{"rank0", Options{}, 20},
		{"cnn", Options{}, 20}, // ranges named just "step"
		{"train", Options{Range: "forward"}, 20},
		{"train", Options{Match: `^(forward|backward)$`}, 40},
		{"sync", Options{Range: "step"}, 6},
	} {
		t.Run(tc.prof+"/"+tc.o.Range+tc.o.Match, func(t *testing.T) {
			d, note, err := iterationsData(context.Background(), profile(t, tc.prof), &tc.o)
			if err != nil || note != "" {
				t.Fatalf("note %q, err %v", note, err)
			}
			if len(d.Items) != tc.n {
				t.Errorf("%d instances, want %d", len(d.Items), tc.n)
			}
			count, sum := map[string]float64{}, map[string]float64{}
			for _, it := range d.Items {
				count[it.Name]++
				sum[it.Name] += float64(it.Duration)
			}
			rows, _ := goldenCSV(t, tc.prof, "nvtx_sum.csv")
			for name := range count {
				var n, total float64
				for _, r := range rows {
					if strings.TrimPrefix(r["Range"], ":") == name || r["Range"] == name {
						n += atof(t, r["Instances"])
						total += atof(t, r["Total Time (ns)"])
					}
				}
				if n != count[name] || total != sum[name] {
					t.Errorf("%q: %v instances, %v ns; nsys %v, %v ns", name, count[name], sum[name], n, total)
				}
			}
			var hist int
			for _, b := range d.Hist {
				hist += b.Count
			}
			if hist != len(d.Items) {
				t.Errorf("histogram holds %d of %d", hist, len(d.Items))
			}
			for i := 1; i < len(d.Items); i++ {
				if d.Items[i].Start < d.Items[i-1].Start {
					t.Fatal("instances not in start order")
				}
			}
		})
	}
}

// train.py synchronises and sleeps every 10 steps (testdata README): those
// iterations are the outliers.
func TestIterationsOutliers(t *testing.T) {
	d, _, err := iterationsData(context.Background(), profile(t, "train"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []float64
	for _, it := range d.Items {
		if it.Outlier {
			out = append(out, it.X)
		}
	}
	if !d.Numbered || len(out) != 2 || out[0] != 10 || out[1] != 20 {
		t.Errorf("outliers at %v (numbered %v), want iterations 10 and 20", out, d.Numbered)
	}
	if d.Items[0].X != 5 || math.IsNaN(d.Median) || d.Median < d.Q1 || d.Median > d.Q3 {
		t.Errorf("first x %v, quartiles %v %v %v", d.Items[0].X, d.Q1, d.Median, d.Q3)
	}
}

func TestIterationsNotFound(t *testing.T) {
	for _, tc := range []struct {
		prof string
		o    Options
		want string
	}{
		{"train", Options{Range: "no such range"}, "no NVTX range named"},
		{"train", Options{Match: "^zzz"}, "matches ^zzz"},
		{"nsysai_healthy_1pct", Options{}, "no NVTX ranges"},
		{"bt", Options{Range: "forward"}, ""},
	} {
		c, err := Iterations(context.Background(), profile(t, tc.prof), &tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(c.Note, tc.want) || (tc.want == "") != (c.Note == "") {
			t.Errorf("%s %+v: note %q, want %q", tc.prof, tc.o, c.Note, tc.want)
		}
	}
}
