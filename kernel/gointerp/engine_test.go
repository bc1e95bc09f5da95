package gointerp

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/kernel/internal/outputtest"
)

// recorder is an Output that records everything; updates are recorded as
// displays and Input answers "42".
type recorder struct{ outputtest.Recorder }

func (r *recorder) UpdateDisplay(d kernel.Display) error { return r.Display(d) }
func (r *recorder) Input(string, bool) (string, error)   { return "42", nil }

// errText is what the cell wrote on stderr so far.
func (r *recorder) errText() string {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	return r.Err.String()
}

func (r *recorder) result() string {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	if len(r.Results) == 0 {
		return "<none>"
	}
	return fmt.Sprint(r.Results[len(r.Results)-1]["text/plain"])
}

func newEngine(t *testing.T) *Engine {
	t.Helper()
	e, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func runCell(t *testing.T, e *Engine, code string) (*recorder, error) {
	t.Helper()
	return outputtest.Run(&recorder{}, 20*time.Second, func(ctx context.Context, r *recorder) error { return e.Execute(ctx, code, r) })
}

func mustRun(t *testing.T, e *Engine, code string) *recorder {
	t.Helper()
	r, err := runCell(t, e, code)
	if err != nil {
		t.Fatalf("%q: %v", code, err)
	}
	return r
}

func TestStateAcrossCells(t *testing.T) {
	e := newEngine(t)
	mustRun(t, e, "x := 40")
	mustRun(t, e, "func add(a, b int) int { return a + b }")
	if got := mustRun(t, e, "add(x, 2)").result(); got != "42" {
		t.Errorf("result %q", got)
	}
}

func TestMixedCell(t *testing.T) {
	e := newEngine(t)
	r := mustRun(t, e, `import "fmt"
var total int
func add(n int) { total += n }
type T struct{ A int }
func (t T) String() string { return fmt.Sprint("T=", t.A) }
add(3)
add(4)
fmt.Println("total is", total)
import "strings"
T{total}`)
	if got := r.result(); got != "T=7" {
		t.Errorf("result %q", got)
	}
	mustRun(t, e, "import \"os\"\nfmt.Fprintln(os.Stderr, \"to stderr\")\nfmt.Fprint(os.Stdout, \"to stdout\")")
	if r.Out.String() != "total is 7\n" {
		t.Errorf("stdout %q", r.Out.String())
	}
	// re-importing is fine, and the earlier import stays usable
	if got := mustRun(t, e, "import \"strings\"\nstrings.ToUpper(\"go\")").result(); got != "GO" {
		t.Errorf("result %q", got)
	}
}

func TestNoResultForPrintAndVoid(t *testing.T) {
	e := newEngine(t)
	mustRun(t, e, "import \"fmt\"\nfunc void() {}")
	for _, code := range []string{`fmt.Println("hi")`, "void()", "x := 3"} {
		if r := mustRun(t, e, code); len(r.Results) != 0 {
			t.Errorf("%q: results %v", code, r.Results)
		}
	}
	// (value, nil error) shows the value; a non-nil error shows the error.
	if got := mustRun(t, e, "func two() (int, error) { return 1, nil }\ntwo()").result(); got != "1" {
		t.Errorf("two values: %q", got)
	}
	if got := mustRun(t, e, "import \"errors\"\nfunc bad() (int, error) { return 0, errors.New(\"boom\") }\nbad()").result(); got != "error: boom" {
		t.Errorf("value and error: %q", got)
	}
	if got := mustRun(t, e, "func three() (int, string) { return 1, \"a\" }\nthree()").result(); got != "1 a" {
		t.Errorf("two plain values: %q", got)
	}
}

type htmlThing struct{}

func (htmlThing) HTML() string { return "<b>compiled</b>" }

func TestRichResults(t *testing.T) {
	e := newEngine(t)
	if err := e.Use(map[string]map[string]reflect.Value{"example.com/things/things": {"H": reflect.ValueOf(htmlThing{})}}); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, e, "import \"example.com/things\"\nthings.H")
	if r.Results[0]["text/html"] != "<b>compiled</b>" {
		t.Errorf("compiled HTMLer: %v", r.Results)
	}
	r = mustRun(t, e, "type P struct{}\nfunc (P) HTML() string { return \"<i>p</i>\" }\nP{}")
	if r.Results[0]["text/html"] != "<i>p</i>" {
		t.Errorf("interpreted HTMLer: %v", r.Results)
	}
	r = mustRun(t, e, "type B struct{}\nfunc (B) MIMEBundle() map[string]interface{} { return map[string]interface{}{\"application/json\": map[string]interface{}{\"a\": 1}} }\nB{}")
	if _, ok := r.Results[0]["application/json"]; !ok {
		t.Errorf("MIMEBundler: %v", r.Results)
	}
	r = mustRun(t, e, "import \"nsysx/cell\"\ncell.Display(P{})\ncell.DisplayID(\"bar\", 1)\ncell.Update(\"bar\", 2)")
	if len(r.Displays) != 3 || r.Displays[2].ID != "bar" || r.Displays[2].Data["text/plain"] != "2" {
		t.Errorf("displays %+v", r.Displays)
	}
}

func TestOsStreams(t *testing.T) {
	e := newEngine(t)
	r := mustRun(t, e, "import \"os\"\nimport \"fmt\"\nimport \"log\"\nfmt.Fprintln(os.Stderr, \"err\")\nfmt.Fprint(os.Stdout, \"out\")\nlog.SetFlags(0)\nlog.Print(\"logged\")")
	if r.Out.String() != "out" || r.Err.String() != "err\nlogged\n" {
		t.Errorf("stdout %q stderr %q", r.Out.String(), r.Err.String())
	}
}

// TestNestedMultiDefine: "a, b := f()" in a block at top level (yaegi
// v0.16.1 loses a and b there; the engine runs such statements in a
// function literal).
func TestNestedMultiDefine(t *testing.T) {
	e := newEngine(t)
	mustRun(t, e, "func g() (int, error) { return 2, nil }\ntotal := 0")
	// each cell adds to total what its a (or x) held: the sums after each
	for _, c := range []struct{ code, total string }{
		{"for i := 0; i < 3; i++ {\n\ta, err := g()\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\ttotal += a\n}", "6"},
		{"if true {\n\tvar a, b = g()\n\t_ = b\n\ttotal += a\n}", "8"},
		{"{\n\ta, _ := g()\n\ttotal += a\n}", "10"},
		{"for _, x := range []int{1} {\n\tswitch a, _ := g(); a {\n\tcase 2:\n\t\ttotal += x\n\t}\n}", "11"},
	} {
		mustRun(t, e, c.code)
		if got := mustRun(t, e, "total").result(); got != c.total {
			t.Errorf("after %q: total = %s, want %s", c.code, got, c.total)
		}
	}
	// errors still point at the cell's lines
	_, err := runCell(t, e, "x := 0\nfor i := 0; i < 1; i++ {\n\ta, _ := g()\n\tx += a + nope\n}")
	if err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Errorf("error position: %v", err)
	}
}
