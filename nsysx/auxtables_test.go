package nsysx_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
)

// runOnFile opens the file at path and runs one stats or analyze spec.
func runOnFile(t *testing.T, path, spec string, analyze bool) (*nsysx.Result, error) {
	t.Helper()
	p, err := nsysx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if analyze {
		return p.Analyze(context.Background(), spec)
	}
	return p.Stats(context.Background(), spec)
}

// A TARGET_INFO_GPU that exists but cannot be read fails cuda_gpu_trace
// with an error naming it (its devices were named " (0)").
func TestGPUTraceUnreadableGPUs(t *testing.T) {
	path, page := sqlitecopy.DamageTable(t, "sync", t.TempDir(), "gpu.sqlite", "TARGET_INFO_GPU")
	res, err := runOnFile(t, path, "cuda_gpu_trace", false)
	if err == nil || !strings.Contains(err.Error(), "TARGET_INFO_GPU") {
		t.Errorf("root page %d of TARGET_INFO_GPU damaged: want an error naming the table, got %v (%v)", page, err, res)
	}
}

// A StringIds table without a row is SKIPPED with the reason, as a missing
// one is, by stats' reports and analyze's rules (cuda_api_sync said "no
// problems detected"; kernels had blank names).
func TestEmptyStringIdsSkipped(t *testing.T) {
	path := sqlitecopy.Profile(t, "sync", t.TempDir(), "empty.sqlite", "DELETE FROM StringIds")
	want := path + " file has an empty StringIds table"
	for _, c := range []struct {
		spec    string
		analyze bool
	}{{"cuda_gpu_kern_sum", false}, {"cuda_api_sum", false}, {"cuda_gpu_trace", false}, {"cuda_api_sync", true}} {
		res, err := runOnFile(t, path, c.spec, c.analyze)
		if err != nil || !strings.Contains(res.Skipped, want) {
			var skipped string
			if res != nil {
				skipped = res.Skipped
			}
			t.Errorf("%s: want SKIPPED %q, got %v %q", c.spec, want, err, skipped)
		}
	}
}

// NVTX texts may be inline: with StringIds empty, sync's nvtx_sum is still
// the one nsys wrote for the intact file.
func TestEmptyStringIdsInlineNVTX(t *testing.T) {
	path := sqlitecopy.Profile(t, "sync", t.TempDir(), "empty.sqlite", "DELETE FROM StringIds")
	want, _ := testutil.Golden(t, "sync", "nvtx_sum.csv")
	res, err := runOnFile(t, path, "nvtx_sum", false)
	if err != nil {
		t.Fatal(err)
	}
	if d := testutil.Diff(statsCSV(t, res), want); d != "" {
		t.Errorf("nvtx_sum: %s", d)
	}
}
