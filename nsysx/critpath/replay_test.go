package critpath

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

func open(t testing.TB, name string) *nsysx.Profile {
	t.Helper()
	p, err := nsysx.Open(filepath.Join(testutil.Root(), "testdata", "profiles", name+".sqlite.gz"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// profiles are every real capture of the test data.
var profiles = []string{"train", "fixed", "sync", "cnn", "bt", "rank0", "rank1",
	"advise/graph", "advise/graph_node", "advise/healthy", "advise/host_stall", "advise/host_stall_nocuda",
	"advise/launch_bound", "advise/pageable_sync",
	"whatif/before", "whatif/half_gemm", "whatif/no_item", "whatif/no_sleep"}

// TestReplayError replays every profile with its measured durations and
// checks the goals against the observed NVTX iteration times (read by the
// test from the iterations' own windows): mean |error| <= 2 % per profile,
// every iteration within 5 %. The observed times are checked against the
// iteration windows, and the composition must add up to the replay.
func TestReplayError(t *testing.T) {
	for _, name := range profiles {
		t.Run(name, func(t *testing.T) {
			r, err := Analyze(context.Background(), open(t, name), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Whole || len(r.Iterations) < 2 {
				t.Fatalf("%d iterations (whole capture %v): every test profile marks its steps", len(r.Iterations), r.Whole)
			}
			var sum float64
			for _, it := range r.Iterations {
				if it.Observed != it.End-it.Start || it.Observed <= 0 {
					t.Fatalf("iteration %d: observed %d, window %d", it.Index, it.Observed, it.End-it.Start)
				}
				e := 100 * math.Abs(float64(it.Replayed-it.Observed)) / float64(it.Observed)
				sum += e
				if e > 5 {
					t.Errorf("iteration %d: replayed %d ns, observed %d ns: error %.2f%% > 5%%", it.Index, it.Replayed, it.Observed, e)
				}
				c := it.Composition
				if tot := c.GPU + c.Copies + c.Host + c.SyncWait + c.Communication; tot != it.Replayed && name != "advise/host_stall_nocuda" {
					t.Errorf("iteration %d: composition adds up to %d, replayed %d", it.Index, tot, it.Replayed)
				}
			}
			t.Logf("| %s | %d | %.2f | %.2f |", name, len(r.Iterations), r.MeanAbsError, r.MaxAbsError)
			if m := sum / float64(len(r.Iterations)); m > 2 {
				t.Errorf("mean |error| %.2f%% > 2%%", m)
			}
		})
	}
}

// TestIdentityWhatIf checks that kernels=1 predicts exactly the replay,
// and that a real change moves the prediction.
func TestIdentityWhatIf(t *testing.T) {
	p := open(t, "whatif/before")
	w, err := ParseWhatIf("kernels=1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(context.Background(), p, Options{WhatIf: []WhatIf{w}})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range r.Iterations {
		if it.Predicted != it.Replayed {
			t.Errorf("iteration %d: kernels=1 predicts %d, replay %d", it.Index, it.Predicted, it.Replayed)
		}
	}
	if r.Span.Predicted != r.Span.Replayed {
		t.Errorf("span: kernels=1 predicts %d, replay %d", r.Span.Predicted, r.Span.Replayed)
	}
	w, _ = ParseWhatIf("kernels=0.5")
	r2, err := Analyze(context.Background(), p, Options{WhatIf: []WhatIf{w}})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Span.Predicted >= r2.Span.Replayed {
		t.Errorf("kernels=0.5 predicts %d, not less than the replay %d", r2.Span.Predicted, r2.Span.Replayed)
	}
}

// TestParquetSameAsSQLite: the Parquet export of train (read through
// loaded columns, not the SQLite scan) gives the same analysis.
func TestParquetSameAsSQLite(t *testing.T) {
	pq, err := nsysx.Open(filepath.Join(testutil.Root(), "testdata", "profiles", "train_pqtdir"))
	if err != nil {
		t.Fatal(err)
	}
	defer pq.Close()
	a, err := Analyze(context.Background(), open(t, "train"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Analyze(context.Background(), pq, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Iterations) != len(b.Iterations) || a.Span != b.Span {
		t.Fatalf("SQLite %d iterations, span %+v; Parquet %d, %+v", len(a.Iterations), a.Span, len(b.Iterations), b.Span)
	}
	for i := range a.Iterations {
		if x, y := a.Iterations[i], b.Iterations[i]; x.Replayed != y.Replayed || x.Composition != y.Composition {
			t.Errorf("iteration %d: SQLite %+v, Parquet %+v", i, x, y)
		}
	}
}

// BenchmarkAnalyze builds, replays and walks train (20 iterations, about
// 13k API calls and GPU operations) with one what-if.
func BenchmarkAnalyze(b *testing.B) {
	p := open(b, "train")
	w, err := ParseWhatIf("kernels=0.5")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Analyze(context.Background(), p, Options{WhatIf: []WhatIf{w}}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWholeCapture: without iteration ranges the whole capture (the
// busiest thread's first to last call) is one iteration, replayed within
// the same goal; a profile without CUDA calls or iterations is an error.
func TestWholeCapture(t *testing.T) {
	r, err := Analyze(context.Background(), open(t, "whatif/before"), Options{Iterations: "^no such range$"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Whole || len(r.Iterations) != 1 || r.Iterations[0].Observed < r.Span.Observed/2 || math.Abs(r.Iterations[0].Error) > 2 {
		t.Errorf("whole capture: %v, %d iterations, %+v", r.Whole, len(r.Iterations), r.Iterations)
	}
	_, err = Analyze(context.Background(), open(t, "advise/host_stall_nocuda"), Options{Iterations: "^no such range$"})
	if err == nil || !strings.Contains(err.Error(), "no CUDA API calls") {
		t.Errorf("no CUDA, no iterations: %v", err)
	}
	if _, err := Analyze(context.Background(), open(t, "train"), Options{Iterations: "("}); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("bad --iterations: %v", err)
	}
}
