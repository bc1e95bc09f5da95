package engineproc_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/kernel/engineproc"
	"github.com/nsysx/nsysx/kernel/gointerp"
	"github.com/nsysx/nsysx/kernel/internal/outputtest"
	"github.com/nsysx/nsysx/kernel/internal/wiretest"
	"github.com/nsysx/nsysx/kernel/wire"
)

const timeout = 60 * time.Second

// childEnv makes the test binary the engine process.
const childEnv = "NSYSX_ENGINEPROC_TEST_CHILD"

// Run by hand, the engine process says it is not to be, and runs nothing.
func TestServeByHand(t *testing.T) {
	err := engineproc.Serve(func() (kernel.Engine, error) {
		t.Error("the engine was made")
		return nil, nil
	})
	if err == nil || !strings.Contains(err.Error(), "not by hand") || strings.Contains(err.Error(), "\n") {
		t.Errorf("Serve outside a kernel: %v", err)
	}
}

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		// a smaller stack limit than Go's 1 GB, so that the stack
		// overflow test overflows in a moment
		debug.SetMaxStack(64 << 20)
		if err := engineproc.Serve(newEngine); err != nil {
			fmt.Fprintln(os.Stderr, "engine:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// opened is the child's state of the test's %open magic.
var opened []string

// testEngine is the Go engine with a %open magic that remembers its
// argument (to check that a restart runs %open again) and %opened that
// prints them.
type testEngine struct{ *gointerp.Engine }

func newEngine() (kernel.Engine, error) {
	e, err := gointerp.New()
	if err != nil {
		return nil, err
	}
	e.AbandonAfter = 500 * time.Millisecond
	// die.Kill() does what the system's out-of-memory killer does
	if err := e.Use(map[string]map[string]reflect.Value{"example.com/die/die": {
		"Kill": reflect.ValueOf(func() { syscall.Kill(os.Getpid(), syscall.SIGKILL); select {} }),
	}}); err != nil {
		return nil, err
	}
	return testEngine{e}, nil
}

func (testEngine) RegisterMagics(m *kernel.Magics) error {
	if err := m.Register(kernel.Magic{Name: "open", Usage: "%open NAME", Run: func(_ context.Context, args []string, _ string, _ kernel.Output) error {
		opened = append(opened, args...)
		return nil
	}}); err != nil {
		return err
	}
	return m.Register(kernel.Magic{Name: "opened", Usage: "%opened", Run: func(_ context.Context, _ []string, _ string, out kernel.Output) error {
		_, err := fmt.Fprintln(out.Stdout(), strings.Join(opened, ","))
		return err
	}})
}

func start(t testing.TB) *engineproc.Supervisor {
	t.Helper()
	s, err := engineproc.Start(engineproc.Options{
		Command: func() *exec.Cmd {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), childEnv+"=1")
			return cmd
		},
		Log: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func serve(t *testing.T) *wiretest.Kernel {
	return wiretest.Serve(t, start(t), timeout)
}

// Each of these cells ends the process it runs in: Go cannot recover them.
// The kernel stays up, says what happened and that the variables were
// lost, and the next cell runs in a fresh engine.
func TestProcessKillingCells(t *testing.T) {
	tk := serve(t)
	dir := t.TempDir()
	tk.Execute("%cd " + dir) // run again after a restart, before the %open
	for _, c := range []struct{ name, code, cause string }{
		{"stack overflow", "func f(n int) int { return f(n+1) + 1 }\nf(0)", "overflowed its stack"},
		{"concurrent map writes", "import \"time\"\nm := map[int]int{}\nfor g := 0; g < 4; g++ {\n\tgo func() {\n\t\tfor i := 0; ; i++ {\n\t\t\tm[i%64] = i\n\t\t}\n\t}()\n}\ntime.Sleep(30 * time.Second)",
			"concurrent map"},
		{"os.Exit in a library", "import \"flag\"\nfs := flag.NewFlagSet(\"tool\", flag.ExitOnError)\nfs.Parse([]string{\"-nope\"})", "exited with status 2"},
		{"allocation larger than memory", "b := make([]byte, 1<<45)\nb[1<<44] = 1", "out of memory"},
		{"SIGKILL", "import \"example.com/die\"\ndie.Kill()", "was killed by SIGKILL"},
	} {
		if raceEnabled && c.name == "allocation larger than memory" {
			c.cause = "fatal error: too many address space collisions for -race mode" // the race runtime's words for it
		}
		t.Run(c.name, func(t *testing.T) {
			tk.Execute("x := 42\n%open a.sqlite")
			res := tk.Execute(c.code)
			rc := res.Content()
			if rc["status"] != "error" || rc["ename"] != "EngineDied" {
				t.Fatalf("reply %v", rc)
			}
			ev := rc["evalue"].(string)
			t.Logf("%s\ntraceback: %q", ev, rc["traceback"])
			if !strings.Contains(ev, c.cause) || !strings.Contains(ev, "variables were lost") || !strings.Contains(ev, "fresh engine") {
				t.Errorf("evalue %q does not say %q, that the variables were lost and a fresh engine started", ev, c.cause)
			}
			if !strings.Contains(ev, "%cd "+dir+"; %open a.sqlite") {
				t.Errorf("evalue %q does not say that %%cd and %%open ran again", ev)
			}
			res = tk.Execute("x")
			if rc := res.Content(); rc["status"] != "error" || !strings.Contains(rc["evalue"].(string), "undefined: x") ||
				!strings.Contains(rc["evalue"].(string), "restarted") {
				t.Errorf("a variable of the dead engine: %v", rc)
			}
			if got := wiretest.ResultText(t, tk.Execute("y := 6\ny * 7")); got != "42" {
				t.Errorf("fresh engine: %s", got)
			}
			if got := tk.Execute("%opened").Stream("stdout"); got != "a.sqlite\n" {
				t.Errorf("%%open in the fresh engine: %q", got)
			}
			if got := tk.Execute("import \"fmt\"\nimport \"os\"\nwd, _ := os.Getwd()\nfmt.Println(wd)").Stream("stdout"); got != dir+"\n" {
				t.Errorf("working directory of the fresh engine: %q, want %q", got, dir)
			}
		})
	}
}

// What the kernel does in-process works through the process boundary:
// streams, results, displays and updates, input, interrupts (also of a
// deadlocked cell), completion, inspection, is_complete, magics, user
// expressions, help cells.
func TestSupervisedKernel(t *testing.T) {
	tk := serve(t)
	res := tk.Execute("import \"fmt\"\nimport \"nsysx/cell\"\nx := 20\nfmt.Println(\"héllo\", x)\ncell.DisplayID(\"p\", \"10%\")\ncell.Update(\"p\", \"100%\")\nint64(1<<62 + 1)")
	if got := res.Stream("stdout"); got != "héllo 20\n" {
		t.Errorf("stdout %q", got)
	}
	if got := wiretest.ResultText(t, res); got != "4611686018427387905" {
		t.Errorf("result %q", got)
	}
	if len(res.OfType("display_data")) != 1 || len(res.OfType("update_display_data")) != 1 {
		t.Errorf("displays: %s", res.Reply.Content)
	}
	res = tk.Execute("x", "user_expressions", map[string]any{"double": "x * 2"})
	if d := res.Content()["user_expressions"].(map[string]any)["double"].(map[string]any); d["data"].(map[string]any)["text/plain"] != "40" {
		t.Errorf("user expression %v", d)
	}
	// input
	id, _ := tk.Send(wire.Shell, "execute_request", map[string]any{"code": "name, _ := cell.Input(\"name? \")\n\"hi \" + name", "allow_stdin": true})
	req, err := tk.Recv("stdin", timeout)
	if err != nil || req.Type() != "input_request" {
		t.Fatalf("input_request: %v", err)
	}
	_ = tk.SendReply(req, "input_reply", map[string]any{"value": "Ada"})
	if res, err := tk.Collect(wire.Shell, id, timeout); err != nil || wiretest.ResultText(t, res) != "hi Ada" {
		t.Errorf("input: %v", err)
	}
	// introspection and magics
	reqs := func(typ string, c map[string]any) map[string]any {
		res, err := tk.Request(wire.Shell, typ, c, timeout)
		if err != nil {
			t.Fatal(err)
		}
		return res.Content()
	}
	if c := reqs("complete_request", map[string]any{"code": "fmt.Sprin", "cursor_pos": 9}); len(c["matches"].([]any)) < 2 || c["cursor_start"] != 4.0 {
		t.Errorf("complete %v", c)
	}
	if c := reqs("complete_request", map[string]any{"code": "%ti", "cursor_pos": 3}); len(c["matches"].([]any)) != 2 {
		t.Errorf("magic completion %v", c)
	}
	if c := reqs("inspect_request", map[string]any{"code": "x", "cursor_pos": 1, "detail_level": 0}); c["found"] != true {
		t.Errorf("inspect %v", c)
	}
	for code, want := range map[string]string{"func f() {": "incomplete", "%help": "complete", "x := )": "invalid"} {
		if c := reqs("is_complete_request", map[string]any{"code": code}); c["status"] != want {
			t.Errorf("is_complete(%q) = %v", code, c)
		}
	}
	if out := tk.Execute("%help").Stream("stdout"); !strings.Contains(out, "%timeit") || !strings.Contains(out, "%open") {
		t.Errorf("%%help: %q", out)
	}
	if res := tk.Execute("fmt.Println?"); len(res.Content()["payload"].([]any)) != 1 {
		t.Errorf("help cell: %v", res.Content())
	}
	// interrupts: a busy loop, then a deadlock (abandoned, said once)
	tk.Execute("import \"sync\"\nvar mu sync.Mutex\nn := 0")
	for _, code := range []string{"for { n++ }", "mu.Lock()\nmu.Lock()"} {
		id, err := tk.StartExecute(code, timeout)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
		if res, err := tk.InterruptCell(id, timeout); err != nil || res.Content()["ename"] != "Interrupted" {
			t.Fatalf("%q: %v %v", code, err, res)
		}
		res := tk.Execute("n > 0")
		if got := wiretest.ResultText(t, res); got != "true" {
			t.Errorf("%q: state after interrupt: %s", code, got)
		}
		if abandoned := strings.Count(res.Stream("stderr"), "abandoned"); abandoned != strings.Count(code, "mu.Lock")/2 {
			t.Errorf("%q: %d abandon notes: %q", code, abandoned, res.Stream("stderr"))
		}
	}
	tk.Execute("mu.Unlock()")
}

// A goroutine that ends the engine while no cell runs: the next cell says
// so first, then runs in the fresh engine.
func TestDeathWhileIdle(t *testing.T) {
	tk := serve(t)
	tk.Execute("import \"time\"\nimport \"flag\"\ntime.AfterFunc(100*time.Millisecond, func() { flag.NewFlagSet(\"t\", flag.ExitOnError).Parse([]string{\"-x\"}) })")
	time.Sleep(time.Second)
	res := tk.Execute("1 + 1")
	if got := wiretest.ResultText(t, res); got != "2" {
		t.Errorf("result %s", got)
	}
	if e := res.Stream("stderr"); !strings.Contains(e, "died while no cell ran") || !strings.Contains(e, "exited with status 2") {
		t.Errorf("stderr %q", e)
	}
}

// BenchmarkCell measures cells run in-process (kernel.RunCell on the Go
// engine) and through the engine process. "empty" is a cell without code:
// in-process it costs nothing, so through the engine process it is the
// latency the supervision adds to every cell (a request, a done event);
// "n++" is a cell the interpreter compiles and runs.
func BenchmarkCell(b *testing.B) {
	run := func(b *testing.B, k *kernel.Kernel, code string) {
		if err := k.RunCell(context.Background(), "n := 0", &outputtest.Recorder{}); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			if err := k.RunCell(context.Background(), code, &outputtest.Recorder{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	eng, err := newEngine()
	if err != nil {
		b.Fatal(err)
	}
	in, err := kernel.New(eng)
	if err != nil {
		b.Fatal(err)
	}
	s := start(b)
	defer s.Close()
	out, err := kernel.New(s)
	if err != nil {
		b.Fatal(err)
	}
	for _, code := range []string{"", "n++"} {
		name := code
		if name == "" {
			name = "empty"
		}
		b.Run(name+"/in-process", func(b *testing.B) { run(b, in, code) })
		b.Run(name+"/engine-process", func(b *testing.B) { run(b, out, code) })
	}
}
