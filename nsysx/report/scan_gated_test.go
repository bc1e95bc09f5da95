package report

import (
	"context"
	"fmt"
	"testing"
)

// TestScanGatedSQLiteFiltered: a gated scan under a row filter applies,
// and gives fn the rows (rowids and values) that the filtered Run gives,
// with the gate then applied by hand; without a filter, those of Run.
func TestScanGatedSQLiteFiltered(t *testing.T) {
	p, err := Open(fixture(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	window, err := ParseTimeFilter("156893133/278498292")
	if err != nil {
		t.Fatal(err)
	}
	gate := func(id int64) bool { return id%3 != 0 }
	for _, f := range []*Filter{nil, window} {
		c := &Ctx{Context: context.Background(), P: p, Filter: f}
		rows := func(gated bool) []string {
			sc, err := c.FilteredScanner(tRuntime, false, "nameId", "correlationId", "end")
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			add := func(rowid int64, v RowVals) {
				if v.Null(0) || !gate(v.Int(0)) {
					return
				}
				out = append(out, fmt.Sprint(rowid, v.Int(0), v.Null(1), v.Int(1), v.Null(2), v.Int(2)))
			}
			if gated {
				ok, err := ScanGatedSQLite(sc, 0, gate, add)
				if err != nil || !ok {
					t.Fatalf("filter %v: gated scan ok %v, %v", f != nil, ok, err)
				}
				return out
			}
			if err := sc.Run(add); err != nil {
				t.Fatal(err)
			}
			return out
		}
		want, got := rows(false), rows(true)
		if len(want) == 0 {
			t.Fatalf("filter %v: no rows", f != nil)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("filter %v: gated scan gave %d rows, Run %d (or other values)", f != nil, len(got), len(want))
		}
	}
}
