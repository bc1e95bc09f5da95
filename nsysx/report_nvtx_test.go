package nsysx_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// statsCSV renders a result as nsys's csv file output ("" for SKIPPED).
func statsCSV(t *testing.T, r *nsysx.Result) string {
	t.Helper()
	if r.Skipped != "" {
		return ""
	}
	s, err := format.ParseSpec("csv")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := format.Write(&b, r, s); err != nil {
		t.Fatal(err)
	}
	return b.String()
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
			p, err := nsysx.Open(testutil.Profile(t, prof))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
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
	p, err := nsysx.Open(fixturePath(t, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
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

// The nvtx_edge fixture (testdata/fixtures/make_fixtures.py): process 100,
// worker thread 101, main thread 100. The latest timestamp of any NVTX row
// is 20000 (a mark), of the push/pop rows 15500, of all range rows 15500.

func TestNVTXSumFixture(t *testing.T) {
	p := openFixture(t, "nvtx_edge")
	// Durations: open 20000-10000; the cross-thread range counts; marks and
	// the domain row do not. Grand total 49100.
	wantRows(t, p, "nvtx_sum", nil,
		"20.4|10000|1|10000.0|10000.0|10000|10000|0.0|PushPop|:open",
		"18.3|9000|1|9000.0|9000.0|9000|9000|0.0|StartEnd|:se",
		"18.3|9000|1|9000.0|9000.0|9000|9000|0.0|StartEnd|:se2",
		"16.3|8000|1|8000.0|8000.0|8000|8000|0.0|PushPop|:outer",
		"11.2|5500|1|5500.0|5500.0|5500|5500|0.0|StartEnd|:cross",
		"6.1|3000|1|3000.0|3000.0|3000|3000|0.0|PushPop|MyDom:inner",
		"4.1|2000|1|2000.0|2000.0|2000|2000|0.0|PushPop|:reg",
		"3.1|1500|3|500.0|500.0|500|500|0.0|PushPop|:step",
		"1.0|500|1|500.0|500.0|500|500|0.0|PushPop|:twinA",
		"1.0|500|1|500.0|500.0|500|500|0.0|PushPop|:twinB",
		"0.2|100|1|100.0|100.0|100|100|0.0|PushPop|:twinkid")
	// Push/pop only: grand total 25600 (31.25 rounds away from zero).
	wantRows(t, p, "nvtx_pushpop_sum", nil,
		"39.1|10000|1|10000.0|10000.0|10000|10000|0.0|:open",
		"31.3|8000|1|8000.0|8000.0|8000|8000|0.0|:outer",
		"11.7|3000|1|3000.0|3000.0|3000|3000|0.0|MyDom:inner",
		"7.8|2000|1|2000.0|2000.0|2000|2000|0.0|:reg",
		"5.9|1500|3|500.0|500.0|500|500|0.0|:step",
		"2.0|500|1|500.0|500.0|500|500|0.0|:twinA",
		"2.0|500|1|500.0|500.0|500|500|0.0|:twinB",
		"0.4|100|1|100.0|100.0|100|100|0.0|:twinkid")
	wantRows(t, p, "nvtxsesum", nil,
		"38.3|9000|1|9000.0|9000.0|9000|9000|0.0|:se",
		"38.3|9000|1|9000.0|9000.0|9000|9000|0.0|:se2",
		"23.4|5500|1|5500.0|5500.0|5500|5500|0.0|:cross")
}

func TestNVTXPushPopTraceFixture(t *testing.T) {
	p := openFixture(t, "nvtx_edge")
	// The open range ends at 15500 and holds the three steps. The twins are
	// each other's parents: they and twinkid vanish.
	wantRows(t, p, "nvtx_pushpop_trace", nil,
		"1000|9000|8000|5000|3000|:outer|100|101|0|2|2||:2|:outer",
		"2000|5000|3000|0|3000|MyDom:inner|100|101|1|0|3|2|:2:3|--MyDom:inner",
		"6000|8000|2000|0|2000|:reg|100|101|1|0|4|2|:2:4|--:reg",
		"10000|15500|5500|1500|4000|:open|100|101|0|3|9||:9|:open",
		"13000|13500|500|0|500|:step|100|101|1|0|13|9|:9:13|--:step",
		"14000|14500|500|0|500|:step|100|101|1|0|14|9|:9:14|--:step",
		"15000|15500|500|0|500|:step|100|101|1|0|15|9|:9:15|--:step")
}

func TestNVTXKernSumFixture(t *testing.T) {
	p := openFixture(t, "nvtx_edge")
	// k1 and k1b share one graph launch (correlation 1) inside outer and
	// inner; k2 is inside outer and reg; k3 on the main thread inside the
	// crossing start/end ranges se and se2; k4 inside the open range (ends at
	// 15500 here); k5 has no call. The cross-thread range is not a candidate.
	wantRows(t, p, "nvtx_kern_sum", nil,
		"||||0|1|100|100.0|100.0|100|100|0.0|kA",
		":open|PushPop|100|101|1|1|200|200.0|200.0|200|200|0.0|kA",
		":outer|PushPop|100|101|1|2|500|250.0|250.0|100|400|212.1|kA",
		":outer|PushPop|100|101|1|1|100|100.0|100.0|100|100|0.0|kB",
		":reg|PushPop|100|101|1|1|100|100.0|100.0|100|100|0.0|kA",
		":se|StartEnd|100|100|1|1|300|300.0|300.0|300|300|0.0|kC",
		":se2|StartEnd|100|100|1|1|300|300.0|300.0|300|300|0.0|kC",
		"MyDom:inner|PushPop|100|101|1|1|400|400.0|400.0|400|400|0.0|kA",
		"MyDom:inner|PushPop|100|101|1|1|100|100.0|100.0|100|100|0.0|kB")
	// mangledName is NULL here: coalesce falls back to the demangled name.
	if a, b := rowsOf(runSpec(t, p, "nvtx_kern_sum:mangled", nil)), rowsOf(runSpec(t, p, "nvtx_kern_sum", nil)); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("mangled:\n%v\nwant\n%v", a, b)
	}
	r := runSpec(t, p, "nvtx_kern_sum:base", nil)
	if got := r.Col("Kernel Name").Text(2); got != "A" {
		t.Errorf("base name %q, want A", got)
	}
}

func TestNVTXGPUProjFixture(t *testing.T) {
	p := openFixture(t, "nvtx_edge")
	// outer projects c1 (kernels 3000-3400, 3500-3600) and c2 (7000-7100);
	// se and se2 project c3 (memcpy 4200-4300, kernel 4500-4800); they cross,
	// so neither is the other's parent.
	wantRows(t, p, "nvtx_gpu_proj_trace", nil,
		":outer|3000|4100|1000|8000|PushPop|100|101|2|0|2|2||:2",
		"MyDom:inner|3000|600|2000|3000|PushPop|100|101|1|1|0|3|2|:2:3",
		":reg|7000|100|6000|2000|PushPop|100|101|1|1|0|4|2|:2:4",
		":se|4200|600|500|9000|StartEnd|100|100|1|0|0|7||:7",
		":se2|4200|600|3000|9000|StartEnd|100|100|1|0|0|8||:8",
		":open|10700|200|10000|5500|PushPop|100|101|1|0|0|9||:9")
	wantRows(t, p, "nvtx_gpu_proj_sum", nil,
		":outer|PushPop|4100|8000|1|4100.0|4100.0|4100|4100|0.0|2|2.0|0.0|2.0",
		":se|StartEnd|600|9000|1|600.0|600.0|600|600|0.0|1|1.0|0.0|0.0",
		":se2|StartEnd|600|9000|1|600.0|600.0|600|600|0.0|1|1.0|0.0|0.0",
		"MyDom:inner|PushPop|600|3000|1|600.0|600.0|600|600|0.0|1|1.0|1.0|0.0",
		":open|PushPop|200|5500|1|200.0|200.0|200|200|0.0|1|1.0|0.0|0.0",
		":reg|PushPop|100|2000|1|100.0|100.0|100|100|0.0|1|1.0|1.0|0.0")
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

func TestNVTXSkipped(t *testing.T) {
	p := openFixture(t, "apis")
	for _, r := range []string{"nvtx_sum", "nvtx_pushpop_sum", "nvtx_startend_sum", "nvtx_pushpop_trace",
		"nvtx_kern_sum", "nvtx_gpu_proj_sum", "nvtx_gpu_proj_trace"} {
		wantSkip(t, p, r, nil, "<f> does not contain NV Tools Extension (NVTX) data.")
	}
	ns := openFixture(t, "nostrings")
	for _, r := range []string{"nvtx_sum", "nvtx_pushpop_trace", "nvtx_kern_sum", "nvtx_gpu_proj_trace"} {
		wantSkip(t, ns, r, nil, "<f> file does not contain StringIds table.")
	}
	d := openFixture(t, "nvtx_dupdomain")
	wantSkip(t, d, "nvtx_kern_sum", nil, "<f> does not contain CUDA kernel data.")
	wantSkip(t, d, "nvtx_gpu_proj_trace", nil, "<f> does not contain CUDA API data.")
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
