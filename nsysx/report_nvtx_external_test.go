package nsysx_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// myExternalProfiles were made by other nsys versions (2022.4, 2026.x); their
// goldens are kept back, so the reports are checked for sanity instead.
var myExternalProfiles = []string{"nsysai_h100_2gpu_1s", "nsysai_healthy_1pct", "nsysai_mfu_2gpu_after",
	"nsysai_mfu_2gpu_before", "train22"}

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
	for _, name := range myExternalProfiles {
		t.Run(name, func(t *testing.T) {
			p, err := nsysx.Open(testutil.External(t, name))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
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
	for i := 0; i < r.Len(); i++ {
		if parent.Value(i).IsNull() {
			continue
		}
		j, ok := row[parent.Value(i).I]
		if !ok {
			t.Fatalf("%s: parent %s of %s not listed", spec, parent.Text(i), id.Text(i))
		}
		if cellNum(start, j) > cellNum(start, i) || cellNum(end, j) < cellNum(end, i) || lvl.Value(j).I+1 != lvl.Value(i).I ||
			stack.Text(j)+":"+id.Text(i) != stack.Text(i) {
			t.Errorf("%s: range %s does not nest in its parent %s", spec, id.Text(i), parent.Text(i))
		}
	}
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
	for i := 0; i < r.Len(); i++ {
		if parent.Value(i).IsNull() {
			continue
		}
		j, ok := row[parent.Value(i).I]
		if !ok {
			t.Fatalf("%s: parent %s of %s has no projection", spec, parent.Text(i), id.Text(i))
		}
		if cellNum(ps, j) > cellNum(ps, i) || cellNum(ps, j)+cellNum(pd, j) < cellNum(ps, i)+cellNum(pd, i) || cellNum(ops, j) < cellNum(ops, i) {
			t.Errorf("%s: projection of %s not inside its parent %s", spec, id.Text(i), parent.Text(i))
		}
	}
}

// TestNVTXParquetExport runs the NVTX reports on the Parquet export of train
// (the generic reader path) against train's goldens.
func TestNVTXParquetExport(t *testing.T) {
	p, err := nsysx.Open(testutil.Root() + "/testdata/profiles/train_pqtdir")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
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
