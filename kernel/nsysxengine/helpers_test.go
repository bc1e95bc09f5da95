package nsysxengine

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/kernel/internal/outputtest"
	"github.com/nsysx/nsysx/kernel/internal/wiretest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testutil.Cleanup()
	removeTiled()
	os.Exit(code)
}

// recorder is an Output that records everything, safe for concurrent use.
type recorder struct{ outputtest.Recorder }

// result returns the bundle of the last execute_result.
func (r *recorder) result(t *testing.T) map[string]any {
	t.Helper()
	r.Mu.Lock()
	defer r.Mu.Unlock()
	if len(r.Results) == 0 {
		t.Fatalf("no result; stdout %q stderr %q", r.Out.String(), r.Err.String())
	}
	return r.Results[len(r.Results)-1]
}

func newEngine(t *testing.T) *Engine {
	t.Helper()
	e, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// openEngine is a new engine with the named test profiles (gz) opened, in
// order: "fixed as after" opens fixed under the name after.
func openEngine(t *testing.T, profiles ...string) *Engine {
	t.Helper()
	e := newEngine(t)
	for _, p := range profiles {
		name, as, ok := strings.Cut(p, " as ")
		code := "%open " + gz(name)
		if ok {
			code += " as " + as
		}
		cell(t, e, code)
	}
	return e
}

const wireTimeout = 60 * time.Second

// startKernel serves the nsysx kernel in-process on loopback ports.
func startKernel(t *testing.T) *wiretest.Kernel {
	t.Helper()
	e, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return wiretest.Serve(t, e, wireTimeout)
}

// cell runs code (Go or magics, as the kernel splits them) and fails on error.
func cell(t *testing.T, e *Engine, code string) *recorder {
	t.Helper()
	r, err := tryCell(t, e, code)
	if err != nil {
		t.Fatalf("%q: %v\nstdout %s\nstderr %s", code, err, r.Out.String(), r.Err.String())
	}
	return r
}

// tryCell runs code through a kernel's magic registry and the engine.
func tryCell(t *testing.T, e *Engine, code string) (*recorder, error) {
	t.Helper()
	return outputtest.Run(&recorder{}, 60*time.Second, func(ctx context.Context, r *recorder) error { return runCode(ctx, e, code, r) })
}

// runCode runs one cell through a kernel.Kernel's splitting of magics.
func runCode(ctx context.Context, e *Engine, code string, out kernel.Output) error {
	k, err := kernel.New(e)
	if err != nil {
		return err
	}
	return k.RunCell(ctx, code, out)
}

// gz returns the repository path of a gzipped profile.
func gz(name string) string { return testutil.GzProfile(name) }
