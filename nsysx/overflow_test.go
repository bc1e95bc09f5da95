package nsysx

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/model/modeltest"
)

// apiFixture is a profile of CUDA API calls (start, end) named "f".
func apiFixture(t *testing.T, calls ...[2]int64) *Profile {
	names := &modeltest.MemTable{Name: events.TableStringIds, Cols: []string{"id", "value"}}
	names.Add(1, "f")
	rt := &modeltest.MemTable{Name: events.TableRuntime, Cols: []string{"start", "end", "nameId", "globalTid", "correlationId"}}
	for i, c := range calls {
		rt.Add(c[0], c[1], 1, gtid11, i+1)
	}
	return &Profile{modeltest.Profile(t, names, rt)}
}

// Totals that do not fit in 64 bits fail the report, as SQLite's sum()
// does, instead of wrapping to negative numbers; totals that just fit are
// exact.
func TestTotalsOverflow(t *testing.T) {
	const big = math.MaxInt64
	for _, tc := range []struct {
		name  string
		calls [][2]int64
	}{
		{"sum of two durations", [][2]int64{{0, big}, {0, 1}}},
		{"end - start", [][2]int64{{-10, big}}},
	} {
		p := apiFixture(t, tc.calls...)
		res, err := p.Stats(context.Background(), "cuda_api_sum")
		var oe *OverflowError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), "cuda_api_sum") {
			t.Errorf("%s: want an overflow error naming the report, got %v (%s)", tc.name, err, csvIfAny(res))
		}
	}
	p := apiFixture(t, [2]int64{0, big - 1}, [2]int64{5, 6})
	res, err := p.Stats(context.Background(), "cuda_api_sum")
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Col("Total Time").Value(0); got.I != big {
		t.Errorf("total that fits: %v, want %d", got, int64(big))
	}
}

// Two groups whose totals fit but whose grand total does not.
func TestGrandTotalOverflow(t *testing.T) {
	names := &modeltest.MemTable{Name: events.TableStringIds, Cols: []string{"id", "value"}}
	names.Add(1, "f").Add(2, "g")
	rt := &modeltest.MemTable{Name: events.TableRuntime, Cols: []string{"start", "end", "nameId", "globalTid", "correlationId"}}
	rt.Add(0, int64(math.MaxInt64), 1, gtid11, 1).Add(0, int64(10), 2, gtid11, 2)
	p := &Profile{modeltest.Profile(t, names, rt)}
	_, err := p.Stats(context.Background(), "cuda_api_sum")
	var oe *OverflowError
	if !errors.As(err, &oe) {
		t.Errorf("want an overflow error, got %v", err)
	}
}

// A group's integer sum past int64 is given as a real (no wrapping).
func TestGroupSumOverflow(t *testing.T) {
	r := NewResult("x", "x", "k", "v")
	r.Add(TextV("a"), IntV(math.MaxInt64))
	r.Add(TextV("a"), IntV(math.MaxInt64))
	g := r.GroupBy("k").Agg("sum(v)")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	v := g.Cols[1].Value(0)
	if v.Kind != FloatKind || v.F != 2*float64(math.MaxInt64) {
		t.Errorf("sum: %+v, want the real %g", v, 2*float64(math.MaxInt64))
	}
}

func csvIfAny(r *Result) string {
	if r == nil {
		return "no result"
	}
	return fmt.Sprintf("%d rows", r.Len())
}

// gtid11 is the globalTid of process 1, thread 1 (bit 48 set as in real
// exports).
const gtid11 = 1<<48 | 1<<24 | 1
