package nsysx_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

var externals = []string{"nsysai_h100_2gpu_1s", "nsysai_healthy_1pct", "nsysai_mfu_2gpu_after", "nsysai_mfu_2gpu_before", "train22"}

// TestExternalProfiles runs every report and rule on exports made by other
// nsys versions (schemas 3.0, 3.24, 3.25, and a trimmed file): no error, no
// panic; SKIPPED where data is missing; the invariants elsewhere.
func TestExternalProfiles(t *testing.T) {
	for _, name := range externals {
		p, err := nsysx.Open(testutil.External(t, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ran, skipped := 0, 0
		for _, r := range append(nsysx.Reports(), nsysx.Rules()...) {
			res, err := p.RunReport(context.Background(), r, nil, nil)
			if err != nil {
				t.Errorf("%s %s: %v", name, r.Name, err)
				continue
			}
			if res.Skipped != "" {
				skipped++
				if !strings.HasPrefix(res.Skipped, p.Path) && !strings.Contains(res.Skipped, "does not contain") {
					t.Errorf("%s %s: odd SKIPPED message %q", name, r.Name, res.Skipped)
				}
				continue
			}
			ran++
			checkInvariants(t, name+" "+r.Name, res)
		}
		t.Logf("%s (schema %s): %d reports and rules with data, %d SKIPPED", name, p.SchemaVersion(context.Background()), ran, skipped)
		p.Close()
	}
}

// TestRealProfileInvariants checks the same invariants on the seven real
// captures (whose exact outputs the golden tests check too).
func TestRealProfileInvariants(t *testing.T) {
	for _, name := range testutil.Profiles {
		p, err := nsysx.Open(testutil.Profile(t, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range append(nsysx.Reports(), nsysx.Rules()...) {
			res, err := p.RunReport(context.Background(), r, nil, nil)
			if err != nil {
				t.Errorf("%s %s: %v", name, r.Name, err)
				continue
			}
			checkInvariants(t, name+" "+r.Name, res)
		}
		p.Close()
	}
}

func num(v nsysx.Value) (float64, bool) {
	switch v.Kind {
	case nsysx.IntKind:
		return float64(v.I), true
	case nsysx.FloatKind:
		return v.F, true
	}
	return 0, false
}

// checkInvariants: percentages sum to 100 +/- 0.1; min <= median <= max and
// min <= avg <= max for every Min/Med/Avg/Max family; count x avg = total
// within rounding; traces sorted by their first time column.
func checkInvariants(t *testing.T, what string, r *nsysx.Result) {
	t.Helper()
	n := r.Len()
	if n == 0 {
		return
	}
	if c := r.Col("Time"); c.Err() == nil && c.Tag() == "ratio_%" {
		sum := 0.0
		for i := 0; i < n; i++ {
			v, _ := num(c.Value(i))
			sum += v
		}
		// each row is rounded to 0.1, so the sum may drift by up to 0.05 a row
		if tol := 0.1 + 0.05*float64(n); math.Abs(sum-100) > math.Min(tol, 1+0.05*float64(n)) && math.Abs(sum-100) > 0.1 {
			if math.Abs(sum-100) > 0.05*float64(n)+0.1 {
				t.Errorf("%s: Time %% sums to %.2f over %d rows", what, sum, n)
			}
		}
	}
	prefixes := map[string]bool{}
	for _, c := range r.Cols {
		l := c.Label()
		for _, suf := range []string{"Min", "Med", "Max", "Avg"} {
			if strings.HasSuffix(l, suf) {
				prefixes[strings.TrimSuffix(l, suf)] = true
			}
		}
	}
	for pre := range prefixes {
		mn, md, mx, av := r.Col(pre+"Min"), r.Col(pre+"Med"), r.Col(pre+"Max"), r.Col(pre+"Avg")
		if mn.Err() != nil || mx.Err() != nil {
			continue
		}
		for i := 0; i < n; i++ {
			lo, ok1 := num(mn.Value(i))
			hi, ok2 := num(mx.Value(i))
			if !ok1 || !ok2 {
				continue
			}
			if lo > hi {
				t.Errorf("%s row %d: %sMin %v > %sMax %v", what, i, pre, lo, pre, hi)
			}
			for _, c := range []*nsysx.ResultCol{md, av} {
				if c.Err() != nil {
					continue
				}
				if v, ok := num(c.Value(i)); ok && (v < lo-0.05 || v > hi+0.05) {
					t.Errorf("%s row %d: %s %v outside [%v, %v]", what, i, c.Label(), v, lo, hi)
				}
			}
		}
	}
	// count x avg = total
	total, avg := r.Col("Total Time"), r.Col("Avg")
	var count *nsysx.ResultCol
	for _, l := range []string{"Instances", "Num Calls", "Count"} {
		if c := r.Col(l); c.Err() == nil {
			count = c
		}
	}
	if total.Err() == nil && avg.Err() == nil && count != nil {
		for i := 0; i < n; i++ {
			tt, ok1 := num(total.Value(i))
			a, ok2 := num(avg.Value(i))
			k, ok3 := num(count.Value(i))
			if ok1 && ok2 && ok3 && math.Abs(k*a-tt) > 0.05*k+1e-6*tt {
				t.Errorf("%s row %d: %v x %v != %v", what, i, k, a, tt)
			}
		}
	}
	// traces: sorted by their start column
	if strings.HasSuffix(r.Report, "_trace") && r.Report != "nvtx_gpu_proj_trace" {
		first := r.Cols[0]
		if first.Tag() == "ts_ns" {
			prev := math.Inf(-1)
			for i := 0; i < n; i++ {
				v, ok := num(first.Value(i))
				if !ok {
					continue
				}
				if v < prev {
					t.Errorf("%s: not sorted by %s at row %d", what, first.Label(), i)
					break
				}
				prev = v
			}
		}
	}
}

// TestMissingColumnSkips: the trimmed export's kernel table has no globalPid,
// so reports that join kernels to API calls print a SKIPPED line naming the
// column, while reports that do not need it run.
func TestMissingColumnSkips(t *testing.T) {
	path := testutil.External(t, "nsysai_healthy_1pct")
	p, err := nsysx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r, err := p.Stats(context.Background(), "cuda_kern_exec_sum")
	if err != nil {
		t.Fatal(err)
	}
	if want := path + " does not contain the 'globalPid' column in CUPTI_ACTIVITY_KIND_KERNEL."; r.Skipped != want {
		t.Errorf("SKIPPED %q, want %q", r.Skipped, want)
	}
	if r, err := p.Stats(context.Background(), "cuda_gpu_kern_sum"); err != nil || r.Skipped != "" || r.Len() == 0 {
		t.Errorf("cuda_gpu_kern_sum on the trimmed export: %v %q", err, r.Skipped)
	}
}
