package nsysxengine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/kernel/internal/outputtest"
	"github.com/nsysx/nsysx/kernel/internal/wiretest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testutil.Cleanup()
	tiled.Lock()
	if tiled.dir != "" {
		os.RemoveAll(tiled.dir)
	}
	tiled.Unlock()
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
func gz(name string) string {
	return filepath.Join(testutil.Root(), "testdata", "profiles", name+".sqlite.gz")
}

var tiled struct {
	sync.Mutex
	dir  string
	path string
}

// tiledProfile returns train repeated copies times in a row (a port of
// tools/nsys-tile.py), made once per test binary: a profile big enough
// that reports take seconds. It skips the test under -short.
func tiledProfile(t *testing.T, copies int) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds a big profile")
	}
	tiled.Lock()
	defer tiled.Unlock()
	if tiled.path != "" {
		return tiled.path
	}
	dir, err := os.MkdirTemp("", "nsysx-tiled-")
	if err != nil {
		t.Fatal(err)
	}
	tiled.dir = dir
	dst := filepath.Join(dir, fmt.Sprintf("train_x%d.sqlite", copies))
	b, err := os.ReadFile(testutil.Profile(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tile(dst, copies); err != nil {
		t.Fatalf("tiling: %v", err)
	}
	tiled.path = dst
	return dst
}

func tile(path string, copies int) error {
	db, err := sqlite3.Open(path)
	if err != nil {
		return err
	}
	defer db.Close()
	query := func(q string, f func(s *sqlite3.Stmt)) error {
		s, _, err := db.Prepare(q)
		if err != nil {
			return err
		}
		defer s.Close()
		for s.Step() {
			f(s)
		}
		return s.Err()
	}
	var tables []string
	if err := query("select name from sqlite_master where type='table'", func(s *sqlite3.Stmt) { tables = append(tables, s.ColumnText(0)) }); err != nil {
		return err
	}
	events := map[string][]string{}
	for _, tb := range tables {
		var cols []string
		if err := query(fmt.Sprintf("pragma table_info(%q)", tb), func(s *sqlite3.Stmt) { cols = append(cols, s.ColumnText(1)) }); err != nil {
			return err
		}
		if has(cols, "start") {
			events[tb] = cols
		}
	}
	var lo, hi, corr, rng int64 = 1 << 62, 0, 0, 0
	for tb, cols := range events {
		last := "max(start)"
		if has(cols, "end") {
			last = `max(coalesce("end", start))`
		}
		_ = query(fmt.Sprintf("select min(start), %s from %q where start is not null", last, tb), func(s *sqlite3.Stmt) {
			if s.ColumnType(0) != sqlite3.NULL {
				lo, hi = min(lo, s.ColumnInt64(0)), max(hi, s.ColumnInt64(1))
			}
		})
		for col, p := range map[string]*int64{"correlationId": &corr, "rangeId": &rng} {
			if has(cols, col) {
				_ = query(fmt.Sprintf("select coalesce(max(%q),0) from %q", col, tb), func(s *sqlite3.Stmt) { *p = max(*p, s.ColumnInt64(0)) })
			}
		}
	}
	span := hi - lo + 1_000_000
	if err := db.Exec("begin"); err != nil {
		return err
	}
	for tb, cols := range events {
		var keep []string
		for _, c := range cols {
			if c != "id" {
				keep = append(keep, c)
			}
		}
		extra := ""
		if tb == "NVTX_EVENTS" {
			extra = " and eventType <> 75"
		}
		for k := int64(1); k < int64(copies); k++ {
			var sel, names []string
			for _, c := range keep {
				names = append(names, fmt.Sprintf("%q", c))
				switch c {
				case "start", "end":
					sel = append(sel, fmt.Sprintf("%q + %d", c, k*span))
				case "correlationId":
					sel = append(sel, fmt.Sprintf("%q + %d", c, k*(corr+1)))
				case "rangeId":
					sel = append(sel, fmt.Sprintf("%q + %d", c, k*(rng+1)))
				default:
					sel = append(sel, fmt.Sprintf("%q", c))
				}
			}
			q := fmt.Sprintf("insert into %q (%s) select %s from %q where start < %d%s",
				tb, strings.Join(names, ", "), strings.Join(sel, ", "), tb, lo+span, extra)
			if err := db.Exec(q); err != nil {
				return fmt.Errorf("%s: %w", tb, err)
			}
		}
	}
	if has(tables, "ANALYSIS_DETAILS") {
		grow := int64(copies-1) * span
		if err := db.Exec(fmt.Sprintf("update ANALYSIS_DETAILS set duration = duration + %d, stopTime = stopTime + %d", grow, grow)); err != nil {
			return err
		}
	}
	return db.Exec("commit")
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
