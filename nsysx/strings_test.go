package nsysx_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// tripCtx is a context that turns cancelled at its n-th Err call: a report
// interrupted at the n-th place that looks at its context.
type tripCtx struct {
	context.Context
	mu      sync.Mutex
	n       int
	done    chan struct{}
	tripped bool
}

func newTripCtx(n int) *tripCtx {
	return &tripCtx{Context: context.Background(), n: n, done: make(chan struct{})}
}

func (c *tripCtx) Done() <-chan struct{} { return c.done }

func (c *tripCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.tripped {
		if c.n--; c.n < 0 {
			c.tripped = true
			close(c.done)
		}
	}
	if c.tripped {
		return context.Canceled
	}
	return nil
}

// stringSpecs need StringIds for their Name columns.
var stringSpecs = []string{"cuda_api_sum", "cuda_gpu_kern_sum", "nvtx_sum", "osrt_sum"}

// A report interrupted at any point of its first loads leaves nothing
// behind: the same report on the same Profile, run again with a live
// context, gives what nsys gave (the goldens), names included. Both ways
// a context reaches a report are tried: RunReport's and Stats's.
func TestInterruptedLoadLeavesNothing(t *testing.T) {
	path := testutil.Profile(t, "sync")
	for _, spec := range stringSpecs {
		want, ok := testutil.Golden(t, "sync", spec+".csv")
		if !ok {
			t.Fatalf("no golden %s", spec)
		}
		r, err := nsysx.LookupReport(spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, base := range []bool{false, true} {
			for n := 0; ; n++ {
				if n > 200 {
					t.Fatalf("%s: still interrupted after %d checks", spec, n)
				}
				p, err := nsysx.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				ctx := newTripCtx(n)
				var res *nsysx.Result
				if base {
					res, err = p.Stats(ctx, spec)
				} else {
					res, err = p.RunReport(ctx, r, nil, nil)
				}
				if err != nil && !errors.Is(err, context.Canceled) {
					t.Fatalf("%s interrupted at check %d: %v", spec, n, err)
				}
				if err == nil && !ctx.tripped {
					p.Close()
					break // ran to the end: every check point was tried
				}
				again, err := p.Stats(context.Background(), spec)
				if err != nil {
					t.Fatalf("%s after an interrupt at check %d: %v", spec, n, err)
				}
				if d := testutil.Diff(statsCSV(t, again), want); d != "" {
					t.Fatalf("%s after an interrupt at check %d (through Stats %v): %s", spec, n, base, d)
				}
				_ = res
				p.Close()
			}
		}
	}
}

// zeroPage writes a copy of the profile with page pg (1-based) zeroed.
func zeroPage(t *testing.T, src string, pg int) string {
	t.Helper()
	b := testutil.ReadFile(t, src)
	ps := int(b[16])<<8 | int(b[17])
	clear(b[(pg-1)*ps : pg*ps])
	return testutil.WriteTemp(t, "zeroed.sqlite", b)
}

// When StringIds cannot be read (page 2 of sync.sqlite is its root), every
// report that shows names from it fails with that error, instead of printing
// empty names and merging the rows that differ only by name; reports that
// need no names are unchanged.
func TestUnreadableStringsFailReports(t *testing.T) {
	p := nsysxtest.Open(t, zeroPage(t, testutil.Profile(t, "sync"), 2))
	for _, spec := range []string{"cuda_api_sum", "cuda_gpu_kern_sum", "osrt_sum", "cuda_api_trace", "cuda_gpu_trace", "nvtx_kern_sum"} {
		res, err := p.Stats(context.Background(), spec)
		if err == nil {
			t.Errorf("%s: no error (%d rows, skipped %q)", spec, res.Len(), res.Skipped)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "StringIds") || !strings.Contains(msg, "page 2") {
			t.Errorf("%s: error does not name StringIds and its page: %v", spec, err)
		}
	}
	// an NVTX filter's range is looked up by name: an error, not "not found"
	f, err := nsysx.ParseNVTXFilter("iteration")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := nsysx.LookupReport("cuda_gpu_kern_sum")
	if res, err := p.RunReport(context.Background(), r, nil, f); err == nil {
		t.Errorf("filtered by an NVTX range: no error (skipped %q)", res.Skipped)
	} else if !strings.Contains(err.Error(), "StringIds") {
		t.Errorf("filtered by an NVTX range: %v", err)
	}
	// sync's NVTX ranges carry their text inline: nvtx_sum needs no StringIds
	for _, spec := range []string{"nvtx_sum", "cuda_gpu_mem_time_sum"} {
		want, _ := testutil.Golden(t, "sync", spec+".csv")
		res, err := p.Stats(context.Background(), spec)
		if err != nil {
			t.Fatalf("%s needs no names: %v", spec, err)
		}
		if d := testutil.Diff(statsCSV(t, res), want); d != "" {
			t.Errorf("%s: %s", spec, d)
		}
	}
}
