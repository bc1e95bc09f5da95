package pqcompare

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

func golden(rel string) string {
	return filepath.Join(testutil.Root(), "testdata", "golden", "recipes", rel)
}

func TestSameFileIsEqual(t *testing.T) {
	g := golden("rank0+rank1/nvtx_gpu_proj_trace/trace.parquet")
	if err := Files(g, g); err != nil {
		t.Fatal(err)
	}
}

func TestDifferentFilesDiffer(t *testing.T) {
	// The two runs' kernel summaries share a schema but not their rows.
	a := golden("rank0+rank1/cuda_gpu_kern_sum/all_stats.parquet")
	b := golden("train+fixed/cuda_gpu_kern_sum/all_stats.parquet")
	err := Files(a, b)
	if err == nil || !strings.Contains(err.Error(), "rows: want 9, got 50") {
		t.Fatalf("err = %v", err)
	}
	// Different schemas are reported before any value.
	c := golden("rank0+rank1/nccl_sum/all_stats.parquet")
	err = Files(a, c)
	if err == nil || !strings.Contains(err.Error(), `Arrow schema: want field "Min": int64 nullable=true, got field "Min": float64`) {
		t.Fatalf("err = %v", err)
	}
}

func TestBadFiles(t *testing.T) {
	g := golden("rank0+rank1/nccl_sum/files.parquet")
	if err := Files(g, filepath.Join(t.TempDir(), "missing.parquet")); err == nil {
		t.Fatal("a missing file compared equal")
	}
	junk := filepath.Join(t.TempDir(), "junk.parquet")
	if err := os.WriteFile(junk, []byte("not parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Files(g, junk); err == nil || !strings.Contains(err.Error(), "junk.parquet") {
		t.Fatalf("err = %v", err)
	}
}
