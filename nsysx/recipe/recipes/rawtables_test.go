package recipes

import (
	"context"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// rawKernel is one kernel read straight from the export, for tests that
// recompute recipe values without the composites.
type rawKernel struct {
	start, end int64
	name       string
}

// rawKernels reads CUPTI_ACTIVITY_KIND_KERNEL of a test profile in row
// order, short names resolved through StringIds.
func rawKernels(t testing.TB, profile string) []rawKernel {
	t.Helper()
	p := nsysxtest.Open(t, testutil.Profile(t, profile))
	tb, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "shortName")
	if err != nil {
		t.Fatal(err)
	}
	out := make([]rawKernel, tb.N)
	for i := range out {
		name, _ := p.String(context.Background(), tb.Col("shortName").Int(i))
		out[i] = rawKernel{tb.Col("start").Int(i), tb.Col("end").Int(i), name}
	}
	return out
}

// rawUTC reads TARGET_INFO_SESSION_START_TIME.utcEpochNs of a profile.
func rawUTC(t testing.TB, profile string) int64 {
	t.Helper()
	p := nsysxtest.Open(t, testutil.Profile(t, profile))
	tb, err := p.Load(context.Background(), "TARGET_INFO_SESSION_START_TIME", "utcEpochNs")
	if err != nil {
		t.Fatal(err)
	}
	return tb.Col("utcEpochNs").Int(0)
}

// floatsOf returns a column's values as float64 with NULLs dropped from the
// tail (pace padding) and the number of non-NULL rows.
func floatsOf(c *pyframe.Column) []float64 {
	var out []float64
	for i := 0; i < c.Len(); i++ {
		if c.IsNull(i) {
			continue
		}
		if c.Type == pyframe.Float64 {
			out = append(out, c.FloatVals[i])
		} else {
			out = append(out, float64(c.IntVals[i]))
		}
	}
	return out
}

// openProfile opens a test profile, closed when the test ends.
func openProfile(t testing.TB, profile string) *nsysx.Profile {
	t.Helper()
	p, err := nsysx.Open(testutil.Profile(t, profile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}
