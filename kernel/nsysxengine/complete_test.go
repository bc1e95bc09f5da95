package nsysxengine

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/kernel"
)

// complete asks a whole kernel (magics included) for completions at the
// end of code.
func complete(t *testing.T, k *kernel.Kernel, e *Engine, code string) []string {
	t.Helper()
	return k.Complete(code, len(code)).Matches
}

func TestCompletion(t *testing.T) {
	e := newEngine(t)
	k, err := kernel.New(e)
	if err != nil {
		t.Fatal(err)
	}
	path := testutil.Profile(t, "train")
	cell(t, e, fmt.Sprintf("r, _ := nsysx.Open(%q)\nres, _ := r.Stats(ctx, \"cuda_api_sum\")", path))
	for _, tc := range []struct {
		code string
		want []string // all of these, and nothing outside the prefix
		not  []string
	}{
		{"nsysx.Op", []string{"Open", "OpenSample", "OpenWith"}, nil},
		{"r.St", []string{"Stats", "String"}, nil},
		{"r.Ana", []string{"Analyze"}, nil},
		{`r.Stats("cuda_gpu_k`, []string{"cuda_gpu_kern_sum", "cuda_gpu_kern_gb_sum"}, nil},
		{`r.Stats(ctx, "cuda_gpu_k`, []string{"cuda_gpu_kern_sum", "cuda_gpu_kern_gb_sum"}, nil},
		{`r.Stats("cuda_gpu_kern_sum:ba`, []string{"base"}, nil},
		{`r.Analyze(ctx, "gpu_`, []string{"gpu_gaps", "gpu_time_util"}, []string{"cuda_api_sync"}},
		{`r.Load(ctx, "CUPTI_ACTIVITY_KIND_KER`, []string{"CUPTI_ACTIVITY_KIND_KERNEL"}, nil},
		{`res.Col("Tot`, []string{"Total Time"}, nil},
		{`format.ParseSpec("cs`, []string{"csv"}, nil},
		{"%nsys ", []string{"stats", "analyze", "export"}, nil},
		{"%nsys stats --ti", []string{"--timeunit"}, nil},
		{"%nsys stats -r cuda_api_sum,nvtx_s", []string{"nvtx_sum"}, nil},
		{"%nsys stats -f cs", []string{"csv"}, nil},
		{"%nsys stats --timeunit=u", []string{"usec"}, nil},
		{"%nsys analyze -r cuda_mem", []string{"cuda_memcpy_async", "cuda_memcpy_sync", "cuda_memset_sync"}, nil},
		{"%nsys export -t p", []string{"parquet"}, nil},
		{"%open " + strings.TrimSuffix(gz("train"), "train.sqlite.gz") + "tra", []string{strings.TrimSuffix(gz("train"), "train.sqlite.gz") + "train.sqlite.gz"}, nil},
		{"%%sql " + path + "\nSELECT * FROM CUPTI_ACTIVITY_KIND_KER", []string{"CUPTI_ACTIVITY_KIND_KERNEL"}, nil},
		{"%%sql " + path + "\nSELECT k.grid FROM CUPTI_ACTIVITY_KIND_KERNEL AS k WHERE k.shortN", []string{"shortName"}, nil},
		{"%%sql " + path + "\nSELECT gridX, shortN", nil, []string{"shortName"}}, // no table named yet
		{"%%sql " + path + "\nSELECT gridX, shortN FROM CUPTI_ACTIVITY_KIND_KERNEL", nil, nil},
		{"%%sql " + path + "\nSEL", []string{"SELECT"}, nil},
		{"%plot ker", []string{"kernels", "kernel-hist"}, nil},
		{"%plot kernels --t", []string{"--top"}, nil},
		{"plots.Ker", []string{"Kernels", "KernelHist"}, nil},
	} {
		got := complete(t, k, e, tc.code)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %v lacks %q", tc.code, got, w)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("%q: %v has %q", tc.code, got, n)
			}
		}
	}
	// completion inside the body, before a FROM that names the table
	code := "%%sql " + path + "\nSELECT shortN FROM CUPTI_ACTIVITY_KIND_KERNEL"
	pos := strings.Index(code, "shortN") + len("shortN")
	if c := k.Complete(code, pos); !slices.Contains(c.Matches, "shortName") {
		t.Errorf("columns of a later FROM: %v", c.Matches)
	}
}

func TestInspection(t *testing.T) {
	e := newEngine(t)
	k, _ := kernel.New(e)
	cell(t, e, "p, _ := nsysx.OpenSample()")
	// | marks the cursor
	for code, want := range map[string]string{
		"nsysx.Op|en":               "Open opens an Nsight Systems export",
		"p.Sta|ts":                  "Stats computes a stats report",
		"|p":                        "Profile is an opened Nsight Systems export",
		"format.Wri|te":             "Write renders r in format s exactly as nsys's formatter does",
		"nb.Op|en":                  "gzipped export",
		`p.Stats(ctx, "nvtx_|sum")`: "nvtx_sum (report) -- NVTX Range Summary",
		"%nsys analyze gpu_g|aps":   "gpu_gaps (rule) -- GPU Gaps",
		"%ns|ys stats":              "%nsys stats|analyze|export",
		"%%s|ql\nSELECT 1":          "read-only",
		// inside a call's parentheses: the function called
		"nsysx.Open(|":              "Open opens an Nsight Systems export",
		`nsysx.Open("a(b", |`:       "Open opens an Nsight Systems export",
		"p.Stats(|)":                "Stats computes a stats report",
		"format.Write(os.Stdout, |": "Write renders r in format s exactly as nsys's formatter does",
	} {
		pos := strings.Index(code, "|")
		code = code[:pos] + code[pos+1:]
		in := k.Inspect(code, pos, 0)
		if got, _ := in.Data["text/plain"].(string); !in.Found || !strings.Contains(got, want) {
			t.Errorf("inspect %q at %d: %v %q", code, pos, in.Found, got)
		}
	}
}
