package nsysxengine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/nsysx/nsysx/internal/testutil"
)

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
		if slices.Contains(cols, "start") {
			events[tb] = cols
		}
	}
	var lo, hi, corr, rng int64 = 1 << 62, 0, 0, 0
	for tb, cols := range events {
		last := "max(start)"
		if slices.Contains(cols, "end") {
			last = `max(coalesce("end", start))`
		}
		_ = query(fmt.Sprintf("select min(start), %s from %q where start is not null", last, tb), func(s *sqlite3.Stmt) {
			if s.ColumnType(0) != sqlite3.NULL {
				lo, hi = min(lo, s.ColumnInt64(0)), max(hi, s.ColumnInt64(1))
			}
		})
		for col, p := range map[string]*int64{"correlationId": &corr, "rangeId": &rng} {
			if slices.Contains(cols, col) {
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
	if slices.Contains(tables, "ANALYSIS_DETAILS") {
		grow := int64(copies-1) * span
		if err := db.Exec(fmt.Sprintf("update ANALYSIS_DETAILS set duration = duration + %d, stopTime = stopTime + %d", grow, grow)); err != nil {
			return err
		}
	}
	return db.Exec("commit")
}

// removeTiled removes the tiled profile; TestMain calls it.
func removeTiled() {
	tiled.Lock()
	defer tiled.Unlock()
	if tiled.dir != "" {
		os.RemoveAll(tiled.dir)
	}
}
