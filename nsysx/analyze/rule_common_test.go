package analyze

import (
	"context"
	"slices"
	"testing"

	"github.com/nsysx/nsysx/nsysx/report"
)

func TestLikeASCII(t *testing.T) {
	for _, c := range []struct {
		s, pat string
		want   bool
	}{
		{"cudaMemcpyAsync_v3020", "cudaMemcpy%Async%", true},
		{"CUDAMEMCPY2DASYNC", "cudaMemcpy%Async%", true},
		{"cudaMemcpy_v3020", "cudaMemcpy%Async%", false},
		{"cudaMemcpy_v3020", "cudaMemcpy%", true},
		{"xcudaMemcpy", "cudaMemcpy%", false},
		{"cudaMemsetAsync", "%async%", true},
		{"cudaDeviceSynchronize", "cudaDeviceSynchronize%", true},
		{"cudaDeviceSynchronise", "cudaDeviceSynchronize%", false},
		{"aé", "a_", true},
		{"abc", "a_", false},
		{"", "%", true},
		{"ÉCUDA", "écuda", false}, // only ASCII folds
	} {
		if got := likeASCII(c.s, c.pat); got != c.want {
			t.Errorf("%q LIKE %q = %v", c.s, c.pat, got)
		}
	}
}

// SQLite's sum() over reals compensates rounding (Kahan-Babuska-Neumaier).
func TestKBNSum(t *testing.T) {
	var k kbnSum
	for _, x := range []float64{1e16, 1.0, -1e16} {
		k.Add(x)
	}
	if k.Value() != 1.0 {
		t.Errorf("sum = %v, want 1", k.Value())
	}
}

// Rule options parse as Python's int(), as nsys's argparse does.
func TestRuleIntOptions(t *testing.T) {
	p := (&fx{}).kernels([5]any{1000, 1100, gpid(7), 0, 1}, [5]any{1900, 2000, gpid(7), 0, 1}).profile(t)
	for _, spec := range []string{"gpu_gaps:rows=+2", "gpu_gaps:rows=0_2", "gpu_gaps:rows= 2 "} {
		r := analyzeRule(t, p, spec)
		if r.RowLimit != 2 {
			t.Errorf("%s: RowLimit %d", spec, r.RowLimit)
		}
	}
	for _, spec := range []string{"gpu_gaps:rows=2_", "gpu_gaps:gap=1e3", "gpu_gaps:rows=99999999999999999999", "gpu_gaps:bogus=1"} {
		if _, err := report.Analyze(context.Background(), p, spec); err == nil {
			t.Errorf("%s: no error", spec)
		}
	}
}

// Every rule is registered under its name and its 2022.4 name.
func TestRuleNames(t *testing.T) {
	names := map[string]string{"cuda_memcpy_async": "cuda-async-memcpy", "cuda_memcpy_sync": "cuda-sync-memcpy",
		"cuda_memset_sync": "cuda-sync-memset", "cuda_api_sync": "cuda-sync-api", "gpu_gaps": "gpu-starv", "gpu_time_util": "gpu-low-util"}
	var got []string
	for _, r := range report.Rules() {
		got = append(got, r.Name)
	}
	for name, alias := range names {
		r, err := report.LookupRule(alias)
		if err != nil || r.Name != name || !r.Rule {
			t.Errorf("%s: %v %v", alias, r, err)
		}
		if !slices.Contains(got, name) {
			t.Errorf("Rules() lacks %s", name)
		}
		if _, err := report.LookupReport(name); err == nil {
			t.Errorf("%s is a rule, not a stats report", name)
		}
	}
}
