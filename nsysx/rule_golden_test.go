package nsysx_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
)

// render writes r in an nsys format.
func render(t *testing.T, r *nsysx.Result, spec string) string {
	t.Helper()
	s, err := format.ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := format.Write(&b, r, s); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// goldenSpecs lists the rule goldens of a profile: golden base name -> rule
// spec, including the filter goldens whose options filters.txt records.
func goldenSpecs(t *testing.T, prof string) map[string]string {
	specs := map[string]string{}
	for _, r := range []string{"cuda_api_sync", "cuda_memcpy_async", "cuda_memcpy_sync", "cuda_memset_sync", "gpu_gaps", "gpu_time_util"} {
		specs["rule_"+r] = r
	}
	specs["rule_cuda_api_sync_rows_m1"] = "cuda_api_sync:rows=-1"
	specs["rule_gpu_gaps_gap_1"] = "gpu_gaps:gap=1"
	specs["rule_gpu_time_util_threshold_90_chunks_60"] = "gpu_time_util:threshold=90:chunks=60"
	for name, arg := range goldenFilters(t, prof) {
		if spec, ok := strings.CutPrefix(arg, "-r "); ok && strings.HasPrefix(name, "rule_") {
			specs[name] = strings.Trim(spec, "'")
		}
	}
	return specs
}

// TestRuleGolden runs every rule golden of every profile: the CSV data table
// (`nsys analyze -f csv -o BASE`) and, where nsys's console output was kept,
// the column format with its advice and messages (empty lines removed, as in
// the goldens). A SKIPPED rule must have an empty golden.
func TestRuleGolden(t *testing.T) { ruleGoldens(t) }

// TestRuleGoldenParts is TestRuleGolden with the gated runtime scans of
// the rules cut into ranges of one leaf page or more, read at once.
func TestRuleGoldenParts(t *testing.T) {
	defer func(l, g int) { sqlite.MinPartLeaves = l; runtime.GOMAXPROCS(g) }(sqlite.MinPartLeaves, runtime.GOMAXPROCS(4))
	sqlite.MinPartLeaves = 1
	ruleGoldens(t)
}

func ruleGoldens(t *testing.T) {
	for _, prof := range testutil.Profiles {
		t.Run(prof, func(t *testing.T) {
			p := nsysxtest.Open(t, testutil.Profile(t, prof))
			for name, spec := range goldenSpecs(t, prof) {
				t.Run(name, func(t *testing.T) {
					want, ok := testutil.Golden(t, prof, name+".csv")
					if !ok {
						t.Fatalf("no golden %s.csv", name)
					}
					r, err := p.Analyze(t.Context(), spec)
					if err != nil {
						t.Fatal(err)
					}
					if r.Skipped != "" {
						// nsys writes an empty file for a SKIPPED rule.
						if want != "" {
							t.Fatalf("SKIPPED: %s", r.Skipped)
						}
						return
					}
					if got := render(t, r, "csv"); got != want {
						t.Errorf("%s %s csv: %s", prof, spec, testutil.Diff(got, want))
					}
					console, ok := testutil.Golden(t, prof, name+".console.txt")
					if !ok {
						return
					}
					got := dropEmptyLines(render(t, r, "column"))
					if got != console {
						t.Errorf("%s %s column: %s", prof, spec, testutil.Diff(got, console))
					}
				})
			}
		})
	}
}

// dropEmptyLines deletes every empty line, as was done to the console goldens.
func dropEmptyLines(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "\n" && l != "" {
			b.WriteString(l)
		}
	}
	return b.String()
}

// TestMemOpsGoldenParts: the memory-operation summaries, which stream the
// memcpy and memset tables in ranges (streamMemOps), match nsys's goldens
// with the tables cut into ranges of one leaf page, read on four cores.
func TestMemOpsGoldenParts(t *testing.T) {
	defer func(l, g int) { sqlite.MinPartLeaves = l; runtime.GOMAXPROCS(g) }(sqlite.MinPartLeaves, runtime.GOMAXPROCS(4))
	sqlite.MinPartLeaves = 1
	checkStatsGoldens(t, "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum", "cuda_gpu_sum", "cuda_api_gpu_sum")
}
