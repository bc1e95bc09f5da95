package advise_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/ranksfix"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/advise"
)

// jobAdvice opens the reports and advises each and the job.
func jobAdvice(t *testing.T, paths ...string) (*advise.Advice, error) {
	t.Helper()
	var profs []*nsysx.Profile
	var per []*advise.Advice
	for _, p := range paths {
		prof := nsysxtest.Open(t, p)
		profs = append(profs, prof)
		per = append(per, run(t, p))
	}
	return advise.Job(context.Background(), profs, per, advise.Options{})
}

// A job built from real rank exports with delays we injected (four copies
// of rank0 on clocks of their own, ranksfix): rank 2 is held 200 ms and
// 100 ms before collectives of iterations 8 and 10, rank 0 150 ms in
// iteration 15. The straggler finding names rank 2 (two of the three
// iterations), and its time at stake is the injected time, within 10 %;
// the clean job has no straggler finding.
func TestJobInjectedStraggler(t *testing.T) {
	ranks := []ranksfix.Rank{{Jitter: 30_000}, {Clock: 5e9, Jitter: 30_000}, {Clock: -3e9, Jitter: 30_000}, {Clock: 123_456_789, Jitter: 30_000}}
	delays := []ranksfix.Delay{{Rank: 2, Collective: 41, D: 200e6}, {Rank: 2, Collective: 65, D: 100e6}, {Rank: 0, Collective: 120, D: 150e6}}
	a, err := jobAdvice(t, ranksfix.Job(t, "rank0", t.TempDir(), ranks, delays)...)
	if err != nil {
		t.Fatal(err)
	}
	f := a.Find(advise.Straggler)
	if f == nil {
		t.Fatalf("no straggler finding: %+v", a.Findings)
	}
	t.Logf("%s %.1f%%: %s", f.Finding, f.Share, f.Evidence)
	if !strings.HasPrefix(f.Finding, "rank 2 (rank2)") {
		t.Errorf("finding %q does not name rank 2", f.Finding)
	}
	if !within(float64(f.AtStake), 450e6, 0.10) {
		t.Errorf("straggler at stake %d ns, injected 450 ms", f.AtStake)
	}
	if !strings.Contains(f.Evidence, "rank2 in 2, rank0 in 1 of 20 iterations") {
		t.Errorf("evidence %q", f.Evidence)
	}
	if a.Iterations != 20 || !strings.HasPrefix(a.Source, "job of 4 ranks") {
		t.Errorf("scope %q of %s", a.Scope, a.Source)
	}
	clean, err := jobAdvice(t, ranksfix.Job(t, "rank0", t.TempDir(), ranks, nil)...)
	if err != nil {
		t.Fatal(err)
	}
	if f := clean.Find(advise.Straggler); f != nil {
		t.Errorf("clean job: %s", f.Finding)
	}
}

// The real two-rank capture (ddp.py: rank 1 does extra host work before
// each step): rank 1 is the straggler; every rank's own categories are in
// the job's advice with the mean of the ranks' shares.
func TestJobTwoRanks(t *testing.T) {
	r0, r1 := testutil.Profile(t, "rank0"), testutil.Profile(t, "rank1")
	a, err := jobAdvice(t, r0, r1)
	if err != nil {
		t.Fatal(err)
	}
	if f := a.Find(advise.Straggler); f == nil || !strings.HasPrefix(f.Finding, "rank 1 (") || !strings.Contains(f.Evidence, "rank1 in 19") {
		t.Fatalf("straggler finding %+v", f)
	}
	a0, a1 := run(t, r0), run(t, r1)
	for _, c := range []advise.Category{advise.GPUBound, advise.HostStall} {
		want := (a0.Find(c).Share + a1.Find(c).Share) / 2
		if f := a.Find(c); f == nil || !within(f.Share, want, 1e-9) {
			t.Errorf("%s: %+v, want share %.3f", c, f, want)
		}
	}
}

// Reports of different runs hold no collectives to match: not one job.
func TestJobNotOneJob(t *testing.T) {
	_, err := jobAdvice(t, testutil.Profile(t, "train"), testutil.Profile(t, "fixed"))
	if err == nil || !strings.Contains(err.Error(), "NCCL") {
		t.Errorf("err %v", err)
	}
}
