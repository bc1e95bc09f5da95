package nsysx_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// statsCSV renders a result as nsys's csv file output ("" for SKIPPED).
func statsCSV(t *testing.T, r *nsysx.Result) string {
	t.Helper()
	if r.Skipped != "" {
		return ""
	}
	return render(t, r, "csv")
}

// goldenName is the golden file of a report spec: "nvtx_kern_sum:base" is
// nvtx_kern_sum_base.csv.
func goldenName(spec string) string {
	return strings.NewReplacer(":", "_", "-", "_").Replace(spec) + ".csv"
}

// checkStatsGoldens runs each spec on every real profile and compares the
// csv output with what nsys wrote (an empty golden: SKIPPED or no rows).
func checkStatsGoldens(t *testing.T, specs ...string) {
	for _, prof := range testutil.Profiles {
		t.Run(prof, func(t *testing.T) {
			p := nsysxtest.Open(t, testutil.Profile(t, prof))
			for _, spec := range specs {
				want, ok := testutil.Golden(t, prof, goldenName(spec))
				if !ok {
					t.Fatalf("no golden %s for %s", goldenName(spec), prof)
				}
				r, err := p.Stats(context.Background(), spec)
				if err != nil {
					t.Fatalf("%s: %v", spec, err)
				}
				if d := testutil.Diff(statsCSV(t, r), want); d != "" {
					t.Errorf("%s on %s (skipped %q): %s", spec, prof, r.Skipped, d)
				}
			}
		})
	}
}

// fixturePath returns a hand-made export of testdata/fixtures (see
// make_fixtures.py there), unpacking it when it is kept gzipped.
func fixturePath(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(testutil.Root(), "testdata", "fixtures", name+".sqlite")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return testutil.Unpack(t, filepath.Join("testdata", "fixtures", name+".sqlite.gz"))
}

func openFixture(t testing.TB, name string) *nsysx.Profile {
	t.Helper()
	return nsysxtest.Open(t, fixturePath(t, name))
}

// rowsOf lists a result's visible cells, one "a|b|c" line per row.
func rowsOf(r *nsysx.Result) []string {
	var out []string
	cols := r.Visible()
	for i := 0; i < r.Len(); i++ {
		var f []string
		for _, c := range cols {
			f = append(f, c.Text(i))
		}
		out = append(out, strings.Join(f, "|"))
	}
	return out
}

// wantRows runs spec (optionally under a filter) and compares every row.
func wantRows(t *testing.T, p *nsysx.Profile, spec string, f *nsysx.Filter, want ...string) *nsysx.Result {
	t.Helper()
	r := runSpec(t, p, spec, f)
	if r.Skipped != "" {
		t.Fatalf("%s SKIPPED: %s", spec, r.Skipped)
	}
	got := rowsOf(r)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got:\n  %s\nwant:\n  %s", spec, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	return r
}

func runSpec(t *testing.T, p *nsysx.Profile, spec string, f *nsysx.Filter) *nsysx.Result {
	t.Helper()
	sp := nsysx.ParseSpec(spec)
	rep, err := nsysx.LookupReport(sp.Name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.RunReport(t.Context(), rep, sp.Opts, f)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	return r
}

// wantSkip runs spec and checks its SKIPPED message (<f> is the path).
func wantSkip(t *testing.T, p *nsysx.Profile, spec string, f *nsysx.Filter, msg string) {
	t.Helper()
	r := runSpec(t, p, spec, f)
	if want := strings.ReplaceAll(msg, "<f>", p.Path); r.Skipped != want {
		t.Errorf("%s: SKIPPED %q, want %q", spec, r.Skipped, want)
	}
}

func TestNVTXGolden(t *testing.T) {
	checkStatsGoldens(t, "nvtx_sum", "nvtx_pushpop_sum", "nvtx_startend_sum", "nvtx_pushpop_trace",
		"nvtx_gpu_proj_sum", "nvtx_gpu_proj_trace", "nvtx_kern_sum", "nvtx_kern_sum:base")
}

// The options of nvtx_kern_sum on nvtx_edge (its rows: fixtureRows).
func TestNVTXKernSumOptions(t *testing.T) {
	p := openFixture(t, "nvtx_edge")
	// mangledName is NULL here: coalesce falls back to the demangled name.
	if a, b := rowsOf(runSpec(t, p, "nvtx_kern_sum:mangled", nil)), rowsOf(runSpec(t, p, "nvtx_kern_sum", nil)); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("mangled:\n%v\nwant\n%v", a, b)
	}
	r := runSpec(t, p, "nvtx_kern_sum:base", nil)
	if got := r.Col("Kernel Name").Text(2); got != "A" {
		t.Errorf("base name %q, want A", got)
	}
}

func TestNVTXDuplicateDomain(t *testing.T) {
	p := openFixture(t, "nvtx_dupdomain")
	// Domain 7 was registered by two threads of the process (D1 first, then
	// D2). nsys joins x to both registrations, counting it twice in the
	// summaries and failing in the trace; nsysx names it once, after the
	// earliest registration.
	wantRows(t, p, "nvtx_pushpop_sum", nil,
		"75.0|300|1|300.0|300.0|300|300|0.0|D1:x",
		"25.0|100|1|100.0|100.0|100|100|0.0|:y")
	r, err := p.Stats(context.Background(), "nvtx_pushpop_trace")
	if err != nil || r.Len() != 2 {
		t.Fatalf("nvtx_pushpop_trace: %v", err)
	}
	for i := 0; i < r.Len(); i++ {
		if n := r.Col("Name").Text(i); n != "D1:x" && n != ":y" {
			t.Errorf("nvtx_pushpop_trace row %d named %q", i, n)
		}
	}
}

func TestNVTXDeepAndManyThreads(t *testing.T) {
	p := openFixture(t, "nvtx_deep")
	const depth, threads = 3000, 40
	r := runSpec(t, p, "nvtx_pushpop_trace", nil)
	if r.Len() != depth+3*threads {
		t.Fatalf("%d rows, want %d", r.Len(), depth+3*threads)
	}
	lvl, stack := r.Col("Lvl"), r.Col("RangeStack")
	if got := lvl.Text(depth - 1); got != "2999" {
		t.Errorf("deepest level %s", got)
	}
	if s := stack.Text(depth - 1); strings.Count(s, ":") != depth || !strings.HasSuffix(s, ":2999:3000") {
		t.Errorf("deepest stack has %d ids, ends %q", strings.Count(s, ":"), s[max(0, len(s)-20):])
	}
	// One kernel launched at the bottom counts once per enclosing range "r".
	wantRows(t, p, "nvtx_kern_sum", nil, ":r|PushPop|100|101|3000|1|1500000|500.0|500.0|500|500|0.0|deepKernel")
	pr := runSpec(t, p, "nvtx_gpu_proj_sum", nil)
	if got := rowsOf(pr); len(got) != 1 || !strings.HasPrefix(got[0], ":r|PushPop|1500000|") || !strings.HasSuffix(got[0], "|3000|1.0|1499.5|1.0") {
		t.Errorf("gpu_proj_sum %v", got)
	}
	ps := runSpec(t, p, "nvtx_pushpop_sum", nil)
	if got := rowsOf(ps); len(got) != 3 || !strings.Contains(got[2], "|80|") || !strings.HasSuffix(got[2], "|:u") {
		t.Errorf("pushpop_sum %v", got)
	}
}

// TestMyReportAliases checks the 2022.4 names of this family's reports.
func TestMyReportAliases(t *testing.T) {
	for alias, name := range map[string]string{
		"nvtxsum": "nvtx_sum", "nvtxppsum": "nvtx_pushpop_sum", "nvtxpptrace": "nvtx_pushpop_trace",
		"nvtxsesum": "nvtx_startend_sum", "nvtxsssum": "nvtx_startend_sum", "nvtxgpuproj": "nvtx_gpu_proj_trace",
		"nvtxkernsum": "nvtx_kern_sum", "osrtsum": "osrt_sum", "unifiedmemory": "um_sum",
		"unifiedmemorytotals": "um_total_sum", "umcpupagefaults": "um_cpu_page_faults_sum",
		"openmpevtsum": "openmp_sum", "openaccsum": "openacc_sum", "khrdebugsum": "opengl_khr_range_sum",
		"vulkanapitrace": "vulkan_api_trace", "wddmqueuesdetails": "wddm_queue_sum",
	} {
		r, err := nsysx.LookupReport(alias)
		if err != nil || r.Name != name {
			t.Errorf("%s: %v %v, want %s", alias, r, err, name)
			continue
		}
		if r.Help == "" || r.Title == "" {
			t.Errorf("%s: no title or help", name)
		}
	}
}
