package nsysx_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

func TestUMGolden(t *testing.T) {
	checkStatsGoldens(t, "um_sum", "um_total_sum", "um_cpu_page_faults_sum")
}

// TestUMRows checks rows= on sync, the one capture with unified memory: the
// default 10 rows are the head of rows=-1 (no limit), and rows=0 prints none.
func TestUMRows(t *testing.T) {
	p, err := nsysx.Open(testutil.Profile(t, "sync"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	all := runSpec(t, p, "um_sum:rows=-1", nil)
	def := runSpec(t, p, "um_sum", nil)
	three := runSpec(t, p, "unifiedmemory:rows=3", nil)
	none := runSpec(t, p, "um_sum:rows=0", nil)
	if all.Len() <= 10 || def.Len() != 10 || three.Len() != 3 || none.Len() != 0 {
		t.Fatalf("rows: all %d, default %d, 3 -> %d, 0 -> %d", all.Len(), def.Len(), three.Len(), none.Len())
	}
	a, d := rowsOf(all), rowsOf(def)
	if strings.Join(a[:10], "\n") != strings.Join(d, "\n") || strings.Join(a[:3], "\n") != strings.Join(rowsOf(three), "\n") {
		t.Error("limited rows are not the head of the full list")
	}
	// Throughput descending, NULL last.
	tp := all.Col("Migration Throughput")
	for i := 1; i < all.Len(); i++ {
		if cmp := nsysx.Compare(tp.Value(i-1), tp.Value(i)); cmp < 0 {
			t.Fatalf("row %d: throughput %s after %s", i, tp.Text(i), tp.Text(i-1))
		}
	}
	// Totals agree with the per-address rows.
	tot := runSpec(t, p, "um_total_sum", nil)
	var h2d, d2h, cpu, gpu int64
	for i := 0; i < all.Len(); i++ {
		h2d += all.Cols[1].Value(i).I
		d2h += all.Cols[2].Value(i).I
		cpu += all.Cols[3].Value(i).I
		gpu += all.Cols[4].Value(i).I
	}
	for k, want := range []int64{h2d, d2h, cpu, gpu} {
		if got := tot.Cols[k].Value(0).I; got != want {
			t.Errorf("um_total_sum column %d = %d, sum of um_sum rows %d", k, got, want)
		}
	}
	if _, err := p.Stats(context.Background(), "um_sum:rows=x"); !errors.Is(err, nsysx.ErrBadOption) {
		t.Errorf("rows=x: %v", err)
	}
}

func TestUMSkipped(t *testing.T) {
	p := openFixture(t, "nvtx_edge") // has MEMCPY, no page-fault tables
	wantSkip(t, p, "um_sum", nil, "<f> does not contain CUDA Unified Memory CPU page faults data.")
	wantSkip(t, p, "um_total_sum", nil, "<f> does not contain CUDA Unified Memory CPU page faults data.")
	wantSkip(t, p, "umcpupagefaults", nil, "<f> does not contain CUDA Unified Memory CPU page faults data.")
	a := openFixture(t, "apis")
	wantSkip(t, a, "unifiedmemorytotals", nil, "<f> does not contain CUDA memory transfers data.")
}
