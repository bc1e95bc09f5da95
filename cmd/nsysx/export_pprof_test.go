package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

func TestExportPprof(t *testing.T) {
	base := filepath.Join(t.TempDir(), "bt")
	_, stderr, code := runCLI(t, "export", "-t", "pprof", "-o", base, testutil.Profile(t, "bt"))
	if code != 0 || !strings.Contains(stderr, base+".pb.gz") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	prof := testutil.ReadPprof(t, base+".pb.gz")
	// cuda_gpu_kern_sum's total for bt, summed from its golden written by nsys.
	gold, err := os.ReadFile(filepath.Join(testutil.Root(), "testdata", "golden", "bt", "cuda_gpu_kern_sum.csv"))
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(gold))
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for _, row := range rows[1:] {
		n, err := strconv.ParseInt(row[1], 10, 64)
		if err != nil {
			t.Fatalf("golden row %v: %v", row, err)
		}
		want += n
	}
	var got int64
	for _, s := range prof.Sample {
		got += s.Value[len(s.Value)-1]
	}
	if got != want || want == 0 {
		t.Errorf("gpu_time total %d, cuda_gpu_kern_sum golden %d", got, want)
	}
}

func TestExportPprofNoStacks(t *testing.T) {
	base := filepath.Join(t.TempDir(), "train")
	_, stderr, code := runCLI(t, "export", "-t", "pprof", "-o", base, testutil.Profile(t, "train"))
	if code != 0 || !strings.HasPrefix(stderr, "SKIPPED: ") || !strings.Contains(stderr, "--cudabacktrace") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(base + ".pb.gz"); err == nil {
		t.Error("wrote a profile without stacks")
	}
}
