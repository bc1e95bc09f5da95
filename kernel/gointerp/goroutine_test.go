package gointerp

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/kernel"
)

func panicOf(t *testing.T, err error) *kernel.Error {
	t.Helper()
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Name != "panic" {
		t.Fatalf("err = %v, want a panic", err)
	}
	return ke
}

// TestGoroutinePanicIsTheCellsError: a panic in a goroutine a cell
// started (it would end the process) is that cell's error, with the line
// of the panic; the engine and its state live on.
func TestGoroutinePanicIsTheCellsError(t *testing.T) {
	e := newEngine(t)
	mustRun(t, e, "import \"sync\"\nn := 41")
	_, err := runCell(t, e, "var wg sync.WaitGroup\nfor i := 0; i < 3; i++ {\n\twg.Add(1)\n\tgo func(k int) {\n\t\tdefer wg.Done()\n"+
		"\t\tif k == 1 {\n\t\t\tvar m map[int]int\n\t\t\tm[k] = 1\n\t\t}\n\t}(i)\n}\nwg.Wait()")
	ke := panicOf(t, err)
	if want := "assignment to entry in nil map (line 5) (in a goroutine started at line 4)"; ke.Value != want {
		t.Errorf("value %q, want %q", ke.Value, want)
	}
	// yaegi locates a function's frame at its first statement
	if tb := strings.Join(ke.Traceback, "\n"); !strings.Contains(tb, "in func, line 5\n    5 | \t\tdefer wg.Done()") {
		t.Errorf("traceback:\n%s", tb)
	}
	// a cell blocked after the panic is stopped after the grace period
	start := time.Now()
	_, err = runCell(t, e, "import \"time\"\ngo panic(\"boom\")\ntime.Sleep(time.Minute)")
	if ke := panicOf(t, err); ke.Value != "boom (in a goroutine started at line 2)" {
		t.Errorf("value %q", ke.Value)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the blocked cell took %v", d)
	}
	if got := mustRun(t, e, "n + 1").result(); got != "42" {
		t.Errorf("state after the panics: n + 1 = %s", got)
	}
}

// TestGoroutinePanicAfterItsCell: a goroutine that panics after its cell
// ended is reported on the stderr of the cell running then, or of the next.
func TestGoroutinePanicAfterItsCell(t *testing.T) {
	e := newEngine(t)
	mustRun(t, e, "import \"time\"\nready := make(chan bool)")
	mustRun(t, e, "go func() {\n\t<-ready\n\tpanic(\"late\")\n}()")
	r := mustRun(t, e, "close(ready)\ntime.Sleep(300 * time.Millisecond)") // running while it panics
	want := "panic in a goroutine started at line 1 by a cell that had finished: late\n\nin func, line 2\n"
	if got := r.stderr.String(); !strings.HasPrefix(got, want) {
		t.Errorf("stderr of the running cell:\n%s\nwant prefix:\n%s", got, want)
	}
	mustRun(t, e, "go func() {\n\ttime.Sleep(300 * time.Millisecond)\n\tpanic(\"idle\")\n}()")
	time.Sleep(time.Second) // the kernel is idle while it panics
	r = mustRun(t, e, "1")
	if got := r.stderr.String(); !strings.Contains(got, "by a cell that had finished: idle") {
		t.Errorf("stderr of the next cell: %q", got)
	}
	if got := mustRun(t, e, "2").stderr.String(); got != "" {
		t.Errorf("reported twice: %q", got)
	}
}

// TestGoStatementSemantics: the rewritten go statements evaluate the
// function and its arguments where they stand, and every form runs.
func TestGoStatementSemantics(t *testing.T) {
	e := newEngine(t)
	mustRun(t, e, "import \"fmt\"\nimport \"sync\"\ntype T struct{ n int }\nfunc (t T) Put(ch chan int, k int) { ch <- t.n + k }")
	cells := map[string]string{
		// arguments are evaluated by the go statement, not by the goroutine
		"x := 1\nch := make(chan int)\ngo func(v int) { ch <- v }(x)\nx = 2\nfmt.Println(<-ch)":                                                         "1\n",
		"ch := make(chan int)\ngo close(ch)\nfunc() { _, ok := <-ch; fmt.Println(ok) }()":                                                               "false\n",
		"ch := make(chan int, 1)\nt := T{10}\ngo t.Put(ch, 5)\nfmt.Println(<-ch)":                                                                       "15\n",
		"ch := make(chan []int)\nf := func(a int, b ...int) { ch <- append(b, a) }\nxs := []int{1, 2}\ngo f(\n\t3,\n\txs...,\n)\nfmt.Println(<-ch)":     "[1 2 3]\n",
		"var wg sync.WaitGroup\ns := 0\nfor i := 0; i < 4; i++ {\n\twg.Add(1)\n\tgo func() { defer wg.Done(); s += 0 }()\n}\nwg.Wait()\nfmt.Println(s)": "0\n",
		"func spawn(ch chan string) { go func() { ch <- \"from a function\" }() }\nch := make(chan string)\nspawn(ch)\nfmt.Println(<-ch)":               "from a function\n",
	}
	for code, want := range cells {
		if got := mustRun(t, e, code).stdout.String(); got != want {
			t.Errorf("%q: stdout %q, want %q", code, got, want)
		}
	}
}

// TestGuardedCallbacks: a func() literal given to a Go method
// (sync.WaitGroup.Go) and the AfterFuncs of time and context run guarded;
// callbacks that compiled code calls on the cell's goroutine (sort.Slice)
// unwind into the cell.
func TestGuardedCallbacks(t *testing.T) {
	e := newEngine(t)
	mustRun(t, e, "import \"sync\"\nimport \"time\"\nimport \"context\"\nimport \"sort\"")
	cases := map[string]string{
		"var wg sync.WaitGroup\nwg.Go(func() { panic(\"in wg.Go\") })\nwg.Wait()":                                                                   "in wg.Go (line 2) (in a goroutine started at line 2)",
		"time.AfterFunc(time.Millisecond, func() { panic(\"timer\") })\ntime.Sleep(time.Second)":                                                    "timer (line 1) (in a goroutine of time.AfterFunc)",
		"c, cancel := context.WithCancel(context.Background())\ncontext.AfterFunc(c, func() { panic(\"ctx\") })\ncancel()\ntime.Sleep(time.Second)": "ctx (line 2) (in a goroutine of context.AfterFunc)",
		"xs := []int{3, 1, 2}\nsort.Slice(xs, func(i, j int) bool { panic(\"less\") })":                                                             "less (line 2)",
	}
	for code, want := range cases {
		_, err := runCell(t, e, code)
		if ke := panicOf(t, err); ke.Value != want {
			t.Errorf("%q: %q, want %q", code, ke.Value, want)
		}
	}
	if got := mustRun(t, e, "len(\"alive\")").result(); got != "5" {
		t.Errorf("after: %s", got)
	}
}
