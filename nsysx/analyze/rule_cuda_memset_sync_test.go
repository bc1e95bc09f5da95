package analyze

import "testing"

// Memsets on pinned or managed memory from a cudaMemset call that is not
// async (case-insensitively); the texts are cuda_api_sync's, as in nsys.
func TestCudaMemsetSync(t *testing.T) {
	f := memFixture().runtime(
		[5]any{10, 20, gtid(7, 7), 1, 3},
		[5]any{10, 20, gtid(7, 7), 2, 3},
		[5]any{10, 20, gtid(7, 7), 3, 4}, // cudaMemsetAsync
		[5]any{10, 20, gtid(7, 7), 4, 3},
		[5]any{10, 20, gtid(7, 7), 5, 3},
	)
	t2 := f.table(tMemset, "start", "end", "deviceId", "contextId", "greenContextId", "streamId", "correlationId",
		"globalPid", "value", "bytes", "memKind")
	t2.Add(1000, 1100, 0, 1, nil, 7, 1, gpid(7), 0, 4096, 1)
	t2.Add(2000, 2300, 0, 1, 0, 7, 2, gpid(7), 0, 4096, 4)
	t2.Add(3000, 3500, 0, 1, nil, 7, 3, gpid(7), 0, 4096, 1)
	t2.Add(4000, 4900, 0, 1, nil, 7, 4, gpid(7), 0, 4096, 2) // device memory
	t2.Add(5000, 5900, 0, 1, nil, 7, 5, gpid(7), 0, 4096, nil)
	r := analyzeRule(t, f.profile(t), "cuda-sync-memset")
	wantRows(t, r, "300,2000,Managed,4096,7,0,1,,7,cudaMemset_v3020\n100,1000,Pinned,4096,7,0,1,,7,cudaMemset_v3020\n")
	if r.Advice != adviceSyncAPI || r.NoResult != noResultSyncAPI {
		t.Errorf("texts %q / %q", r.Advice, r.NoResult)
	}
}
