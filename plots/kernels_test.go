package plots

import (
	"context"
	"math"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// checkBars compares a ranking with the rows nsys wrote: the top bars are
// the first rows (name, total, count), "other" sums the rest, and the
// shares add up to 100%.
func checkBars(t *testing.T, b *Bars, rows []map[string]string, nameCol, totalCol, countCol string, scale float64, n int) {
	t.Helper()
	if b.Rows != len(rows) {
		t.Fatalf("rows: got %d, nsys has %d", b.Rows, len(rows))
	}
	top := min(n, len(rows))
	if len(rows) == n+1 {
		top = n + 1 // no "other" bar for a single row
	}
	var rest, restCount, all float64
	for i, r := range rows {
		v := atof(t, r[totalCol]) * scale
		all += v
		if i >= top {
			rest += v
			restCount += atof(t, r[countCol])
			continue
		}
		bar := b.Bars[i]
		if bar.Name != r[nameCol] || math.Abs(bar.Value-v) > 1e-9*math.Max(1, v) || float64(bar.Count) != atof(t, r[countCol]) {
			t.Errorf("bar %d: got %q %v (%d), nsys: %q %v (%s)", i, bar.Name, bar.Value, bar.Count, r[nameCol], v, r[countCol])
		}
		if pct, ok := r["Time (%)"]; ok && math.Abs(bar.Pct-atof(t, pct)) > 0.05+1e-9 {
			t.Errorf("bar %d %q: share %.3f%%, nsys %s%%", i, bar.Name, bar.Pct, pct)
		}
	}
	wantBars := top
	if top < len(rows) {
		wantBars++
		o := b.Bars[len(b.Bars)-1]
		if !o.Other || math.Abs(o.Value-rest) > 1e-6*math.Max(1, rest) || float64(o.Count) != restCount {
			t.Errorf("other: got %+v, want value %v count %v", o, rest, restCount)
		}
	}
	if len(b.Bars) != wantBars {
		t.Fatalf("got %d bars, want %d", len(b.Bars), wantBars)
	}
	if math.Abs(b.Total-all) > 1e-6*math.Max(1, all) {
		t.Errorf("total %v, nsys rows sum to %v", b.Total, all)
	}
	var pct float64
	for _, bar := range b.Bars {
		pct += bar.Pct
	}
	if all > 0 && math.Abs(pct-100) > 1e-6 {
		t.Errorf("shares sum to %v%%", pct)
	}
}

// The bars are the totals nsys's cuda_gpu_kern_sum and cuda_api_sum
// printed.
func TestTopTimesMatchReports(t *testing.T) {
	for _, tc := range []struct {
		report, countCol string
		n                int
		draw             func(context.Context, *nsysx.Profile, int) (*Chart, error)
	}{
		{"cuda_gpu_kern_sum", "Instances", 10, Kernels},
		{"cuda_api_sum", "Num Calls", 8, APICalls},
	} {
		for _, name := range testutil.Profiles {
			t.Run(tc.report+"/"+name, func(t *testing.T) {
				c, rows := chartOrNote(t, name, tc.report, func(p *nsysx.Profile) (*Chart, error) {
					return tc.draw(context.Background(), p, tc.n)
				})
				if c != nil {
					checkBars(t, c.data.(*Bars), rows, "Name", "Total Time (ns)", tc.countCol, 1, tc.n)
				}
			})
		}
	}
}

// chartOrNote draws a chart of the profile and reads the CSV nsys wrote
// for report; where nsys found no rows the chart must say why (its note),
// and c is nil.
func chartOrNote(t *testing.T, prof, report string, draw func(*nsysx.Profile) (*Chart, error)) (c *Chart, rows []map[string]string) {
	t.Helper()
	rows, ok := goldenCSV(t, prof, report+".csv")
	c, err := draw(profile(t, prof))
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		if c.Note == "" {
			t.Fatalf("nsys found no rows for %s, the chart has no note", report)
		}
		return nil, nil
	}
	return c, rows
}

func TestKernelsTopAndLabels(t *testing.T) {
	p := profile(t, "train")
	for _, n := range []int{1, 3, 48, 49, 200} {
		c, err := Kernels(context.Background(), p, n)
		if err != nil {
			t.Fatal(err)
		}
		b := c.data.(*Bars)
		seen := map[string]bool{}
		for _, bar := range b.Bars {
			if seen[bar.Label] {
				t.Errorf("top %d: label %q twice", n, bar.Label)
			}
			seen[bar.Label] = true
			if len([]rune(bar.Label)) > maxLabel {
				t.Errorf("label %q longer than %d", bar.Label, maxLabel)
			}
		}
		rows, _ := goldenCSV(t, "train", "cuda_gpu_kern_sum.csv")
		checkBars(t, b, rows, "Name", "Total Time (ns)", "Instances", 1, n)
	}
}
