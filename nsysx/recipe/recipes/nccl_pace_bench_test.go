package recipes

import (
	"os"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/composite"
)

// benchReport is NSYSX_BENCH_NVTX_REPORT (a real PyTorch capture's
// export), else testdata's train.
func benchReport(b *testing.B) string {
	if path := os.Getenv("NSYSX_BENCH_NVTX_REPORT"); path != "" {
		return path
	}
	return testutil.Profile(b, "train")
}

// BenchmarkNCCLSumMapNoNCCL is nccl_sum's map on a report without an NCCL
// domain, the report opened each time: the gated probe of NVTX_EVENTS
// (findDomain) and nothing else.
func BenchmarkNCCLSumMapNoNCCL(b *testing.B) {
	path := benchReport(b)
	o := recipe.Defaults()
	b.ReportAllocs()
	for b.Loop() {
		p, err := nsysx.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r := &recipe.Report{Path: path, Stem: "r", Profile: p}
		if _, err := mapNCCLSum(b.Context(), r, o, nil); err != nil && err != recipe.ErrNoData {
			b.Fatal(err)
		}
		p.Close()
	}
}

// BenchmarkPaceCUDARanges is nvtx_gpu_proj_pace's CUDA side for the ranges
// named "forward" (NSYSX_BENCH_PACE_NAME): the runtime and GPU rows the
// ranges can project onto (rangeCUDA); BenchmarkPaceCUDACombined loads
// the whole CUDA_COMBINED composite, as the map did before.
func BenchmarkPaceCUDARanges(b *testing.B) { benchPaceCUDA(b, true) }

// BenchmarkPaceCUDACombined: see BenchmarkPaceCUDARanges.
func BenchmarkPaceCUDACombined(b *testing.B) { benchPaceCUDA(b, false) }

func benchPaceCUDA(b *testing.B, ranges bool) {
	path := benchReport(b)
	name := os.Getenv("NSYSX_BENCH_PACE_NAME")
	if name == "" {
		name = "forward"
	}
	p, err := nsysx.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	nv, _, err := scanNamedNVTX(b.Context(), p, name)
	p.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		p, err := nsysx.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		rows := 0
		if ranges {
			c, err := rangeCUDA(b.Context(), p, nv)
			if err != nil {
				b.Fatal(err)
			}
			rows = len(c.Start)
		} else {
			c, err := composite.LoadCombined(b.Context(), p, nil)
			if err != nil {
				b.Fatal(err)
			}
			rows = c.Len()
		}
		p.Close()
		b.ReportMetric(float64(rows), "rows/op")
	}
}
