package analyze

import (
	"context"
	"testing"

	"github.com/nsysx/nsysx/nsysx/report"
)

// memFixture is a small CUDA profile for the memory and API rules: names,
// memory kinds, runtime calls (start, end, globalTid, correlationId, nameId).
func memFixture() *fx {
	f := &fx{}
	f.table(tStrings, "id", "value").
		Add(1, "cudaMemcpyAsync_v3020").Add(2, "cudaMemcpy_v3020").Add(3, "cudaMemset_v3020").
		Add(4, "cudaMemsetAsync_v3020").Add(5, "CUDAMEMCPYASYNC").Add(6, "cudaDeviceSynchronize_v3020").
		Add(7, "cudastreamsynchronize").Add(8, "cudaLaunchKernel_v7000").Add(9, "cudaMemcpy2DAsync_v3020")
	f.table("ENUM_CUDA_MEM_KIND", "id", "name", "label").
		Add(0, "PAGEABLE", "Pageable").Add(1, "PINNED", "Pinned").Add(2, "DEVICE", "Device").Add(4, "MANAGED", "Managed")
	return f
}

func (f *fx) runtime(rows ...[5]any) *fx {
	t := f.table(tRuntime, "start", "end", "eventClass", "globalTid", "correlationId", "nameId", "returnValue")
	for _, r := range rows {
		t.Add(r[0], r[1], 1, r[2], r[3], r[4], 0)
	}
	return f
}

// memcpys adds MEMCPY rows (start, end, correlationId, globalPid, bytes,
// copyKind, srcKind, dstKind, srcDeviceId, dstDeviceId, greenContextId).
func (f *fx) memcpys(rows ...[11]any) *fx {
	t := f.table(tMemcpy, "start", "end", "deviceId", "contextId", "greenContextId", "streamId", "correlationId",
		"globalPid", "bytes", "copyKind", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId")
	for _, r := range rows {
		t.Add(r[0], r[1], 0, 1, r[10], 7, r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9])
	}
	return f
}

func TestCudaMemcpyAsync(t *testing.T) {
	f := memFixture().runtime(
		[5]any{10, 20, gtid(7, 7), 100, 1}, // cudaMemcpyAsync, pid 7
		[5]any{30, 40, gtid(8, 8), 100, 5}, // same correlationId in pid 8: joins too
		[5]any{50, 60, gtid(7, 7), 101, 2}, // cudaMemcpy (not async)
		[5]any{70, 80, gtid(7, 7), 102, 9}, // cudaMemcpy2DAsync
		[5]any{90, 95, gtid(7, 7), 103, 1}, // pinned copy
		[5]any{96, 99, gtid(7, 7), 104, 1}, // copy outside the window
	).memcpys(
		[11]any{1000, 1500, 100, gpid(7), 1000000, 1, 0, 2, nil, 0, 0},
		[11]any{2000, 2100, 101, gpid(7), 2000000, 1, 0, 2, nil, 0, 3},
		[11]any{3000, 3500, 102, gpid(7), 2500, 2, 2, 0, 0, nil, 3},
		[11]any{4000, 5000, 103, gpid(7), 2500, 1, 1, 2, nil, 0, 0},
		[11]any{9000, 9900, 104, gpid(7), 2500, 1, 0, 2, nil, 0, 0},
	)
	p := f.profile(t)
	// Ties in Duration follow runtime row order; the name keeps its suffix.
	wantRows(t, analyzeRule(t, p, "cuda_memcpy_async"),
		"900,9000,Pageable,Device,2500,7,0,1,,7,cudaMemcpyAsync_v3020\n"+
			"500,1000,Pageable,Device,1000000,7,0,1,,7,cudaMemcpyAsync_v3020\n"+
			"500,1000,Pageable,Device,1000000,7,0,1,,7,CUDAMEMCPYASYNC\n"+
			"500,3000,Device,Pageable,2500,7,0,1,3,7,cudaMemcpy2DAsync_v3020\n")
	// The window filters the memcpys, never the runtime calls they join.
	wantRows(t, analyzeRule(t, p, "cuda-async-memcpy:start=2500:rows=-1"),
		"900,9000,Pageable,Device,2500,7,0,1,,7,cudaMemcpyAsync_v3020\n"+
			"500,3000,Device,Pageable,2500,7,0,1,3,7,cudaMemcpy2DAsync_v3020\n")
	r := analyzeRule(t, p, "cuda_memcpy_async:rows=1")
	if r.Len() != 1 || r.RowLimit != 1 || r.NoResult != "There were no problems detected related to memcpy operations using pageable memory." {
		t.Errorf("rows=1: %d rows, limit %d, %q", r.Len(), r.RowLimit, r.NoResult)
	}
}

func TestCudaMemRuleSkips(t *testing.T) {
	cases := []struct {
		build func() *fx
		rule  string
		msg   string
	}{
		{func() *fx { return (&fx{}).kernels() }, "cuda_memcpy_async", "fx.sqlite file does not contain StringIds table."},
		{func() *fx { return memFixture() }, "cuda_memcpy_sync", "fx.sqlite could not be analyzed because it does not contain the required CUDA data. Does the application use CUDA runtime APIs?"},
		{func() *fx { return memFixture().runtime() }, "cuda_memcpy_async", "fx.sqlite could not be analyzed because it does not contain the required CUDA data. Does the application use CUDA memcpy APIs?"},
		{func() *fx { return memFixture().runtime() }, "cuda_memset_sync", "fx.sqlite could not be analyzed because it does not contain the required CUDA data. Does the application use CUDA memset APIs?"},
		{func() *fx {
			f := memFixture().runtime().memcpys()
			f.tabs = append(f.tabs[:1], f.tabs[2:]...) // no ENUM_CUDA_MEM_KIND
			return f
		}, "cuda_memcpy_sync", "fx.sqlite does not contain ENUM_CUDA_MEM_KIND table."},
		{func() *fx {
			f := memFixture().runtime()
			f.table(tMemcpy, "start", "end", "correlationId")
			return f
		}, "cuda_memcpy_async", "fx.sqlite could not be analyzed due to missing 'greenContextId'. Please re-export the report file with a recent version of Nsight Systems."},
		{func() *fx { return memFixture() }, "cuda_api_sync", "fx.sqlite could not be analyzed because it does not contain the required CUDA data. Does the application use CUDA runtime APIs?"},
	}
	for _, tc := range cases {
		r, err := report.Analyze(context.Background(), tc.build().profile(t), tc.rule)
		if err != nil || r.Skipped != tc.msg {
			t.Errorf("%s: %v\n got %q\nwant %q", tc.rule, err, r.Skipped, tc.msg)
		}
	}
}
