package nsysx_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// externals were made by other nsys versions (2022.4, 2026.x, schemas 3.0,
// 3.24, 3.25, and a trimmed file); their goldens are kept back, so the
// reports are checked for sanity instead.
var externals = []string{"nsysai_h100_2gpu_1s", "nsysai_healthy_1pct", "nsysai_mfu_2gpu_after", "nsysai_mfu_2gpu_before", "train22"}

// TestExternalProfiles runs every report and rule on exports made by other
// nsys versions (schemas 3.0, 3.24, 3.25, and a trimmed file): no error, no
// panic; SKIPPED where data is missing; the invariants elsewhere.
func TestExternalProfiles(t *testing.T) {
	for _, name := range externals {
		p, err := nsysx.Open(testutil.External(t, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ran, skipped := 0, 0
		for _, r := range append(nsysx.Reports(), nsysx.Rules()...) {
			res, err := p.RunReport(context.Background(), r, nil, nil)
			if err != nil {
				t.Errorf("%s %s: %v", name, r.Name, err)
				continue
			}
			if res.Skipped != "" {
				skipped++
				if !strings.HasPrefix(res.Skipped, p.Path) && !strings.Contains(res.Skipped, "does not contain") {
					t.Errorf("%s %s: odd SKIPPED message %q", name, r.Name, res.Skipped)
				}
				continue
			}
			ran++
			checkInvariants(t, name+" "+r.Name, res)
		}
		t.Logf("%s (schema %s): %d reports and rules with data, %d SKIPPED", name, p.SchemaVersion(context.Background()), ran, skipped)
		p.Close()
	}
}

// TestRealProfileInvariants checks the same invariants on the seven real
// captures (whose exact outputs the golden tests check too).
func TestRealProfileInvariants(t *testing.T) {
	for _, name := range testutil.Profiles {
		p, err := nsysx.Open(testutil.Profile(t, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range append(nsysx.Reports(), nsysx.Rules()...) {
			res, err := p.RunReport(context.Background(), r, nil, nil)
			if err != nil {
				t.Errorf("%s %s: %v", name, r.Name, err)
				continue
			}
			checkInvariants(t, name+" "+r.Name, res)
		}
		p.Close()
	}
}

func num(v nsysx.Value) (float64, bool) {
	switch v.Kind {
	case nsysx.IntKind:
		return float64(v.I), true
	case nsysx.FloatKind:
		return v.F, true
	}
	return 0, false
}

// checkInvariants: percentages sum to 100 +/- 0.1; min <= median <= max and
// min <= avg <= max for every Min/Med/Avg/Max family; count x avg = total
// within rounding; traces sorted by their first time column.
func checkInvariants(t *testing.T, what string, r *nsysx.Result) {
	t.Helper()
	n := r.Len()
	if n == 0 {
		return
	}
	if c := r.Col("Time"); c.Err() == nil && c.Tag() == "ratio_%" {
		sum := 0.0
		for i := 0; i < n; i++ {
			v, _ := num(c.Value(i))
			sum += v
		}
		// each row is rounded to 0.1, so the sum may drift by up to 0.05 a row
		if tol := 0.1 + 0.05*float64(n); math.Abs(sum-100) > math.Min(tol, 1+0.05*float64(n)) && math.Abs(sum-100) > 0.1 {
			if math.Abs(sum-100) > 0.05*float64(n)+0.1 {
				t.Errorf("%s: Time %% sums to %.2f over %d rows", what, sum, n)
			}
		}
	}
	prefixes := map[string]bool{}
	for _, c := range r.Cols {
		l := c.Label()
		for _, suf := range []string{"Min", "Med", "Max", "Avg"} {
			if strings.HasSuffix(l, suf) {
				prefixes[strings.TrimSuffix(l, suf)] = true
			}
		}
	}
	for pre := range prefixes {
		mn, md, mx, av := r.Col(pre+"Min"), r.Col(pre+"Med"), r.Col(pre+"Max"), r.Col(pre+"Avg")
		if mn.Err() != nil || mx.Err() != nil {
			continue
		}
		for i := 0; i < n; i++ {
			lo, ok1 := num(mn.Value(i))
			hi, ok2 := num(mx.Value(i))
			if !ok1 || !ok2 {
				continue
			}
			if lo > hi {
				t.Errorf("%s row %d: %sMin %v > %sMax %v", what, i, pre, lo, pre, hi)
			}
			for _, c := range []*nsysx.ResultCol{md, av} {
				if c.Err() != nil {
					continue
				}
				if v, ok := num(c.Value(i)); ok && (v < lo-0.05 || v > hi+0.05) {
					t.Errorf("%s row %d: %s %v outside [%v, %v]", what, i, c.Label(), v, lo, hi)
				}
			}
		}
	}
	// count x avg = total
	total, avg := r.Col("Total Time"), r.Col("Avg")
	var count *nsysx.ResultCol
	for _, l := range []string{"Instances", "Num Calls", "Count"} {
		if c := r.Col(l); c.Err() == nil {
			count = c
		}
	}
	if total.Err() == nil && avg.Err() == nil && count != nil {
		for i := 0; i < n; i++ {
			tt, ok1 := num(total.Value(i))
			a, ok2 := num(avg.Value(i))
			k, ok3 := num(count.Value(i))
			if ok1 && ok2 && ok3 && math.Abs(k*a-tt) > 0.05*k+1e-6*tt {
				t.Errorf("%s row %d: %v x %v != %v", what, i, k, a, tt)
			}
		}
	}
	// traces: sorted by their start column
	if strings.HasSuffix(r.Report, "_trace") && r.Report != "nvtx_gpu_proj_trace" {
		first := r.Cols[0]
		if first.Tag() == "ts_ns" {
			prev := math.Inf(-1)
			for i := 0; i < n; i++ {
				v, ok := num(first.Value(i))
				if !ok {
					continue
				}
				if v < prev {
					t.Errorf("%s: not sorted by %s at row %d", what, first.Label(), i)
					break
				}
				prev = v
			}
		}
	}
}

// TestMissingColumnSkips: the trimmed export's kernel table has no globalPid,
// so reports that join kernels to API calls print a SKIPPED line naming the
// column, while reports that do not need it run.
func TestMissingColumnSkips(t *testing.T) {
	path := testutil.External(t, "nsysai_healthy_1pct")
	p := nsysxtest.Open(t, path)
	r, err := p.Stats(context.Background(), "cuda_kern_exec_sum")
	if err != nil {
		t.Fatal(err)
	}
	if want := path + " does not contain the 'globalPid' column in CUPTI_ACTIVITY_KIND_KERNEL."; r.Skipped != want {
		t.Errorf("SKIPPED %q, want %q", r.Skipped, want)
	}
	if r, err := p.Stats(context.Background(), "cuda_gpu_kern_sum"); err != nil || r.Skipped != "" || r.Len() == 0 {
		t.Errorf("cuda_gpu_kern_sum on the trimmed export: %v %q", err, r.Skipped)
	}
}

// myReports are the reports of this family of files.
var myReports = []string{"nvtx_sum", "nvtx_pushpop_sum", "nvtx_startend_sum", "nvtx_pushpop_trace",
	"nvtx_gpu_proj_sum", "nvtx_gpu_proj_trace", "nvtx_kern_sum", "nvtx_kern_sum:base", "nvtx_kern_sum:mangled",
	"osrt_sum", "syscall_sum", "um_sum", "um_total_sum", "um_cpu_page_faults_sum", "mpi_event_sum",
	"mpi_event_trace", "mpi_msg_size_sum", "openmp_sum", "openacc_sum", "cudnn_api_sum", "cublas_api_sum",
	"opengl_khr_range_sum", "opengl_khr_gpu_range_sum", "vulkan_marker_sum", "vulkan_gpu_marker_sum",
	"vulkan_api_sum", "vulkan_api_trace", "dx11_pix_sum", "dx12_gpu_marker_sum", "dx12_pix_sum",
	"wddm_queue_sum", "nvvideo_api_sum", "network_congestion"}

// TestMyReportsExternal runs every report on every external export: no
// failure, a SKIPPED message where data is missing, and the invariants of
// each kind of output.
func TestMyReportsExternal(t *testing.T) {
	ran := 0
	for _, name := range externals {
		t.Run(name, func(t *testing.T) {
			p := nsysxtest.Open(t, testutil.External(t, name))
			for _, spec := range myReports {
				r, err := p.Stats(context.Background(), spec)
				if err != nil {
					if errors.Is(err, nsysx.ErrNotImplemented) {
						continue
					}
					t.Errorf("%s: %v", spec, err)
					continue
				}
				if r.Skipped != "" {
					if !strings.Contains(r.Skipped, p.Path) && !strings.HasPrefix(r.Skipped, "The ") {
						t.Errorf("%s: SKIPPED message without the file: %q", spec, r.Skipped)
					}
					continue
				}
				ran++
				checkMyInvariants(t, spec, r)
			}
		})
	}
	if ran < 10 {
		t.Errorf("only %d reports produced rows on the external profiles", ran)
	}
}

// TestMyReportsRealInvariants applies the same checks to the real captures.
func TestMyReportsRealInvariants(t *testing.T) {
	for _, prof := range testutil.Profiles {
		p, err := nsysx.Open(testutil.Profile(t, prof))
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range []string{"nvtx_sum", "nvtx_pushpop_trace", "nvtx_gpu_proj_trace", "nvtx_gpu_proj_sum", "nvtx_kern_sum", "osrt_sum", "um_sum:rows=-1"} {
			r, err := p.Stats(context.Background(), spec)
			if err != nil {
				t.Fatalf("%s %s: %v", prof, spec, err)
			}
			if r.Skipped == "" {
				checkMyInvariants(t, prof+" "+spec, r)
			}
		}
		p.Close()
	}
}

func cellNum(c *nsysx.ResultCol, i int) float64 { return c.Value(i).AsFloat() }

func checkMyInvariants(t *testing.T, spec string, r *nsysx.Result) {
	t.Helper()
	n := r.Len()
	// percentages add up to 100, up to the rounding of each row
	if c := r.Col("Time"); c.Err() == nil && n > 0 {
		var sum float64
		for i := 0; i < n; i++ {
			sum += cellNum(c, i)
		}
		if math.Abs(sum-100) > math.Max(0.1, 0.05*float64(n)) {
			t.Errorf("%s: Time (%%) sums to %.2f over %d rows", spec, sum, n)
		}
	}
	// min <= median <= max, count*avg = total (avg is rounded to 0.1)
	for _, pre := range []string{"", "Proj "} {
		mn, md, mx, avg := r.Col(pre+"Min"), r.Col(pre+"Med"), r.Col(pre+"Max"), r.Col(pre+"Avg")
		if mn == nil || md == nil || mx == nil {
			continue
		}
		total, count := r.Col("Total Time"), r.Col("Instances")
		for _, alt := range []string{"Num Calls", "Count", "Range Instances", "Kern Inst"} {
			if count == nil {
				count = r.Col(alt)
			}
		}
		if total == nil {
			total = r.Col("Total Proj Time")
		}
		for i := 0; i < n; i++ {
			if mn.Value(i).IsNull() {
				continue
			}
			if !(cellNum(mn, i) <= cellNum(md, i) && cellNum(md, i) <= cellNum(mx, i)) {
				t.Errorf("%s row %d: min %s med %s max %s", spec, i, mn.Text(i), md.Text(i), mx.Text(i))
			}
			if total != nil && count != nil && avg != nil && !strings.Contains(spec, "nvtx_kern_sum") {
				if d := math.Abs(cellNum(count, i)*cellNum(avg, i) - cellNum(total, i)); d > 0.05*cellNum(count, i)+1e-6*cellNum(total, i)+1 {
					t.Errorf("%s row %d: %s x %s != %s", spec, i, count.Text(i), avg.Text(i), total.Text(i))
				}
			}
		}
	}
	switch {
	case strings.Contains(spec, "nvtx_pushpop_trace"):
		checkPushPopTrace(t, spec, r)
	case strings.Contains(spec, "nvtx_gpu_proj_trace"):
		checkProjTrace(t, spec, r)
	case strings.Contains(spec, "mpi_event_trace"):
		for i := 1; i < n; i++ {
			if nsysx.Compare(r.Cols[0].Value(i-1), r.Cols[0].Value(i)) > 0 {
				t.Fatalf("%s: row %d out of start order", spec, i)
			}
		}
	}
}

// checkPushPopTrace: start order, children inside their parents, one level
// below them, stacks ending with the range's own id, child time within the
// range's time.
func checkPushPopTrace(t *testing.T, spec string, r *nsysx.Result) {
	start, end, dur, nonChild := r.Col("Start"), r.Col("End"), r.Col("Duration"), r.Col("DurNonChild")
	id, parent, lvl, stack := r.Col("RangeId"), r.Col("ParentId"), r.Col("Lvl"), r.Col("RangeStack")
	row := map[int64]int{}
	for i := 0; i < r.Len(); i++ {
		row[id.Value(i).I] = i
		if i > 0 && (cellNum(start, i-1) > cellNum(start, i) || cellNum(start, i-1) == cellNum(start, i) && cellNum(dur, i-1) > cellNum(dur, i)) {
			t.Fatalf("%s: row %d out of (start, duration) order", spec, i)
		}
		if cellNum(nonChild, i) < 0 {
			t.Errorf("%s: range %s has more child time than its own", spec, id.Text(i))
		}
		if !strings.HasSuffix(stack.Text(i), ":"+id.Text(i)) {
			t.Errorf("%s: RangeStack %q of %s", spec, stack.Text(i), id.Text(i))
		}
	}
	eachChild(t, spec, r, row, "not listed", func(i, j int) {
		if cellNum(start, j) > cellNum(start, i) || cellNum(end, j) < cellNum(end, i) || lvl.Value(j).I+1 != lvl.Value(i).I ||
			stack.Text(j)+":"+id.Text(i) != stack.Text(i) {
			t.Errorf("%s: range %s does not nest in its parent %s", spec, id.Text(i), parent.Text(i))
		}
	})
}

// checkProjTrace: RangeId order, a projection inside its parent's projection
// with no more GPU operations than the parent.
func checkProjTrace(t *testing.T, spec string, r *nsysx.Result) {
	ps, pd, ops := r.Col("Projected Start"), r.Col("Projected Duration"), r.Col("NumGPUOps")
	id, parent := r.Col("RangeId"), r.Col("ParentId")
	row := map[int64]int{}
	for i := 0; i < r.Len(); i++ {
		if i > 0 && id.Value(i-1).I >= id.Value(i).I {
			t.Fatalf("%s: row %d out of RangeId order", spec, i)
		}
		if cellNum(pd, i) < 0 || cellNum(ops, i) < 1 {
			t.Errorf("%s: range %s projects %s ns of %s ops", spec, id.Text(i), pd.Text(i), ops.Text(i))
		}
		row[id.Value(i).I] = i
	}
	eachChild(t, spec, r, row, "has no projection", func(i, j int) {
		if cellNum(ps, j) > cellNum(ps, i) || cellNum(ps, j)+cellNum(pd, j) < cellNum(ps, i)+cellNum(pd, i) || cellNum(ops, j) < cellNum(ops, i) {
			t.Errorf("%s: projection of %s not inside its parent %s", spec, id.Text(i), parent.Text(i))
		}
	})
}

// eachChild calls check(i, j) for every row i whose ParentId is the RangeId
// of row j (row maps RangeIds to rows); a parent without a row is fatal, the
// message saying it "missing".
func eachChild(t *testing.T, spec string, r *nsysx.Result, row map[int64]int, missing string, check func(i, j int)) {
	t.Helper()
	id, parent := r.Col("RangeId"), r.Col("ParentId")
	for i := 0; i < r.Len(); i++ {
		if parent.Value(i).IsNull() {
			continue
		}
		j, ok := row[parent.Value(i).I]
		if !ok {
			t.Fatalf("%s: parent %s of %s %s", spec, parent.Text(i), id.Text(i), missing)
		}
		check(i, j)
	}
}

// TestNVTXParquetExport runs the NVTX reports on the Parquet export of train
// (the generic reader path) against train's goldens.
func TestNVTXParquetExport(t *testing.T) {
	p := nsysxtest.Open(t, testutil.Root()+"/testdata/profiles/train_pqtdir")
	for _, spec := range []string{"nvtx_sum", "nvtx_pushpop_trace", "nvtx_kern_sum", "nvtx_gpu_proj_sum"} {
		want, _ := testutil.Golden(t, "train", goldenName(spec))
		r, err := p.Stats(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		if d := testutil.Diff(statsCSV(t, r), want); d != "" {
			t.Errorf("%s on train_pqtdir: %s", spec, d)
		}
	}
}
