package report

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
	"github.com/nsysx/nsysx/nsysx/model"
)

// TestScanIntsRanges: read in ranges of a leaf page or more at once (spare
// cores), the later ranges' rows kept in blocks of a few rows, ScanInts
// gives fn the rows of one range, in the same order, NULL bits included.
func TestScanIntsRanges(t *testing.T) {
	defer func(l, procs, b int) {
		sqlite.MinPartLeaves, intBlock = l, b
		runtime.GOMAXPROCS(procs)
	}(sqlite.MinPartLeaves, runtime.GOMAXPROCS(4), intBlock)
	sqlite.MinPartLeaves, intBlock = 1, 7
	p, err := Open(fixture(t, "train"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cols := []string{"start", "end", "deviceId", "shortName", "gridX"}
	rows := func(cores int) (out []string) {
		ok, err := ScanInts(WithCores(context.Background(), cores), p, events.TableKernel, cols, func(v []int64, null uint32) error {
			out = append(out, fmt.Sprint(v, null))
			return nil
		})
		if !ok || err != nil {
			t.Fatalf("%d cores: ok %v, %v", cores, ok, err)
		}
		return out
	}
	d, _ := DirectOf(p, events.TableKernel, 0)
	if n, err := d.RunParts(context.Background(), cols[:1], 4, func(int) func(int64, *model.Fields) error {
		return func(int64, *model.Fields) error { return nil }
	}); err != nil || n < 3 {
		t.Fatalf("%d ranges, %v: the test checks little", n, err)
	}
	one, many := rows(1), rows(4)
	if len(one) < 3*7 || fmt.Sprint(one) != fmt.Sprint(many) {
		t.Errorf("%d rows in one range, %d in ranges, or in another order", len(one), len(many))
	}
}

// BenchmarkScanIntsRanges streams train's kernels in two ranges (the later
// one kept, intRows) and in one.
func BenchmarkScanIntsRanges(b *testing.B) {
	p, err := Open(fixture(b, "train"))
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	defer func(l int) { sqlite.MinPartLeaves = l }(sqlite.MinPartLeaves)
	sqlite.MinPartLeaves, intBlock = 1, 7
	cols := []string{"start", "end", "deviceId", "shortName"}
	for _, cores := range []int{1, 2} {
		b.Run(fmt.Sprint(cores, "ranges"), func(b *testing.B) {
			ctx := WithCores(context.Background(), cores)
			b.ReportAllocs()
			for b.Loop() {
				var sum int64
				if _, err := ScanInts(ctx, p, events.TableKernel, cols, func(v []int64, _ uint32) error {
					sum += v[1] - v[0]
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
