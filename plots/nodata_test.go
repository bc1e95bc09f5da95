package plots

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
)

// Profiles without the data a chart needs give a chart whose note says
// why; bad requests give usage errors; nothing panics (the chart functions
// are called directly, without the registry's recover).
func TestMissingData(t *testing.T) {
	for _, tc := range []struct {
		chart string
		profs []string
		args  []string
		note  string // "" for a drawn chart
	}{
		{"nvtx-timeline", []string{"nsysai_healthy_1pct"}, nil, "does not contain NV Tools Extension"},
		{"iterations", []string{"nsysai_healthy_1pct"}, nil, "no NVTX ranges"},
		{"kernels", []string{"train22"}, nil, "does not contain CUDA kernel data"},
		{"kernel-hist", []string{"train22"}, nil, "does not contain CUDA kernel data"},
		{"gpu-util", []string{"train22"}, nil, "no CUDA kernels"},
		{"nccl", []string{"sync"}, nil, "no NCCL kernels"},
		{"memops", []string{"train22"}, nil, ""}, // two memcpys
		{"memops", []string{"nvtx_edge.sqlite"}, nil, "does not contain"},
		{"compare", []string{"train", "train22"}, nil, "does not contain CUDA kernel data"},
		{"nvtx-timeline", []string{"train"}, []string{"--range", "iteration 99"}, "could not be found"},
		{"gpu-util", []string{"train"}, []string{"--range", "iteration 99"}, "could not be found"},
		{"nvtx-timeline", []string{"train"}, []string{"--start", "100s", "--end", "101s"}, "no NVTX ranges with GPU work and no GPU operations between"},
		{"kernel-hist", []string{"train"}, []string{"--kernel", "no_such_kernel"}, "no kernel named like"},
		{"gpu-util", []string{"rank0"}, []string{"--device", "3"}, "no CUDA kernels on GPU 3"},
		{"nvtx-timeline", []string{"sync"}, []string{"--range", "step/5"}, ""},
		{"nvtx-timeline", []string{"sync"}, []string{"--range", "step/6"}, "could not be found"},
	} {
		t.Run(tc.chart+"/"+strings.Join(tc.profs, "+")+strings.Join(tc.args, " "), func(t *testing.T) {
			c, err := drawDirect(t, tc.chart, tc.profs, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(c.Note, tc.note) || (tc.note == "") != (c.Note == "") {
				t.Errorf("note %q, want %q", c.Note, tc.note)
			}
			if c.Note != "" && (c.grid != nil || !c.HasVegaLite() || !strings.Contains(c.Text(), c.Note)) {
				t.Error("a chart with a note draws panels, or has no Vega-Lite or text")
			}
		})
	}
}

func TestBadRequests(t *testing.T) {
	for _, tc := range []struct {
		chart string
		profs []string
		args  []string
		want  string
	}{
		{"nvtx-timeline", []string{"train"}, []string{"--start", "2s", "--end", "1s"}, "the window is empty"},
		{"compare", []string{"train"}, nil, "compare takes 2 profile(s), not 1"},
		{"kernels", []string{"train", "fixed"}, nil, "kernels takes 1 profile(s), not 2"},
	} {
		d, o, _, err := Parse(append([]string{tc.chart}, tc.args...))
		if err != nil {
			t.Fatal(err)
		}
		var ps []*nsysx.Profile
		for _, p := range tc.profs {
			ps = append(ps, profile(t, p))
		}
		_, err = d.Draw(context.Background(), ps, o)
		if err == nil || !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: %v, want a usage error %q", tc.chart, tc.args, err, tc.want)
		}
	}
}

// Every chart on every hand-made fixture (missing strings, odd NVTX, CUDA
// edge cases) draws a chart or returns an error, and renders.
func TestFixtures(t *testing.T) {
	for _, f := range []string{"cuda_edge.sqlite", "nostrings.sqlite", "nvtx_edge.sqlite", "nvtx_dupdomain.sqlite", "apis.sqlite.gz", "nvtx_deep.sqlite.gz"} {
		p := fixture(t, f)
		for _, name := range Names() {
			d, _ := Lookup(name)
			ps := []*nsysx.Profile{p}
			if name == "compare" {
				ps = append(ps, p)
			}
			c, err := d.draw(context.Background(), ps, &Options{})
			if err != nil {
				t.Logf("%s on %s: %v", name, f, err)
				continue
			}
			for _, format := range []string{"png", "svg", "vl"} {
				if b := render(t, c, format); len(b) == 0 {
					t.Errorf("%s on %s: empty %s", name, f, format)
				}
			}
		}
	}
}

// drawDirect draws through the chart function, letting panics through.
func drawDirect(t *testing.T, chart string, profs, args []string) (*Chart, error) {
	d, o, _, err := Parse(append([]string{chart}, args...))
	if err != nil {
		t.Fatal(err)
	}
	var ps []*nsysx.Profile
	for _, p := range profs {
		if strings.HasSuffix(p, ".sqlite") {
			ps = append(ps, fixture(t, p))
		} else {
			ps = append(ps, profile(t, p))
		}
	}
	return d.draw(context.Background(), ps, o)
}
