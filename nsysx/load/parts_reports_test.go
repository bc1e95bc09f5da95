package load_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
	"github.com/nsysx/nsysx/nsysx/load"
)

// TestLoadPartsSameResults: with every load cut into ranges of one leaf or
// more (the spare cores of nsysx.WithCores), the reports and rules that load the
// big tables give the results of one-core loads, on every test profile;
// so do loads cut by nsysx.WithLoadParts without spare cores (the CLI's).
func TestLoadPartsSameResults(t *testing.T) {
	reports := []string{"cuda_gpu_kern_sum", "cuda_api_sum", "cuda_gpu_trace", "cuda_kern_exec_trace",
		"cuda_api_gpu_sum", "nvtx_kern_sum", "cuda_api_sync", "cuda_memcpy_async", "gpu_gaps", "gpu_time_util"}
	run := func(prof string, parts int, byLoadParts bool) []string {
		defer func(r, l, g int) { load.SetLoadPartsRows(r); sqlite.MinPartLeaves = l; runtime.GOMAXPROCS(g) }(load.SetLoadPartsRows(0), sqlite.MinPartLeaves, runtime.GOMAXPROCS(4))
		sqlite.MinPartLeaves = 1
		ctx := nsysx.WithCores(t.Context(), parts)
		if byLoadParts {
			if ctx = nsysx.WithLoadParts(t.Context(), parts); load.LoadPartsOf(ctx) != parts && os.Getenv("NSYSX_LOAD_PARTS") == "" {
				t.Fatalf("WithLoadParts(%d): loads cut in %d", parts, load.LoadPartsOf(ctx))
			}
		}
		p, err := nsysx.Open(testutil.Profile(t, prof))
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		var out []string
		for _, rep := range reports {
			r, err := p.Run(ctx, rep, nil)
			var s strings.Builder
			s.WriteString(fmt.Sprint(err))
			if r != nil {
				s.WriteString(r.Skipped)
				for _, c := range r.Cols {
					s.WriteString("|" + c.Label())
					for i := range c.Len() {
						s.WriteString("," + c.Text(i))
					}
				}
			}
			out = append(out, s.String())
		}
		return out
	}
	for _, prof := range testutil.Profiles {
		one, four, three := run(prof, 1, false), run(prof, 4, false), run(prof, 3, true)
		for i := range one {
			if one[i] != four[i] {
				t.Errorf("%s %s: a load in ranges differs from a one-core load", prof, reports[i])
			}
			if one[i] != three[i] {
				t.Errorf("%s %s: a load in nsysx.WithLoadParts's ranges differs from a one-core load", prof, reports[i])
			}
		}
	}
}

// TestScanPartsMatchesScan: ScanParts over ranges of one leaf or more, the
// ranges' rows appended in order, gives the rows of one Scan (a column the
// table lacks included), on every test profile; without spare cores it is
// one range.
func TestScanPartsMatchesScan(t *testing.T) {
	defer func(l, g int) { sqlite.MinPartLeaves = l; runtime.GOMAXPROCS(g) }(sqlite.MinPartLeaves, runtime.GOMAXPROCS(4))
	sqlite.MinPartLeaves = 1
	cols := []string{"start", "end", "nosuchcolumn", "text", "textId", "globalTid"}
	row := func(r nsysx.ScanRow) string {
		var b strings.Builder
		for i := range cols {
			fmt.Fprintf(&b, "%v:%v:%d:%v:%q:%s,", r.Has(i), r.IsNull(i), r.Int(i), r.Float(i), r.Bytes(i), r.Str(i))
		}
		return b.String()
	}
	cut := 0
	for _, prof := range testutil.Profiles {
		p, err := nsysx.Open(testutil.Profile(t, prof))
		if err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_KERNEL"} {
			if !p.HasTable(table) {
				continue
			}
			var want []string
			if err := p.Scan(t.Context(), table, nil, cols, func(r nsysx.ScanRow) error { want = append(want, row(r)); return nil }); err != nil {
				t.Fatal(err)
			}
			for _, cores := range []int{1, 4} {
				var got [][]string
				n, err := p.ScanParts(nsysx.WithCores(t.Context(), cores), table, cols, func(i int) func(nsysx.ScanRow) error {
					got = append(got, nil)
					return func(r nsysx.ScanRow) error { got[i] = append(got[i], row(r)); return nil }
				})
				if err != nil || n != len(got) || (cores == 1 && n != 1) {
					t.Fatalf("%s %s cores %d: %d ranges, %d collected, %v", prof, table, cores, n, len(got), err)
				}
				if n > 1 {
					cut++
				}
				if all := strings.Join(slices.Concat(got...), "\n"); all != strings.Join(want, "\n") {
					t.Errorf("%s %s cores %d: ScanParts rows differ from Scan's", prof, table, cores)
				}
			}
		}
		p.Close()
	}
	if cut == 0 {
		t.Error("no table was cut into ranges")
	}
	var nilCtx context.Context
	if _, err := (&nsysx.Profile{}).ScanParts(nilCtx, "NVTX_EVENTS", cols, nil); err == nil {
		t.Error("nil context: no error")
	}
}

// TestMain removes the unpacked fixtures after the tests.
func TestMain(m *testing.M) { testutil.Main(m) }
