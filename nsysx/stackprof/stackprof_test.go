package stackprof_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/stackprof"
)

// stackedKernelTime sums, from the raw tables, the time of kernels whose
// launch call carries a callchainId.
func stackedKernelTime(t *testing.T, p *nsysx.Profile) int64 {
	t.Helper()
	rt, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_RUNTIME", "correlationId", "callchainId")
	if err != nil {
		t.Fatal(err)
	}
	has := map[int64]bool{}
	for i := 0; i < rt.N; i++ {
		if !rt.Col("callchainId").IsNull(i) {
			has[rt.Col("correlationId").Int(i)] = true
		}
	}
	k, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "correlationId")
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for i := 0; i < k.N; i++ {
		if has[k.Col("correlationId").Int(i)] {
			total += k.Col("end").Int(i) - k.Col("start").Int(i)
		}
	}
	return total
}

func TestWriteFileBT(t *testing.T) {
	p := nsysxtest.Open(t, testutil.Profile(t, "bt"))
	base := filepath.Join(t.TempDir(), "bt")
	name, err := stackprof.WriteFile(context.Background(), p, base, nsysx.StackOptions{Kernels: true})
	if err != nil {
		t.Fatal(err)
	}
	if name != base+".pb.gz" {
		t.Errorf("wrote %s", name)
	}
	prof := testutil.ReadPprof(t, name)
	// bt's TARGET_INFO_SESSION_START_TIME.utcEpochNs and ANALYSIS_DETAILS.duration (read with sqlite3).
	if prof.TimeNanos != 1796029373895116254 || prof.DurationNanos != 408801115 {
		t.Errorf("time %d, duration %d: want the session start and duration of bt", prof.TimeNanos, prof.DurationNanos)
	}
	last := prof.SampleType[len(prof.SampleType)-1]
	if last.Type != "gpu_time" || last.Unit != "nanoseconds" || prof.DefaultSampleType != "gpu_time" {
		t.Fatalf("sample types %v, default %q", prof.SampleType, prof.DefaultSampleType)
	}
	var total, noStack, kernels int64
	found := false
	for _, s := range prof.Sample {
		v := s.Value[len(s.Value)-1]
		total += v
		kernels += s.Value[0]
		names := sampleNames(s)
		if slices.Contains(names, nsysx.NoStackFrame) {
			noStack += v
		}
		found = found || inOrder(names, "cudaLaunchKernel", "gather_cuda_kernel", "at::native::embedding", "THPVariable_embedding")
	}
	if want := nsysxtest.KernSumTotal(t, p); total != want {
		t.Errorf("gpu_time total %d, cuda_gpu_kern_sum total %d", total, want)
	}
	if want := stackedKernelTime(t, p); total-noStack != want {
		t.Errorf("gpu_time with a stack %d, raw tables say %d", total-noStack, want)
	}
	if noStack == 0 || kernels != 1664 {
		t.Errorf("no-stack time %d, %d kernels (want 1664)", noStack, kernels)
	}
	if !found {
		t.Error("no stack cudaLaunchKernel ← gather_cuda_kernel ← embedding ← THPVariable_embedding")
	}
}

func sampleNames(s *profile.Sample) []string {
	var out []string
	for _, l := range s.Location {
		for _, ln := range l.Line {
			out = append(out, ln.Function.Name)
		}
	}
	return out
}

// inOrder reports whether names (innermost first) hold frames containing
// each part, in that order.
func inOrder(names []string, parts ...string) bool {
	i := 0
	for _, n := range names {
		if i < len(parts) && strings.Contains(n, parts[i]) {
			i++
		}
	}
	return i == len(parts)
}

func TestNoStacksSkipped(t *testing.T) {
	p := nsysxtest.Open(t, testutil.Profile(t, "train"))
	_, err := stackprof.Build(context.Background(), p, nsysx.StackOptions{})
	var se *stackprof.SkippedError
	if !errors.As(err, &se) || !strings.Contains(se.Error(), "--cudabacktrace") {
		t.Fatalf("got %v, want a SKIPPED error naming --cudabacktrace", err)
	}
}

// A session table that exists but cannot be read fails the export with an
// error naming it, instead of a profile without its start or duration.
func TestUnreadableSessionTable(t *testing.T) {
	for _, table := range []string{"TARGET_INFO_SESSION_START_TIME", "ANALYSIS_DETAILS"} {
		path, page := sqlitecopy.DamageTable(t, "bt", t.TempDir(), "bt.sqlite", table)
		p := nsysxtest.Open(t, path)
		_, err := stackprof.Build(context.Background(), p, nsysx.StackOptions{Kernels: true})
		if err == nil || !strings.Contains(err.Error(), table) {
			t.Errorf("%s (root page %d) unreadable: want an error naming it, got %v", table, page, err)
		}
	}
}
