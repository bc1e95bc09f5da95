package kernel_test

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/kernel/gointerp"
	"github.com/nsysx/nsysx/kernel/internal/wiretest"
	"github.com/nsysx/nsysx/kernel/wire"
)

const timeout = 20 * time.Second

// start runs a kernel with the Go interpreter in-process on loopback ports.
// example.com/block.Wait(ctx) blocks in compiled code until ctx is done.
func start(t *testing.T) *wiretest.Kernel {
	t.Helper()
	eng, err := gointerp.New()
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Use(map[string]map[string]reflect.Value{"example.com/block/block": {
		"Wait": reflect.ValueOf(func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }),
	}}); err != nil {
		t.Fatal(err)
	}
	return wiretest.Serve(t, eng, timeout)
}

func stdout(res *wiretest.Result) string { return res.Stream("stdout") }

func TestKernelInfo(t *testing.T) {
	tk := start(t)
	for _, ch := range []wire.Channel{wire.Shell, wire.Control} {
		res, err := tk.Request(ch, "kernel_info_request", map[string]any{}, timeout)
		if err != nil {
			t.Fatal(err)
		}
		c := res.Content()
		li := c["language_info"].(map[string]any)
		if c["status"] != "ok" || c["implementation"] != "nsysx" || c["protocol_version"] != "5.4" ||
			li["name"] != "go" || li["mimetype"] != "text/x-go" || li["file_extension"] != ".go" || li["version"] == "" {
			t.Errorf("kernel_info %v", c)
		}
	}
	if err := tk.Heartbeat(timeout); err != nil {
		t.Error(err)
	}
}

func TestExecute(t *testing.T) {
	tk := start(t)
	res := tk.Execute("import \"fmt\"\nx := 20\nfmt.Println(\"hello\", x)\nx * 2 + 2")
	c := res.Content()
	if c["status"] != "ok" || c["execution_count"] != 1.0 {
		t.Errorf("reply %v", c)
	}
	if got := stdout(res); got != "hello 20\n" {
		t.Errorf("stdout %q", got)
	}
	if got := wiretest.ResultText(t, res); got != "42" {
		t.Errorf("result %q", got)
	}
	var order []string
	for _, m := range res.IOPub {
		order = append(order, m.Type())
	}
	if got := strings.Join(order, ","); got != "status,execute_input,stream,execute_result,status" {
		t.Errorf("iopub order %s", got)
	}
	if in := wiretest.Content(res.OfType("execute_input")[0]); in["execution_count"] != 1.0 || !strings.HasPrefix(in["code"].(string), "import") {
		t.Errorf("execute_input %v", in)
	}
	// state persists; silent runs publish nothing and do not count
	res = tk.Execute("x = 1", "silent", true)
	if len(res.IOPub) != 2 || res.Content()["execution_count"] != 1.0 {
		t.Errorf("silent: %d iopub, reply %v", len(res.IOPub), res.Content())
	}
	res = tk.Execute("x", "user_expressions", map[string]any{"double": "x * 2", "bad": "nope"})
	if wiretest.ResultText(t, res) != "1" || res.Content()["execution_count"] != 2.0 {
		t.Errorf("after silent: %s", res.Reply.Content)
	}
	ue := res.Content()["user_expressions"].(map[string]any)
	if d := ue["double"].(map[string]any); d["status"] != "ok" || d["data"].(map[string]any)["text/plain"] != "2" {
		t.Errorf("user expression %v", d)
	}
	if b := ue["bad"].(map[string]any); b["status"] != "error" {
		t.Errorf("bad user expression %v", b)
	}
}

func TestDisplay(t *testing.T) {
	tk := start(t)
	res := tk.Execute("import \"nsysx/cell\"\ncell.DisplayID(\"p\", \"10%\")\ncell.Update(\"p\", \"100%\")\ncell.Clear(true)")
	d, u := res.OfType("display_data"), res.OfType("update_display_data")
	if len(d) != 1 || len(u) != 1 || len(res.OfType("clear_output")) != 1 {
		t.Fatalf("iopub %d display, %d update", len(d), len(u))
	}
	tr := wiretest.Content(u[0])["transient"].(map[string]any)
	if tr["display_id"] != "p" || wiretest.Content(u[0])["data"].(map[string]any)["text/plain"] != "100%" {
		t.Errorf("update %v", wiretest.Content(u[0]))
	}
}

func TestErrorsAndStopOnError(t *testing.T) {
	tk := start(t)
	tk.Execute("n := 1")
	res := tk.Execute("n +")
	if c := res.Content(); c["status"] != "error" || c["ename"] != "SyntaxError" || len(c["traceback"].([]any)) == 0 {
		t.Errorf("reply %v", c)
	}
	if errs := res.OfType("error"); len(errs) != 1 || wiretest.Content(errs[0])["ename"] != "SyntaxError" {
		t.Errorf("error messages %d", len(errs))
	}
	// a panicking cell: the kernel lives on, the message names the line
	res = tk.Execute("var m map[string]int\nm[\"a\"] = 1")
	if c := res.Content(); c["ename"] != "panic" || !strings.Contains(c["evalue"].(string), "nil map (line 2)") {
		t.Errorf("panic reply %v", c)
	}
	// queued executes are aborted after an error
	id1, _ := tk.Send(wire.Shell, "execute_request", map[string]any{"code": "import \"time\"\ntime.Sleep(300 * time.Millisecond)\npanic(\"late\")", "stop_on_error": true})
	id2, _ := tk.Send(wire.Shell, "execute_request", map[string]any{"code": "n = 100"})
	r1, err := tk.Collect(wire.Shell, id1, timeout)
	if err != nil || r1.Content()["status"] != "error" {
		t.Fatalf("first: %v %v", err, r1.Content())
	}
	r2, err := tk.Collect(wire.Shell, id2, timeout)
	if err != nil || r2.Content()["status"] != "aborted" {
		t.Fatalf("second: %v %v", err, r2.Content())
	}
	if got := wiretest.ResultText(t, tk.Execute("n")); got != "1" {
		t.Errorf("aborted cell ran: n = %s", got)
	}
}

func TestInterrupt(t *testing.T) {
	tk := start(t)
	tk.Execute("n := 0\nimport \"nsysx/cell\"\nimport \"example.com/block\"")
	for _, code := range []string{"for { n++ }", "block.Wait(cell.Context())"} {
		id, err := tk.StartExecute(code, timeout)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond) // well into the loop or the wait
		// not Request: its Collect would drop the cell's idle, which may
		// come before the interrupt's own
		if _, err := tk.Send(wire.Control, "interrupt_request", map[string]any{}); err != nil {
			t.Fatal(err)
		}
		if ir, err := tk.Recv(wire.Control, timeout); err != nil || ir.Type() != "interrupt_reply" {
			t.Fatalf("interrupt: %v %v", ir, err)
		}
		res, err := tk.Collect(wire.Shell, id, timeout)
		if err != nil {
			t.Fatal(err)
		}
		if c := res.Content(); c["status"] != "error" || c["ename"] != "Interrupted" {
			t.Errorf("%q: reply %v", code, c)
		}
		if got := wiretest.ResultText(t, tk.Execute("n > 0")); got != "true" {
			t.Errorf("state after interrupt: %s", got)
		}
	}
}

func TestTenMegabytes(t *testing.T) {
	tk := start(t)
	res := tk.Execute("import \"fmt\"\nimport \"strings\"\nline := strings.Repeat(\"x\", 1023)\nfor i := 0; i < 10240; i++ { fmt.Println(line) }")
	if res.Content()["status"] != "ok" {
		t.Fatalf("reply %v", res.Content())
	}
	total, msgs := 0, res.OfType("stream")
	for _, m := range msgs {
		var c struct{ Text string }
		_ = m.DecodeContent(&c)
		total += len(c.Text)
	}
	if total != 10<<20 {
		t.Errorf("received %d bytes, want %d", total, 10<<20)
	}
	if len(msgs) > 400 {
		t.Errorf("%d stream messages for 10 MB", len(msgs))
	}
	t.Logf("10 MB in %d stream messages", len(msgs))
}

func TestIntrospection(t *testing.T) {
	tk := start(t)
	tk.Execute("import \"strings\"\nvalue := 3")
	req := func(typ string, c map[string]any) map[string]any {
		res, err := tk.Request(wire.Shell, typ, c, timeout)
		if err != nil {
			t.Fatal(err)
		}
		return res.Content()
	}
	for code, want := range map[string]string{"x := 1": "complete", "func f() {": "incomplete", "x := )": "invalid", "%help": "complete"} {
		if c := req("is_complete_request", map[string]any{"code": code}); c["status"] != want {
			t.Errorf("is_complete(%q) = %v", code, c)
		}
	}
	code := "é := strings.ToUp"
	c := req("complete_request", map[string]any{"code": code, "cursor_pos": 17})
	if m := c["matches"].([]any); len(m) < 1 || m[0] != "ToUpper" || c["cursor_start"] != 13.0 || c["cursor_end"] != 17.0 {
		t.Errorf("complete %v", c)
	}
	c = req("complete_request", map[string]any{"code": "%ti", "cursor_pos": 3})
	if m := c["matches"].([]any); len(m) != 2 || m[0] != "%timeit" {
		t.Errorf("magic completion %v", c)
	}
	c = req("inspect_request", map[string]any{"code": "value", "cursor_pos": 1, "detail_level": 0})
	if c["found"] != true {
		t.Errorf("inspect %v", c)
	}
	c = req("history_request", map[string]any{"hist_access_type": "tail", "n": 10, "output": false, "raw": true})
	if h := c["history"].([]any); len(h) != 1 || h[0].([]any)[2] != "import \"strings\"\nvalue := 3" {
		t.Errorf("history %v", c)
	}
	if c := req("comm_info_request", map[string]any{}); c["status"] != "ok" || len(c["comms"].(map[string]any)) != 0 {
		t.Errorf("comm_info %v", c)
	}
	if c := req("frobnicate_request", map[string]any{}); c["status"] != "error" {
		t.Errorf("unknown request %v", c)
	}
	// comm_open to a missing target is closed on iopub
	id, _ := tk.Send(wire.Shell, "comm_open", map[string]any{"comm_id": "c1", "target_name": "jupyter.widget", "data": map[string]any{}})
	for deadline := time.Now().Add(timeout); ; {
		m, err := tk.Recv("iopub", time.Until(deadline))
		if err != nil {
			t.Fatal("no comm_close")
		}
		if m.ParentHeader().MsgID == id && m.Type() == "comm_close" {
			break
		}
	}
}

func TestMagics(t *testing.T) {
	tk := start(t)
	if out := stdout(tk.Execute("%help")); !strings.Contains(out, "%timeit") || !strings.Contains(out, "%env") {
		t.Errorf("help: %q", out)
	}
	res := tk.Execute("%env NSYSX_TEST_VAR=\"a b\"\nimport \"os\"\nos.Getenv(\"NSYSX_TEST_VAR\")")
	if got := wiretest.ResultText(t, res); got != "a b" {
		t.Errorf("env: %q (%s)", got, res.Reply.Content)
	}
	defer os.Unsetenv("NSYSX_TEST_VAR")
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	dir := t.TempDir()
	if out := stdout(tk.Execute("%cd " + dir)); strings.TrimSpace(out) != dir {
		t.Errorf("cd printed %q", out)
	}
	out := stdout(tk.Execute("k := 0\n%timeit -n 10 -r 3 k++"))
	if !strings.Contains(out, "per loop (mean ± std. dev. of 3 runs, 10 loops each)") {
		t.Errorf("timeit: %q", out)
	}
	if got := wiretest.ResultText(t, tk.Execute("k")); got != "30" {
		t.Errorf("k after timeit = %s", got)
	}
	// The statement keeps its quotes (shell splitting would drop them).
	tk.Execute(`s := ""`)
	tk.Execute(`%timeit -n 2 -r 1 s += "a b"`)
	if got := wiretest.ResultText(t, tk.Execute("s")); got != "a ba b" {
		t.Errorf("s after a quoted timeit = %s", got)
	}
	if c := tk.Execute("%nosuch").Content(); c["ename"] != "UsageError" {
		t.Errorf("unknown magic %v", c)
	}
}

func TestInput(t *testing.T) {
	tk := start(t)
	id, _ := tk.Send(wire.Shell, "execute_request", map[string]any{"code": "import \"nsysx/cell\"\nname, _ := cell.Input(\"name? \")\n\"hi \" + name", "allow_stdin": true})
	req, err := tk.Recv("stdin", timeout)
	if err != nil || req.Type() != "input_request" || wiretest.Content(req)["prompt"] != "name? " {
		t.Fatalf("input_request: %v", err)
	}
	_ = tk.SendReply(req, "input_reply", map[string]any{"value": "Ada"})
	res, err := tk.Collect(wire.Shell, id, timeout)
	if err != nil {
		t.Fatal(err)
	}
	if got := wiretest.ResultText(t, res); got != "hi Ada" {
		t.Errorf("result %q", got)
	}
}

func TestInstallSpec(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nsysx")
	if err := kernel.InstallSpec(dir, []string{"/usr/bin/nsysx", "kernel", "{connection_file}"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(b, &spec); err != nil || spec["interrupt_mode"] != "message" || spec["language"] != "go" || spec["display_name"] != "nsysx (Go)" {
		t.Errorf("spec %s: %v", b, err)
	}
	for _, logo := range []string{"logo-32x32.png", "logo-64x64.png"} {
		if st, err := os.Stat(filepath.Join(dir, logo)); err != nil || st.Size() < 100 {
			t.Errorf("%s: %v", logo, err)
		}
	}
	if err := kernel.InstallSpec(dir, []string{"nsysx"}); err == nil {
		t.Error("argv without {connection_file} accepted")
	}
}

// TestGoroutinePanic: a panic in a goroutine a cell started would end the
// process; it is the cell's error and the kernel and its state live on.
func TestGoroutinePanic(t *testing.T) {
	tk := start(t)
	tk.Execute("import \"time\"\nimport \"sort\"\nn := 7")
	res := tk.Execute("go func() {\n\tpanic(\"in a goroutine\")\n}()\ntime.Sleep(10 * time.Second)")
	c := res.Content()
	if c["status"] != "error" || c["ename"] != "panic" || c["evalue"] != "in a goroutine (line 2) (in a goroutine started at line 1)" {
		t.Errorf("reply %v", c)
	}
	if errs := res.OfType("error"); len(errs) != 1 {
		t.Errorf("%d error messages", len(errs))
	}
	// a callback that compiled code calls panics: the cell's error too
	res = tk.Execute("xs := []int{2, 1}\nsort.Slice(xs, func(i, j int) bool { panic(\"less\") })")
	if c := res.Content(); c["ename"] != "panic" || c["evalue"] != "less (line 2)" {
		t.Errorf("sort.Slice reply %v", c)
	}
	if got := wiretest.ResultText(t, tk.Execute("n * 6")); got != "42" {
		t.Errorf("after the panics: %s", got)
	}
	if err := tk.Heartbeat(timeout); err != nil {
		t.Error(err)
	}
}

// TestReplayedExecuteRunsOnce: a correctly signed execute_request sent
// again is dropped, not run a second time.
func TestReplayedExecuteRunsOnce(t *testing.T) {
	tk := start(t)
	tk.Execute("n := 0")
	hdr := wire.Header{MsgID: wire.NewID(), Session: tk.Session, Username: "test", Date: wire.Now(),
		MsgType: "execute_request", Version: wire.ProtocolVersion}
	frames, err := tk.Signer.Encode(nil, hdr, nil, nil, map[string]any{"code": "n++", "silent": false})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := tk.SendRaw(wire.Shell, frames); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tk.Collect(wire.Shell, hdr.MsgID, timeout); err != nil {
		t.Fatal(err)
	}
	if got := wiretest.ResultText(t, tk.Execute("n")); got != "1" {
		t.Errorf("n = %s after a replayed n++, want 1", got)
	}
}

// freePorts returns n loopback ports that were free a moment ago.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// yaegiLogs is a cell the interpreter fails to compile after logging
// "nil type" on the standard logger (a multi-value receive at top level).
const yaegiLogs = "ch := make(chan int, 1)\nch <- 1\n_, ok := <-ch"

// TestRunSilencesStandardLogger: the interpreter's log lines do not reach
// the standard logger (the kernel's stderr) while kernel.Run serves, and
// the logger is restored after.
func TestRunSilencesStandardLogger(t *testing.T) {
	logs := &wiretest.Buffer{}
	prev := log.Writer()
	log.SetOutput(logs)
	defer log.SetOutput(prev)

	// the cell does log when the engine runs outside kernel.Run
	eng, err := gointerp.New()
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Execute(context.Background(), yaegiLogs, kernel.TextOutput{W: io.Discard}); err == nil {
		t.Fatal("the cell compiled: pick another that yaegi logs for")
	}
	if !strings.Contains(logs.String(), "nil type") {
		t.Fatalf("the interpreter logged %q, want its nil type line", logs.String())
	}
	logs.Reset()

	p := freePorts(t, 5)
	info := wire.ConnectionInfo{IP: "127.0.0.1", Key: "secret", ShellPort: p[0], ControlPort: p[1], StdinPort: p[2], IOPubPort: p[3], HBPort: p[4]}
	conn := filepath.Join(t.TempDir(), "kernel.json")
	b, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conn, b, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- kernel.Run(context.Background(), conn, eng) }()
	c, err := wiretest.DialReady(info, timeout)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.Request(wire.Shell, "execute_request", map[string]any{"code": yaegiLogs}, timeout)
	if err != nil || res.Content()["ename"] != "CompileError" {
		t.Fatalf("cell: %v %v", err, res.Content())
	}
	if got := logs.String(); got != "" {
		t.Errorf("the standard logger got %q while the kernel ran", got)
	}
	if _, err := c.Request(wire.Control, "shutdown_request", map[string]any{}, timeout); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(timeout):
		t.Fatal("kernel.Run did not return")
	}
	if log.Writer() != logs {
		t.Error("the standard logger was not restored")
	}
}

// An interrupted cell blocked for ever in a Go call (a second Lock of a
// mutex, a WaitGroup nothing finishes) is abandoned: the next cell runs
// beside it, says so once, and the session's variables are kept.
func TestInterruptDeadlockAbandoned(t *testing.T) {
	if raceEnabled {
		// The abandoned evaluation read yaegi's frame before it blocked and
		// the next cell resizes it: nothing orders the two (yaegi does not
		// synchronise its state between goroutines, kernel/README.md, Known
		// limits), so the race detector reports yaegi's code.
		// scripts/test.sh runs this test without -race.
		t.Skip("runs without -race (scripts/test.sh): yaegi's state is not synchronised with an abandoned evaluation")
	}
	eng, err := gointerp.New()
	if err != nil {
		t.Fatal(err)
	}
	eng.AbandonAfter = 500 * time.Millisecond
	tk := wiretest.Serve(t, eng, timeout)
	tk.Execute("import \"sync\"\nvar mu sync.Mutex\nvar wg sync.WaitGroup\nn := 41")
	const said = "it is abandoned"
	for _, c := range []struct{ stuck, free string }{
		{"mu.Lock()\nmu.Lock()", "mu.Unlock()"},
		{"wg.Add(1)\nwg.Wait()", "wg.Done()"},
	} {
		id, err := tk.StartExecute(c.stuck, timeout)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
		if res, err := tk.InterruptCell(id, timeout); err != nil || res.Content()["ename"] != "Interrupted" {
			t.Fatalf("%q: %v %v", c.stuck, err, res)
		}
		res := tk.Execute("n++\nn")
		if got := wiretest.ResultText(t, res); got != "42" {
			t.Errorf("%q: next cell gave %s, want 42 (variables kept)", c.stuck, got)
		}
		if got := res.Stream("stderr"); strings.Count(got, said) != 1 {
			t.Errorf("%q: next cell's stderr %q does not say once that the cell was abandoned", c.stuck, got)
		}
		res = tk.Execute("n--")
		if got := res.Stream("stderr"); got != "" {
			t.Errorf("%q: the abandon is said again: %q", c.stuck, got)
		}
		tk.Execute(c.free) // lets the abandoned goroutine end (no leak at shutdown)
	}
}
