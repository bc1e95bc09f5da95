package plots

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
)

// The idle chart stacks the report's numbers: each bar's segments add up to
// that window's idle time from gpu_idle_breakdown's rows.
func TestIdleChartMatchesReport(t *testing.T) {
	p := profile(t, "sync")
	c, err := Idle(context.Background(), p, nil)
	if err != nil || c.Note != "" {
		t.Fatalf("%v %s", err, c.Note)
	}
	r, err := p.Stats(context.Background(), "gpu_idle_breakdown")
	if err != nil {
		t.Fatal(err)
	}
	idleOf := map[string]int64{}
	for i := 0; i < r.Len(); i++ {
		row := r.Row(i)
		idleOf[row[1].String()+"/"+row[2].String()] = row[5].I
	}
	d := c.data.(*IdleData)
	for _, sp := range d.Idle.Devices[0].Spans {
		key := "(all)/"
		if sp.Instance >= 0 {
			key = sp.Iteration + "/" + nsysx.IntV(int64(sp.Instance)).String()
		}
		var sum int64
		for _, v := range sp.ByCat {
			sum += v
		}
		if want, ok := idleOf[key]; !ok || sum != want {
			t.Errorf("%s: bar %d ns, report %d (%v)", key, sum, want, ok)
		}
	}
	var png bytes.Buffer
	if err := c.PNG(&png); err != nil || png.Len() == 0 {
		t.Errorf("PNG: %v", err)
	}
	if _, err := c.VegaLite(); err != nil {
		t.Error(err)
	}
}

// The icicle's root is all kernel time (cuda_gpu_kern_sum's total) and no
// frame is narrower than the frames it calls.
func TestStacksChart(t *testing.T) {
	p := profile(t, "bt")
	c, err := Stacks(context.Background(), p, nil)
	if err != nil || c.Note != "" {
		t.Fatalf("%v %s", err, c.Note)
	}
	r, err := p.Stats(context.Background(), "cuda_gpu_kern_sum")
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for i := 0; i < r.Len(); i++ {
		total += r.Row(i)[1].I
	}
	d := c.data.(*StacksData)
	if d.Root.Time != total {
		t.Errorf("root %d ns, cuda_gpu_kern_sum %d", d.Root.Time, total)
	}
	var check func(n *StackNode)
	check = func(n *StackNode) {
		var sum int64
		for _, ch := range n.Children {
			sum += ch.Time
			check(ch)
		}
		if sum > n.Time {
			t.Errorf("%s: callees %d ns > %d", n.Function, sum, n.Time)
		}
	}
	check(d.Root)
	if nc, _ := Stacks(context.Background(), profile(t, "train"), nil); !strings.Contains(nc.Note, "--cudabacktrace") {
		t.Errorf("train: note %q", nc.Note)
	}
}
