package nsysx_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// A cancelled context stops a report, a load, an export and a filter's
// lookup; the same profile and filter then answer under a live context.
func TestCancel(t *testing.T) {
	p, err := nsysx.Open(testutil.Profile(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, _ := nsysx.LookupReport("cuda_gpu_trace")
	if _, err := p.RunReport(ctx, r, nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("RunReport with a cancelled context: %v", err)
	}
	if _, err := p.Stats(ctx, "nvtx_sum"); !errors.Is(err, context.Canceled) {
		t.Errorf("Stats with a cancelled context: %v", err)
	}
	if _, err := p.Analyze(ctx, "gpu_gaps"); !errors.Is(err, context.Canceled) {
		t.Errorf("Analyze with a cancelled context: %v", err)
	}
	if _, err := p.Load(ctx, "CUPTI_ACTIVITY_KIND_KERNEL", "start"); !errors.Is(err, context.Canceled) {
		t.Errorf("Load with a cancelled context: %v", err)
	}
	if err := nsysx.ExportTables(ctx, p, t.TempDir(), "parquet", nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("ExportTables with a cancelled context: %v", err)
	}
	//lint:ignore SA1012 a nil context is refused with an error, not a panic
	if _, err := p.Stats(nil, "nvtx_sum"); err == nil {
		t.Error("Stats with a nil context: no error")
	}
	if res, err := p.Stats(context.Background(), "cuda_gpu_kern_sum"); err != nil || res.Len() == 0 {
		t.Errorf("after a cancelled call: %v", err)
	}
	// a filter whose NVTX lookup was cancelled looks again on the next call
	f, _ := nsysx.ParseNVTXFilter("attention/1")
	if _, err := f.Resolve(ctx, p.Profile); !errors.Is(err, context.Canceled) {
		t.Errorf("Resolve with a cancelled context: %v", err)
	}
	if msg, err := f.Resolve(context.Background(), p.Profile); err != nil || msg != "" {
		t.Errorf("Resolve after a cancelled one: %q, %v", msg, err)
	}
}
