package analyze

import (
	"context"
	"testing"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/report"
)

func TestCudaAPISync(t *testing.T) {
	f := memFixture().runtime(
		[5]any{100, 200, gtid(7, 7), 1, 6},
		[5]any{300, 400, gtid(7, 9), 2, 7}, // lower-case name matches LIKE
		[5]any{500, 800, gtid(8, 8), 3, 6},
		[5]any{900, 950, gtid(7, 7), 4, 8},
		[5]any{1000, 1100, gtid(7, 7), 5, 6},
	)
	nv := f.table(events.TableNVTXEvents, "start", "end", "eventType", "globalTid", "text", "textId", "domainId", "endGlobalTid")
	nv.Add(250, 450, 59, gtid(7, 9), "step", nil, 0, nil)
	p := f.profile(t)
	all := "300,500,8,8,cudaDeviceSynchronize_v3020\n" +
		"100,100,7,7,cudaDeviceSynchronize_v3020\n" +
		"100,300,7,9,cudastreamsynchronize\n" +
		"100,1000,7,7,cudaDeviceSynchronize_v3020\n"
	r := analyzeRule(t, p, "cuda_api_sync")
	wantRows(t, r, all)
	if r.Advice != adviceSyncAPI || r.NoResult != noResultSyncAPI || r.RowLimit != 50 {
		t.Errorf("texts %q / %q, limit %d", r.Advice, r.NoResult, r.RowLimit)
	}
	wantRows(t, analyzeRule(t, p, "cuda-sync-api:rows=2"), "300,500,8,8,cudaDeviceSynchronize_v3020\n100,100,7,7,cudaDeviceSynchronize_v3020\n")
	wantRows(t, analyzeRule(t, p, "cuda_api_sync:process=7"), "100,100,7,7,cudaDeviceSynchronize_v3020\n100,300,7,9,cudastreamsynchronize\n100,1000,7,7,cudaDeviceSynchronize_v3020\n")
	wantRows(t, analyzeRule(t, p, "cuda_api_sync:thread=9"), "100,300,7,9,cudastreamsynchronize\n")
	wantRows(t, analyzeRule(t, p, "cuda_api_sync:process=7:thread=7:end=999"), "100,100,7,7,cudaDeviceSynchronize_v3020\n")
	wantRows(t, analyzeRule(t, p, "cuda_api_sync:process=-1"), all)
	// nvtx= keeps the range's window and thread (push/pop: PID != TID).
	wantRows(t, analyzeRule(t, p, "cuda_api_sync:nvtx=step"), "100,300,7,9,cudastreamsynchronize\n")
	for spec, msg := range map[string]string{
		"cuda_api_sync:nvtx=step:process=7": "The 'nvtx' option cannot be used with 'pid' or 'tid'.",
		"cuda_api_sync:nvtx=nope:thread=7":  "NVTX range 'nope' could not be found in fx.sqlite.",
		"cuda_api_sync:start=5:end=4":       "The start time cannot be greater than the end time.",
	} {
		r, err := report.Analyze(context.Background(), p, spec)
		if err != nil || r.Skipped != msg {
			t.Errorf("%s: %v %q", spec, err, r.Skipped)
		}
	}
	if _, err := report.Analyze(context.Background(), p, "cuda_api_sync:process=x"); err == nil {
		t.Error("process=x: no error")
	}
}
