package nsysxengine

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestCellContext: each cell has its own ctx. Interrupting cell B cancels
// B's ctx, so a report under it fails with context.Canceled, while cell A's
// ctx (which a goroutine of A would hold) is cancelled neither when A ends
// nor when B is interrupted, and a report under it runs.
func TestCellContext(t *testing.T) {
	e := newEngine(t)
	cell(t, e, "p, _ := nsysx.OpenSample()\nactx := ctx")
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	rb := &recorder{}
	errc := make(chan error, 1)
	go func() {
		errc <- runCode(ctx, e, "bctx := ctx\nfmt.Println(\"B running\")\n<-bctx.Done()", rb)
	}()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(rb.stdoutText(), "B running"); {
		if time.Now().After(deadline) {
			t.Fatal("cell B did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	interrupt()
	if err := <-errc; err == nil {
		t.Error("interrupted cell B: no error")
	}
	for _, c := range []struct{ code, want string }{
		{`fmt.Sprint(actx.Err())`, "<nil>"},
		{`fmt.Sprint(bctx.Err())`, "context canceled"},
		{`_, err := p.Stats(bctx, "cuda_api_sum"); fmt.Sprint(err)`, "context canceled"},
		{`r, err := p.Stats(actx, "cuda_gpu_kern_sum"); fmt.Sprint(err, r.Len())`, "<nil> 2"},
		{`fmt.Sprint(ctx.Err(), ctx == bctx, ctx == actx)`, "<nil> false false"},
	} {
		if got := cell(t, e, c.code).result(t)["text/plain"]; got != c.want {
			t.Errorf("%s: %v, want %s", c.code, got, c.want)
		}
	}
}

// stdoutText is what the cell printed so far.
func (r *recorder) stdoutText() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stdout.String()
}

// TestCellContextSegments: the code segments of one cell
// share its ctx; nb.CellContext is the running cell's.
func TestCellContextSegments(t *testing.T) {
	e := newEngine(t)
	cell(t, e, "first := ctx\n%env NSYSX_TEST_CELLCTX=1\nsecond := ctx")
	if got := cell(t, e, "fmt.Sprint(first == second, first == ctx, nb.CellContext() == ctx)").result(t)["text/plain"]; got != "true false true" {
		t.Errorf("segments: %v", got)
	}
}
