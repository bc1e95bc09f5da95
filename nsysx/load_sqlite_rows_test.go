package nsysx

import (
	"context"
	"errors"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// TestLoadRows: LoadRows of some rowids (one the table lacks among them)
// gives the rows Load gives for them, from a SQLite export and from a
// Parquet directory (which has no row access); unsorted rowids and
// missing columns are refused.
func TestLoadRows(t *testing.T) {
	ctx := context.Background()
	for name, path := range map[string]string{"sqlite": testutil.Profile(t, "train"), "parquetdir": pqtdir} {
		t.Run(name, func(t *testing.T) {
			p, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			cols := []string{"text", "textId", "start", "end"}
			all, err := p.Load(ctx, "NVTX_EVENTS", cols...)
			if err != nil {
				t.Fatal(err)
			}
			var want []int
			var ids []int64
			for i := 0; i < all.N; i += 3 {
				want = append(want, i)
				ids = append(ids, all.RowIDs[i])
			}
			if len(want) < 2 {
				t.Fatalf("%d NVTX rows", all.N)
			}
			ids = append(ids, all.RowIDs[all.N-1]+1000) // absent
			got, err := p.LoadRows(ctx, "NVTX_EVENTS", ids, cols...)
			if err != nil {
				t.Fatal(err)
			}
			if got.N != len(want) || len(got.RowIDs) != got.N {
				t.Fatalf("%d rows (%d rowids), want %d", got.N, len(got.RowIDs), len(want))
			}
			for k, i := range want {
				if got.RowIDs[k] != all.RowIDs[i] {
					t.Fatalf("row %d: rowid %d, want %d", k, got.RowIDs[k], all.RowIDs[i])
				}
				for _, c := range cols {
					g, w := got.Col(c), all.Col(c)
					if g.IsNull(k) != w.IsNull(i) || g.Value(k) != w.Value(i) {
						t.Fatalf("row %d %s: %v, want %v", k, c, g.Value(k), w.Value(i))
					}
				}
			}
			if _, err := p.LoadRows(ctx, "NVTX_EVENTS", []int64{ids[1], ids[0]}, "text"); err == nil {
				t.Error("unsorted rowids accepted")
			}
			var mc *MissingColumnError
			if _, err := p.LoadRows(ctx, "NVTX_EVENTS", ids, "nosuch"); !errors.As(err, &mc) {
				t.Errorf("missing column: %v", err)
			}
		})
	}
}

// TestForget: a forgotten table is read again by the next Load, with the
// same values; the tables not named stay loaded, and Forget() drops all.
func TestForget(t *testing.T) {
	ctx := context.Background()
	p, err := Open(testutil.Profile(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	load := func(table string) *Table {
		t.Helper()
		tb, err := p.Load(ctx, table, "start", "end")
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	nv, rt := load("NVTX_EVENTS"), load("CUPTI_ACTIVITY_KIND_RUNTIME")
	p.Forget("nvtx_events")
	again := load("NVTX_EVENTS")
	if again == nv {
		t.Error("NVTX_EVENTS not read again after Forget")
	}
	if again.N != nv.N || again.Col("start").Ints[nv.N-1] != nv.Col("start").Ints[nv.N-1] {
		t.Errorf("reloaded NVTX_EVENTS: %d rows, want %d", again.N, nv.N)
	}
	if load("CUPTI_ACTIVITY_KIND_RUNTIME") != rt {
		t.Error("the runtime table was dropped too")
	}
	p.Forget()
	if load("CUPTI_ACTIVITY_KIND_RUNTIME") == rt {
		t.Error("Forget() kept the runtime table")
	}
}
