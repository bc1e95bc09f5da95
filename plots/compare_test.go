package plots

import (
	"context"
	"math"
	"strings"
	"testing"
)

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
