package plots

import (
	"context"
	"math"
	"strings"
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

// Each bar is the name's total in nsys's report for that profile; the
// "other" bars sum the rest, so both sides add up to the report totals.
func TestCompareMatchesReports(t *testing.T) {
	for _, tc := range []struct {
		a, b, by, golden, nameCol string
	}{
		{"train", "fixed", "kernels", "cuda_gpu_kern_sum.csv", "Name"},
		{"rank0", "rank1", "kernels", "cuda_gpu_kern_sum.csv", "Name"},
		{"train", "fixed", "nvtx", "nvtx_sum.csv", "Range"},
	} {
		t.Run(tc.a+"+"+tc.b+"/"+tc.by, func(t *testing.T) {
			c, err := Compare(context.Background(), profile(t, tc.a), profile(t, tc.b), tc.by, 12)
			if err != nil {
				t.Fatal(err)
			}
			d := c.data.(*CompareData)
			want := [2]map[string]float64{{}, {}}
			var totals [2]float64
			for i, prof := range []string{tc.a, tc.b} {
				rows, _ := goldenCSV(t, prof, tc.golden)
				for _, r := range rows {
					name := r[tc.nameCol]
					if tc.by == "nvtx" {
						name = rangeLabel(name)
					}
					want[i][name] += atof(t, r["Total Time (ns)"])
					totals[i] += atof(t, r["Total Time (ns)"])
				}
			}
			var sum [2]float64
			for _, r := range d.Rows {
				sum[0] += r.A
				sum[1] += r.B
				if r.Other {
					continue
				}
				if r.A != want[0][r.Name] || r.B != want[1][r.Name] {
					t.Errorf("%q: got %v / %v, nsys %v / %v", r.Name, r.A, r.B, want[0][r.Name], want[1][r.Name])
				}
			}
			for i := range sum {
				if math.Abs(sum[i]-totals[i]) > 1e-6*totals[i] || d.TotalA != totals[0] || d.TotalB != totals[1] {
					t.Errorf("profile %d: bars sum to %v, report total %v", i, sum[i], totals[i])
				}
			}
			// The top rows are the names with the largest total in either profile.
			for i := 1; i < len(d.Rows); i++ {
				if !d.Rows[i].Other && math.Max(d.Rows[i].A, d.Rows[i].B) > math.Max(d.Rows[i-1].A, d.Rows[i-1].B) {
					t.Errorf("row %d out of order", i)
				}
			}
			if len(d.Rows) != 13 || !d.Rows[12].Other || !strings.HasPrefix(d.Rows[12].Label, "other (") {
				t.Errorf("want 12 rows and other, got %d rows", len(d.Rows))
			}
		})
	}
}

// Every name in both profiles has an interval around its change and the
// verdict the rule gives; names in one profile only are new or vanished.
func TestCompareIntervals(t *testing.T) {
	for _, by := range []string{"kernels", "nvtx"} {
		c, err := Compare(context.Background(), profile(t, "train"), profile(t, "fixed"), by, 20)
		if err != nil {
			t.Fatal(err)
		}
		d := c.data.(*CompareData)
		if d.Basis != "iterations" {
			t.Errorf("%s: basis %q", by, d.Basis)
		}
		with := 0
		for _, r := range d.Rows {
			switch {
			case r.Other:
			case r.A == 0 && r.Verdict != "new", r.B == 0 && r.Verdict != "vanished":
				t.Errorf("%s %q: %v / %v but %q", by, r.Name, r.A, r.B, r.Verdict)
			case r.A > 0 && r.B > 0 && !math.IsNaN(r.Low):
				with++
				if !(r.Low <= r.Change && r.Change <= r.High) {
					t.Errorf("%q: %v outside [%v, %v]", r.Name, r.Change, r.Low, r.High)
				}
				if (r.Verdict == "faster") != (r.High < 0 && r.Change <= -0.02) || (r.Verdict == "slower") != (r.Low > 0 && r.Change >= 0.02) {
					t.Errorf("%q: verdict %s for %v [%v, %v]", r.Name, r.Verdict, r.Change, r.Low, r.High)
				}
			}
		}
		if with == 0 {
			t.Errorf("%s: no row has an interval", by)
		}
	}
	c, _ := Compare(context.Background(), profile(t, "train"), profile(t, "fixed"), "kernels", 5)
	if !strings.Contains(c.Subtitle, "faster, -83.") {
		t.Errorf("subtitle %q lacks the kernel total's verdict", c.Subtitle)
	}
}
