package advise_test

import (
	"math"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/advise"
)

func TestMain(m *testing.M) { testutil.Main(m) }

// query runs one SQL query returning one number on an unpacked profile:
// the tests' independent account of what advise should find.
func query(t *testing.T, path, q string) float64 {
	t.Helper()
	db, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, _, err := db.Prepare(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer st.Close()
	if !st.Step() {
		t.Fatalf("%s: no row (%v)", q, st.Err())
	}
	return st.ColumnFloat(0)
}

// iterSQL is the NVTX ranges named like re's LIKE pattern, as a CTE.
func iterSQL(like string) string {
	return `WITH it AS (SELECT n.start AS s, n."end" AS e FROM NVTX_EVENTS n
		WHERE n.eventType IN (59, 60) AND n."end" IS NOT NULL
		AND coalesce(n.text, (SELECT value FROM StringIds WHERE id = n.textId)) LIKE '` + like + `') `
}

// span is the iterations' total length.
func span(t *testing.T, path, like string) float64 {
	return query(t, path, iterSQL(like)+`SELECT sum(e - s) FROM it`)
}

// kernelsIn is the kernel time that starts inside the iterations.
func kernelsIn(t *testing.T, path, like string) float64 {
	return query(t, path, iterSQL(like)+`SELECT sum(k."end" - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k
		JOIN it ON k.start >= it.s AND k.start < it.e`)
}

func run(t *testing.T, path string) *advise.Advice {
	t.Helper()
	a, err := advise.Run(t.Context(), nsysxtest.Open(t, path), advise.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Findings) == 0 {
		t.Fatal("no findings")
	}
	return a
}

// within reports whether got is within tol (relative) of want.
func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

// train spends its iterations in FP32 GEMMs: gpu_bound comes first, with
// the kernels' share of the iterations (SQL), and its fix names bf16
// autocast; fixed (the same script with --amp --pin) cut the kernels'
// time per iteration, and advise's gpu_bound falls by the same factor.
func TestTrainVsFixed(t *testing.T) {
	train, fixed := testutil.Profile(t, "train"), testutil.Profile(t, "fixed")
	a, b := run(t, train), run(t, fixed)
	top := a.Top()
	if top.Category != advise.GPUBound || !strings.Contains(top.Fix, "bf16 autocast") {
		t.Fatalf("train: first finding %s (%s), want gpu_bound naming bf16 autocast", top.Category, top.Fix)
	}
	if a.Iterations != 20 || !strings.Contains(top.Finding, "all 20 iterations") {
		t.Errorf("train: %d iterations, finding %q", a.Iterations, top.Finding)
	}
	want := kernelsIn(t, train, "iteration %") / span(t, train, "iteration %") * 100
	if !within(top.Share, want, 0.15) {
		t.Errorf("train gpu_bound share %.1f%%, kernels fill %.1f%% of the iterations", top.Share, want)
	}
	g := b.Find(advise.GPUBound)
	if g == nil {
		t.Fatal("fixed: no gpu_bound finding")
	}
	wantRatio := kernelsIn(t, train, "iteration %") / kernelsIn(t, fixed, "iteration %")
	if got := float64(top.PerIter) / float64(g.PerIter); !within(got, wantRatio, 0.15) {
		t.Errorf("gpu_bound per iteration fell %.2fx, kernel time %.2fx", got, wantRatio)
	}
	if g.Share >= top.Share/2 {
		t.Errorf("fixed gpu_bound share %.1f%% is not well below train's %.1f%%", g.Share, top.Share)
	}
	for _, ad := range []*advise.Advice{a, b} {
		var sum float64
		for i, f := range ad.Findings {
			if f.Rank != i+1 || i > 0 && f.AtStake > ad.Findings[i-1].AtStake {
				t.Errorf("%s: finding %d (rank %d) out of order", ad.Source, i, f.Rank)
			}
			if f.Category != advise.GPUBound {
				sum += f.Share
			}
		}
		if sum > 100.5 { // the idle categories split the idle time once
			t.Errorf("%s: idle findings add up to %.1f%% of the span", ad.Source, sum)
		}
	}
}

// A profile without CUDA data gets one untraced finding naming the flag.
func TestUntraced(t *testing.T) {
	a := run(t, testutil.Root()+"/testdata/fixtures/mpi_early.sqlite")
	if len(a.Findings) != 1 || a.Top().Category != advise.Untraced || !strings.Contains(a.Top().Fix, "--trace=cuda") ||
		a.Top().AtStake != -1 {
		t.Errorf("findings %+v, want one untraced with the --trace=cuda flag", a.Findings)
	}
}

// Bad options are errors, not findings.
func TestBadIterations(t *testing.T) {
	p := nsysxtest.Open(t, testutil.Profile(t, "sync"))
	if _, err := advise.Run(t.Context(), p, advise.Options{Iterations: "("}); err == nil || !strings.Contains(err.Error(), "not a regular expression") {
		t.Errorf("err %v", err)
	}
}
