package plots

import (
	"context"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
)

// graphTraced opens train with its kernels made executions of CUDA graphs
// traced whole (sqlitecopy.GraphTraced) and returns it with the executions'
// intervals, read from the table here.
func graphTraced(t *testing.T) (*nsysx.Profile, [][2]int64) {
	t.Helper()
	p, err := nsysx.Open(sqlitecopy.GraphTraced(t, "train", t.TempDir(), "train_graphs.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	tb, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "start", "end")
	if err != nil {
		t.Fatal(err)
	}
	var iv [][2]int64
	for i := 0; i < tb.N; i++ {
		iv = append(iv, [2]int64{tb.Col("start").Int(i), tb.Col("end").Int(i)})
	}
	if len(iv) < 10 {
		t.Fatalf("%d graph executions", len(iv))
	}
	return p, iv
}

// unionLen is the length of the union of intervals.
func unionLen(iv [][2]int64) int64 {
	iv = append([][2]int64(nil), iv...)
	sort.Slice(iv, func(i, j int) bool { return iv[i][0] < iv[j][0] })
	var total, end int64 = 0, math.MinInt64
	for _, x := range iv {
		if s := max(x[0], end); x[1] > s {
			total += x[1] - s
		}
		end = max(end, x[1])
	}
	return total
}

// gpu-util counts each graph execution as a kernel running throughout it:
// one bin over the executions' span holds their union, and the footnote
// says how they were traced.
func TestGPUUtilGraphTrace(t *testing.T) {
	p, iv := graphTraced(t)
	lo, hi := int64(math.MaxInt64), int64(0)
	for _, x := range iv {
		lo, hi = min(lo, x[0]), max(hi, x[1])
	}
	c, err := GPUUtil(context.Background(), []*nsysx.Profile{p}, &Options{Bins: 1, Start: lo, End: hi})
	if err != nil {
		t.Fatal(err)
	}
	if c.Note != "" {
		t.Fatalf("note %q", c.Note)
	}
	rows := c.data.(*UtilData).Rows
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	r, union := rows[0], unionLen(iv)
	if r.Busy != union || r.Graphs != len(iv) || r.Kernels != len(iv) {
		t.Errorf("busy %d ns of %d graph executions (%d ops), want %d of %d", r.Busy, r.Graphs, r.Kernels, union, len(iv))
	}
	if want := math.Round(float64(union)/float64(hi-lo)*1000) / 10; math.Abs(r.Values[0]-want) > 0.11 {
		t.Errorf("one bin %v, union/span %v%%", r.Values, want)
	}
	if !strings.Contains(c.Footnote, "traced as whole graphs") || !strings.Contains(c.Footnote, "--cuda-graph-trace=node") {
		t.Errorf("footnote %q", c.Footnote)
	}
}

// nvtx-timeline's GPU lanes draw the executions as "CUDA graph" bars that
// cover exactly their union.
func TestTimelineGraphTrace(t *testing.T) {
	p, iv := graphTraced(t)
	d, note, err := timelineData(context.Background(), p, &Options{}, nil)
	if err != nil || note != "" {
		t.Fatalf("%v, note %q", err, note)
	}
	var bars [][2]int64
	for _, l := range d.Lanes {
		for _, b := range l.Bars {
			if l.GPU && b.Name == "CUDA graph" {
				bars = append(bars, [2]int64{b.Start, b.End})
			}
		}
	}
	if got, want := unionLen(bars), unionLen(iv); got != want {
		t.Errorf("CUDA graph bars cover %d ns, executions %d", got, want)
	}
	found := false
	for _, it := range timelineLegend(d) {
		found = found || it.label == "CUDA graph" && it.color == colGraph
	}
	if !found {
		t.Errorf("legend %v", timelineLegend(d))
	}
}

// The idle chart draws the breakdown of a graph-traced profile (not a
// no-data note) and carries the breakdown's note on graphs.
func TestIdleChartGraphTrace(t *testing.T) {
	p, _ := graphTraced(t)
	c, err := Idle(context.Background(), p, nil)
	if err != nil || c.Note != "" {
		t.Fatalf("%v, note %q", err, c.Note)
	}
	if !strings.Contains(c.Footnote, "traced as whole graphs") {
		t.Errorf("footnote %q", c.Footnote)
	}
}
