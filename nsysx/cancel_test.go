package nsysx_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// A cancelled context stops a report, through RunReport or through the base
// context a host (the Jupyter kernel) sets for calls that take none.
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
	nsysx.SetBaseContext(ctx)
	_, err = p.Stats("nvtx_sum")
	nsysx.SetBaseContext(nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Stats under a cancelled base context: %v", err)
	}
	if res, err := p.Stats("cuda_gpu_kern_sum"); err != nil || res.Len() == 0 {
		t.Errorf("after the base context is reset: %v", err)
	}
}
