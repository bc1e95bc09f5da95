package nsysxengine

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/kernel"
)

func errName(err error) string {
	var ke *kernel.Error
	if errors.As(err, &ke) {
		return ke.Name
	}
	return fmt.Sprint(err)
}

func TestMagicOpen(t *testing.T) {
	e := newEngine(t)
	r := cell(t, e, "%open "+gz("train"))
	if len(r.Displays) != 1 || !strings.HasPrefix(r.Displays[0].Data["text/plain"].(string), "train = ") {
		t.Fatalf("displays %v", r.Displays)
	}
	if got := cell(t, e, "train.Base()").result(t)["text/plain"]; got != "train" {
		t.Errorf("bound variable: %v", got)
	}
	cell(t, e, "%open "+gz("fixed")+" as after")
	if got := cell(t, e, "after.Base()").result(t)["text/plain"]; got != "fixed" {
		t.Errorf("as NAME: %v", got)
	}
	for code, want := range map[string]string{
		"%open":                       "UsageError",
		"%open a b":                   "UsageError",
		"%open x.sqlite as 1x":        "UsageError",
		"%open /no/such/file.sqlite":  "OpenError",
		"%open " + gz("sync") + " as": "UsageError",
	} {
		if _, err := tryCell(t, e, code); errName(err) != want {
			t.Errorf("%q: %v, want %s", code, err, want)
		}
	}
}

func TestMagicNsysStats(t *testing.T) {
	e := openEngine(t, "train")
	// several reports: one display each, and a progress line updated in place
	r := cell(t, e, "%nsys stats -r cuda_gpu_kern_sum,cuda_api_sum,nvtx_sum")
	if len(r.Displays) != 4 { // progress + 3 tables
		t.Fatalf("%d displays", len(r.Displays))
	}
	id := r.Displays[0].ID
	if id == "" || !strings.HasPrefix(r.Displays[0].Data["text/plain"].(string), "running 0/3") {
		t.Errorf("progress display %v", r.Displays[0])
	}
	var texts []string
	for _, u := range r.Updates {
		if u.ID != id {
			t.Errorf("update of another display %q", u.ID)
		}
		texts = append(texts, u.Data["text/plain"].(string))
	}
	if len(texts) != 4 || texts[1] != "running 2/3: cuda_api_sum…" || !strings.HasPrefix(texts[3], "ran 3 reports on 1 profile(s)") {
		t.Errorf("progress updates %q", texts)
	}
	for i, name := range []string{"cuda_gpu_kern_sum", "cuda_api_sum", "nvtx_sum"} {
		js := r.Displays[i+1].Data[ResultMIME].(map[string]any)
		if js["report"] != name {
			t.Errorf("display %d is %v", i+1, js["report"])
		}
	}
	// -f csv shows nsys's text: the same bytes as nsys wrote
	r = cell(t, e, "%nsys stats -q -r cuda_gpu_kern_sum -f csv train")
	want, _ := testutil.Golden(t, "train", "cuda_gpu_kern_sum.csv")
	if got := r.Displays[0].Data["text/plain"].(string); got != strings.TrimRight(want, "\n") {
		t.Errorf("csv differs from the golden:\n%s", testutil.Diff(got, want))
	}
	// the default set lists its SKIPPED reports in one block
	r = cell(t, e, "%nsys stats --sample")
	last := r.Displays[len(r.Displays)-1].Data["text/plain"].(string)
	if !strings.HasPrefix(last, "SKIPPED (") || !strings.Contains(last, "openmp_sum") {
		t.Errorf("skipped block %q", last)
	}
	if got := cell(t, e, "len(nb.Results())").result(t)["text/plain"]; got != "20" {
		t.Errorf("nb.Results: %v", got)
	}
	// a cell variable holding a profile is an input too
	cell(t, e, "mine, _ := nsysx.OpenSample()")
	r = cell(t, e, "%nsys stats -r cuda_api_sum mine")
	if js := r.Displays[0].Data[ResultMIME].(map[string]any); js["report"] != "cuda_api_sum" {
		t.Errorf("variable input: %v", js)
	}
	// -o writes files as the CLI does
	dir := t.TempDir()
	r = cell(t, e, fmt.Sprintf("%%nsys stats -r cuda_gpu_kern_sum -o %s train", filepath.Join(dir, "out")))
	b, err := os.ReadFile(filepath.Join(dir, "out_cuda_gpu_kern_sum.csv"))
	if err != nil || string(b) != want {
		t.Errorf("file: %v\n%s", err, r.Out.String())
	}
	for code, want := range map[string]string{
		"%nsys stats -r cuda_gpu_kern_sun":    "UsageError", // did you mean
		"%nsys stats --nope":                  "UsageError",
		"%nsys stats -r cuda_api_sum:nope":    "UsageError",
		"%nsys statz":                         "UsageError",
		"%nsys stats -o @cat":                 "UsageError",
		"%nsys stats -f parquet":              "UsageError",
		"%nsys stats /no/such/profile.sqlite": "OpenError",
	} {
		if _, err := tryCell(t, e, code); errName(err) != want {
			t.Errorf("%q: %v, want %s", code, err, want)
		}
	}
	if _, err := tryCell(t, e, "%nsys stats -r cuda_gpu_kern_sun"); !strings.Contains(err.Error(), "did you mean cuda_gpu_kern_sum") {
		t.Errorf("no suggestion: %v", err)
	}
	if r := cell(t, e, "%nsys stats --help-reports cuda_gpu_kern_sum"); !strings.Contains(r.Out.String(), "CUDA GPU Kernel Summary") {
		t.Errorf("help: %q", r.Out.String())
	}
}

func TestMagicNsysAnalyzeExport(t *testing.T) {
	e := openEngine(t, "sync")
	r := cell(t, e, "%nsys analyze -r cuda_memcpy_sync,gpu_gaps:gap=1")
	if len(r.Displays) != 3 {
		t.Fatalf("%d displays", len(r.Displays))
	}
	js := r.Displays[1].Data[ResultMIME].(map[string]any)
	if js["report"] != "cuda_memcpy_sync" {
		t.Errorf("rule %v", js["report"])
	}
	dir := t.TempDir()
	r = cell(t, e, "%nsys export -t parquet --tables ^StringIds$ -o "+dir)
	if _, err := os.Stat(filepath.Join(dir, "StringIds.parquet")); err != nil {
		ents, _ := os.ReadDir(dir)
		t.Errorf("export: %v %v", err, ents)
	}
	if len(r.Updates) == 0 || !strings.HasPrefix(r.Updates[len(r.Updates)-1].Data["text/plain"].(string), "exported 1 tables") {
		t.Errorf("export progress %v", r.Updates)
	}
}

func TestMagicSQL(t *testing.T) {
	e := newEngine(t)
	path := testutil.Profile(t, "train")
	sum := func() [32]byte {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return sha256.Sum256(b)
	}
	before := sum()
	r := cell(t, e, "%%sql "+path+" as kernels\nSELECT shortName, count(*) AS n FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1 ORDER BY 2 DESC")
	b := r.Displays[0].Data
	if !strings.Contains(b["text/html"].(string), "<th align=\"right\" style=\"text-align:right\">n</th>") {
		t.Errorf("sql table: %.300s", b["text/html"])
	}
	// independently: the kernels nsys counted per name, summed
	instances := 0
	for _, row := range goldenRows(t, "train", "cuda_gpu_kern_sum.csv") {
		var n int
		fmt.Sscan(row[2], &n)
		instances += n
	}
	if got := cell(t, e, "var total int64\nfor i := 0; i < kernels.Len(); i++ { total += kernels.Col(\"n\").Value(i).I }\ntotal").result(t)["text/plain"]; got != fmt.Sprint(instances) {
		t.Errorf("bound rows sum to %v, golden instances %d", got, instances)
	}
	// the last opened profile (a .gz, unpacked) is the default database
	cell(t, e, "%open "+gz("sync"))
	r = cell(t, e, "%%sql\nSELECT count(*) AS kernels FROM CUPTI_ACTIVITY_KIND_KERNEL")
	want := 0
	for _, row := range goldenRows(t, "sync", "cuda_gpu_kern_sum.csv") {
		var n int
		fmt.Sscan(row[2], &n)
		want += n
	}
	if js := r.Displays[0].Data[ResultMIME].(map[string]any); fmt.Sprint(js["rows"]) != fmt.Sprintf("[[%d]]", want) {
		t.Errorf("count on sync: %v", js["rows"])
	}
	// row limit and count
	r = cell(t, e, "%%sql "+path+"\nSELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL")
	if !strings.Contains(r.Displays[0].Data["text/html"].(string), "showing 50 of 5,600 rows") {
		t.Errorf("limit note missing")
	}
	for _, q := range []string{
		"DELETE FROM StringIds",
		"DROP TABLE StringIds",
		"UPDATE StringIds SET value = 'x'",
		"INSERT INTO StringIds VALUES (99999999, 'x')",
		"CREATE TABLE t (x)",
		"PRAGMA journal_mode = WAL",
		"ATTACH DATABASE '/tmp/x.db' AS x",
		"SELECT 1; DELETE FROM StringIds",
		"WITH x AS (SELECT 1) DELETE FROM StringIds",
		"/* comment */ delete from StringIds",
		"VACUUM",
		"",
	} {
		if _, err := tryCell(t, e, "%%sql "+path+"\n"+q); errName(err) != "SQLError" {
			t.Errorf("%q: %v", q, err)
		}
	}
	if sum() != before {
		t.Fatal("the database changed")
	}
	if _, err := tryCell(t, e, "%%sql "+path+"\nSELECT nope FROM StringIds"); errName(err) != "SQLError" {
		t.Errorf("bad column: %v", err)
	}
}

// TestSQLInterrupt: a long query stops when the cell is interrupted.
func TestSQLInterrupt(t *testing.T) {
	e := newEngine(t)
	path := testutil.Profile(t, "train")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	q := "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"
	err := runCode(ctx, e, "%%sql "+path+"\n"+q, &recorder{})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("err %v after %v", err, time.Since(start))
	}
}

// TestMagicInterrupt: %nsys stops at once when interrupted, although the
// library's reports do not watch the context, and the engine goes on.
func TestMagicInterrupt(t *testing.T) {
	big := tiledProfile(t, 16)
	e := newEngine(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		// repeated, so that the cell outlasts the interrupt however fast the library becomes
		reports := strings.Repeat("nvtx_kern_sum,nvtx_gpu_proj_trace,", 100)
		done <- runCode(ctx, e, "%nsys stats -r "+reports+" "+big, &recorder{})
	}()
	time.Sleep(500 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("not interrupted within 2s")
	}
	t.Logf("interrupted after %v", time.Since(start))
	if got := cell(t, e, "1 + 1").result(t)["text/plain"]; got != "2" {
		t.Errorf("engine after interrupt: %v", got)
	}
}

func TestMagicPlot(t *testing.T) {
	e := openEngine(t, "train", "fixed")
	r := cell(t, e, "%plot kernels --top 5 train")
	if len(r.Displays) != 1 {
		t.Fatalf("%d displays", len(r.Displays))
	}
	if _, ok := r.Displays[0].Data["image/png"]; !ok {
		t.Errorf("no PNG in %v", keys(r.Displays[0].Data))
	}
	r = cell(t, e, "%plot compare train fixed")
	if _, ok := r.Displays[0].Data["image/png"]; !ok {
		t.Errorf("compare: no PNG in %v", keys(r.Displays[0].Data))
	}
	// without a profile: the one opened last
	cell(t, e, "%plot memops")
	// charts are Go values too, shown by their MIME bundle
	if b := cell(t, e, "c, _ := plots.Kernels(ctx, train, 3)\nc").result(t); b["image/png"] == nil {
		t.Errorf("chart value: %v", keys(b))
	}
	for code, want := range map[string]string{
		"%plot nope":             "UsageError",
		"%plot kernels --bins 3": "UsageError", // kernels takes no --bins
		"%plot compare train":    "UsageError",
		"%plot kernels /no/such": "OpenError",
	} {
		if _, err := tryCell(t, e, code); errName(err) != want {
			t.Errorf("%q: %v, want %s", code, err, want)
		}
	}
	if r := cell(t, e, "%plot"); !strings.Contains(r.Out.String(), "nvtx-timeline") {
		t.Errorf("help: %q", r.Out.String())
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The idle breakdown and the kernel stacks in cells: reports through
// %nsys stats, charts through %plot, the pprof file through %nsys export.
func TestMagicIdleAndStacks(t *testing.T) {
	e := openEngine(t, "sync", "bt")
	for _, code := range []string{"%nsys stats -r gpu_idle_breakdown sync", "%nsys stats -r gpu_idle_breakdown:view=evidence sync",
		"%nsys stats -r cuda_kern_stack_sum:noruntime:foldpy bt"} {
		r := cell(t, e, code)
		if len(r.Displays) == 0 || r.Displays[len(r.Displays)-1].Data[ResultMIME] == nil {
			t.Errorf("%s: no result table (%d displays)", code, len(r.Displays))
		}
	}
	for _, code := range []string{"%plot idle sync", "%plot stacks bt"} {
		r := cell(t, e, code)
		if len(r.Displays) != 1 || r.Displays[0].Data["image/png"] == nil {
			t.Errorf("%s: %d displays", code, len(r.Displays))
		}
	}
	base := filepath.Join(t.TempDir(), "bt")
	cell(t, e, "%nsys export -t pprof -o "+base+" bt")
	if prof := testutil.ReadPprof(t, base+".pb.gz"); prof.DefaultSampleType != "gpu_time" {
		t.Errorf("pprof file: sample type %q, want gpu_time", prof.DefaultSampleType)
	}
	if r := cell(t, e, "%nsys export -t pprof -o "+base+"2 sync"); !strings.Contains(r.Out.String(), "SKIPPED: ") {
		t.Errorf("no stacks: %q", r.Out.String())
	}
}

func TestMagicNsysCompare(t *testing.T) {
	e := openEngine(t, "train", "fixed as after")
	r := cell(t, e, "%nsys compare train after")
	out := r.Out.String()
	if !strings.Contains(out, "[all kernels]          faster") || len(r.Displays) != 1 {
		t.Fatalf("stdout %q, %d displays", out, len(r.Displays))
	}
	js := r.Displays[0].Data[ResultMIME].(map[string]any)
	if js["report"] != "compare" {
		t.Errorf("display %v", js["report"])
	}
	// Less than half of train's kernel time is in kernels fixed runs: the
	// warning is on the cell's stderr, even with -q, and in the summary.
	const warn = "warning: less than half of train's"
	if !strings.Contains(r.Err.String(), warn) || !strings.Contains(out, warn) {
		t.Errorf("no comparability warning: stderr %q", r.Err.String())
	}
	if r := cell(t, e, "%nsys compare -q -f csv train after"); !strings.Contains(r.Err.String(), warn) {
		t.Errorf("-q: no warning on stderr: %q", r.Err.String())
	}
	r = cell(t, e, "%nsys compare -f csv train train")
	if out := r.Out.String(); !strings.HasPrefix(out, "Verdict,") || strings.Contains(out, "faster") {
		t.Errorf("-f csv of a profile against itself: %.200q", out)
	}
	path := filepath.Join(t.TempDir(), "cmp.csv")
	cell(t, e, "%nsys compare -o "+path+" train after")
	if b, err := os.ReadFile(path); err != nil || !strings.HasPrefix(string(b), "Verdict,") {
		t.Errorf("-o: %v %.80q", err, b)
	}
	for code, want := range map[string]string{
		"%nsys compare train":                                  "UsageError",
		"%nsys compare --threshold x a b":                      "UsageError",
		"%nsys compare --fail-on slowr a b":                    "UsageError",
		"%nsys compare --min-share 0 a b":                      "UsageError",
		"%nsys compare train /no/such.sqlite":                  "OpenError",
		"%nsys compare --fail-on slower -q -f csv train after": "CompareFailed",
	} {
		if _, err := tryCell(t, e, code); errName(err) != want {
			t.Errorf("%q: %v, want %s", code, err, want)
		}
	}
}

func TestMagicNsysTimeline(t *testing.T) {
	e := openEngine(t, "train")
	for _, code := range []string{"%nsys timeline", `%nsys timeline "iteration 12" train`, "%nsys timeline 0.5s/0.51s", "%nsys timeline --filter-nvtx forward/3"} {
		r := cell(t, e, code)
		if len(r.Displays) != 1 {
			t.Fatalf("%s: %d displays", code, len(r.Displays))
		}
		d := r.Displays[0].Data
		h, _ := d["text/html"].(string)
		if !strings.Contains(h, "nsysxTimeline(") || d["image/png"] == nil || !strings.Contains(d["text/plain"].(string), "kernels") {
			t.Errorf("%s: bundle %v", code, keys(d))
		}
	}
	r := cell(t, e, `%nsys timeline "no such range"`)
	if !strings.Contains(r.Out.String(), "SKIPPED") {
		t.Errorf("missing range: %q", r.Out.String())
	}
	if _, err := tryCell(t, e, "%nsys timeline --max-events 0"); errName(err) != "UsageError" {
		t.Errorf("--max-events 0: %v", err)
	}
}

// The Go API of nsysx/compare works in cells, and a *Comparison shows as
// its summary and table.
func TestCellCompareAPI(t *testing.T) {
	e := openEngine(t, "train as before", "fixed as after")
	r := cell(t, e, "import \"github.com/nsysx/nsysx/nsysx/compare\"\nc, _ := compare.Profiles(ctx, before, after, nil)\nc")
	res := r.result(t)
	if txt, _ := res["text/plain"].(string); !strings.Contains(txt, "[all kernels]          faster") || res[ResultMIME] == nil {
		t.Errorf("display %.300v", res["text/plain"])
	}
}
