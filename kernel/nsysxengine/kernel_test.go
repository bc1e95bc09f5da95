package nsysxengine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/kernel/internal/wiretest"
	"github.com/nsysx/nsysx/kernel/wire"
)

// TestKernelInterruptReport interrupts a real long report (nvtx_kern_sum on
// train repeated 16 times) through interrupt_request: the reply comes at
// once and the next cell sees the state of the earlier ones.
func TestKernelInterruptReport(t *testing.T) {
	big := tiledProfile(t, 16)
	wk := startKernel(t)
	wk.Execute("before := 41")
	// the reports are repeated so that the cells outlast the interrupt
	// however fast the library becomes
	for _, code := range []string{
		"%nsys stats -r " + strings.Repeat("nvtx_kern_sum,nvtx_gpu_proj_trace,", 100) + " " + big,
		// a Go cell calling the library: the evaluation is stopped, the
		// compiled call running then finishes in the background
		fmt.Sprintf("p, _ := nsysx.Open(%q)\nfor i := 0; i < 200; i++ {\n\tp.Stats(ctx, \"nvtx_kern_sum\")\n}", big),
	} {
		id, err := wk.StartExecute(code, wireTimeout)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond) // well into the reports
		start := time.Now()
		// not Request: its Collect would drop the cell's idle, which may
		// come before the interrupt's own
		if _, err := wk.Send(wire.Control, "interrupt_request", map[string]any{}); err != nil {
			t.Fatal(err)
		}
		if ir, err := wk.Recv(wire.Control, wireTimeout); err != nil || ir.Type() != "interrupt_reply" {
			t.Fatalf("interrupt: %v %v", ir, err)
		}
		res, err := wk.Collect(wire.Shell, id, wireTimeout)
		if err != nil {
			t.Fatal(err)
		}
		if c := res.Content(); c["status"] != "error" || c["ename"] != "Interrupted" {
			t.Errorf("%.40q: reply %v", code, c)
		}
		t.Logf("%.40q: reply %v after the interrupt", code, time.Since(start))
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("interrupt took %v", d)
		}
		if got := wiretest.ResultText(t, wk.Execute("before + 1")); got != "42" {
			t.Errorf("state after interrupt: %s", got)
		}
	}
}

// TestKernelPanicAndBigCell: a panicking cell is an error and the kernel
// lives on; a 10 MB cell (source) runs.
func TestKernelPanicAndBigCell(t *testing.T) {
	wk := startKernel(t)
	wk.Execute("p, _ := nsysx.OpenSample()")
	res := wk.Execute("var r *nsysx.Result\nr.Len()")
	if c := res.Content(); c["status"] != "error" || c["ename"] != "panic" {
		t.Errorf("nil result: %v", c)
	}
	res = wk.Execute("panic(\"boom\")")
	if c := res.Content(); c["ename"] != "panic" || !strings.Contains(c["evalue"].(string), "boom") || len(res.OfType("error")) != 1 {
		t.Errorf("panic: %v", c)
	}
	// panics in a callback the library calls (a Result.Filter predicate),
	// on the cell's goroutine and on a goroutine the cell started
	wk.Execute("k, _ := p.Stats(ctx, \"cuda_gpu_kern_sum\")")
	for code, want := range map[string]string{
		"k.Filter(func(row nsysx.Row) bool { panic(\"predicate\") })":                                                                                "predicate (line 1)",
		"done := make(chan bool)\ngo func() {\n\tdefer close(done)\n\tk.Filter(func(row nsysx.Row) bool { panic(\"in a goroutine\") })\n}()\n<-done": "in a goroutine (line 4) (in a goroutine started at line 2)",
	} {
		if c := wk.Execute(code).Content(); c["ename"] != "panic" || c["evalue"] != want {
			t.Errorf("%q: %v", code, c)
		}
	}
	// 10 MB of source: a string constant and a comment
	big := "s := \"" + strings.Repeat("x", 5<<20) + "\"\n// " + strings.Repeat("y", 5<<20) + "\nlen(s)"
	if got := wiretest.ResultText(t, wk.Execute(big)); got != fmt.Sprint(5<<20) {
		t.Errorf("10 MB cell: %s", got)
	}
	if got := wiretest.ResultText(t, wk.Execute("p.Base()")); got != "sample:sync" {
		t.Errorf("after: %s", got)
	}
	// the table of a report arrives whole as HTML, text and JSON
	res = wk.Execute("p.Stats(ctx, \"cuda_gpu_kern_sum\")")
	data := wiretest.Content(res.OfType("execute_result")[0])["data"].(map[string]any)
	if _, ok := data[ResultMIME].(map[string]any); !ok || !strings.Contains(data["text/html"].(string), "<table") {
		t.Errorf("bundle %v", data)
	}
	// help cells are pager payloads
	res = wk.Execute("nsysx.OpenSample?")
	if p := res.Content()["payload"].([]any); len(p) != 1 || !strings.Contains(fmt.Sprint(p[0]), "OpenSample opens the small real profile") {
		t.Errorf("help payload %v", res.Content())
	}
}
