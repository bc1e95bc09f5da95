package wiretest

import (
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/kernel/wire"
)

// Kernel is a kernel served in-process on loopback ports, with a Client
// connected to it.
type Kernel struct {
	*Client
	t       *testing.T
	timeout time.Duration
	done    chan error
}

// Serve runs a kernel over eng on loopback ports, connects a Client and
// waits until the kernel is ready; every request of Execute and the
// shutdown wait at most timeout. When the test ends the kernel is shut down
// and checked to have stopped and to have left nothing running.
func Serve(t *testing.T, eng kernel.Engine, timeout time.Duration) *Kernel {
	t.Helper()
	k, err := kernel.New(eng)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := wire.Listen(wire.ConnectionInfo{IP: "127.0.0.1", Key: "secret"}, wire.Options{Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	tk := &Kernel{t: t, timeout: timeout, done: make(chan error, 1)}
	go func() { tk.done <- k.Serve(context.Background(), srv) }()
	if tk.Client, err = Dial(srv.Info()); err != nil {
		t.Fatal(err)
	}
	if err := tk.WaitReady(timeout); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tk.shutdown)
	return tk
}

// shutdown asks the kernel to stop and checks that nothing is left running.
func (tk *Kernel) shutdown() {
	res, err := tk.Request(wire.Control, "shutdown_request", map[string]any{"restart": false}, tk.timeout)
	if err != nil {
		tk.t.Errorf("shutdown: %v", err)
	} else if c := res.Content(); c["status"] != "ok" || c["restart"] != false || len(res.OfType("shutdown_reply")) != 1 {
		tk.t.Errorf("shutdown reply %v, iopub %d", c, len(res.IOPub))
	}
	select {
	case <-tk.done:
	case <-time.After(tk.timeout):
		tk.t.Error("kernel did not stop")
	}
	tk.Close()
	CheckNoLeaks(tk.t)
}

// Execute runs code as a cell (stored in the history, stop_on_error) and
// fails the test when no reply comes; extra are key, value pairs that
// replace or add fields of the execute_request.
func (tk *Kernel) Execute(code string, extra ...any) *Result {
	tk.t.Helper()
	content := map[string]any{"code": code, "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true}
	for i := 0; i+1 < len(extra); i += 2 {
		content[extra[i].(string)] = extra[i+1]
	}
	res, err := tk.Request(wire.Shell, "execute_request", content, tk.timeout)
	if err != nil {
		tk.t.Fatalf("%.80q: %v", code, err)
	}
	return res
}

// Content decodes a message's content (nil when it is not a JSON object).
func Content(m *wire.Message) map[string]any {
	var c map[string]any
	_ = json.Unmarshal(m.Content, &c)
	return c
}

// ResultText is the text/plain of the one execute_result of res; it fails
// the test when there is not exactly one.
func ResultText(t *testing.T, res *Result) string {
	t.Helper()
	rs := res.OfType("execute_result")
	if len(rs) != 1 {
		t.Fatalf("%d execute_results; reply %s", len(rs), res.Reply.Content)
	}
	return Content(rs[0])["data"].(map[string]any)["text/plain"].(string)
}
