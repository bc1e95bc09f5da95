package critpath_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/ranksfix"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/critpath"
)

func openAll(t *testing.T, paths ...string) []*nsysx.Profile {
	t.Helper()
	var out []*nsysx.Profile
	for _, p := range paths {
		pr, err := nsysx.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pr.Close() })
		out = append(out, pr)
	}
	return out
}

func ranks(t *testing.T, o critpath.RanksOptions, paths ...string) *critpath.RanksResult {
	t.Helper()
	r, err := critpath.Ranks(t.Context(), openAll(t, paths...), o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sqlRows runs a query of two integer columns a and b on the SQLite file
// at path (one text of all rows, in the order of a, from SQLite itself).
func sqlRows(t *testing.T, path, query string) [][2]int64 {
	t.Helper()
	var out [][2]int64
	all := sqlitecopy.Text(t, path, "SELECT group_concat(a || ',' || b, ';' ORDER BY a) FROM ("+query+")")
	for _, row := range strings.Split(all, ";") {
		var r [2]int64
		if _, err := fmt.Sscanf(row, "%d,%d", &r[0], &r[1]); err != nil {
			t.Fatalf("%q: %v", row, err)
		}
		out = append(out, r)
	}
	return out
}

// TestRanksTwoRankCapture checks the real two-rank DDP capture (rank 1
// does ten times the host work of rank 0 before each step) against an
// independent computation in SQL: the session offsets, and per iteration
// each rank's waiting, with the k-th NCCL kernel of one rank paired with
// the k-th of the other and each collective in the iteration whose NVTX
// range holds rank 0's launch of it.
func TestRanksTwoRankCapture(t *testing.T) {
	paths := []string{testutil.Profile(t, "rank0"), testutil.Profile(t, "rank1")}
	// given in the wrong order: ranks are ordered by file name
	r := ranks(t, critpath.RanksOptions{}, paths[1], paths[0])
	if !strings.HasSuffix(r.Files[0], "rank0.sqlite") || !strings.HasSuffix(r.Files[1], "rank1.sqlite") {
		t.Fatalf("files %v: want rank0 first", r.Files)
	}
	var utc [2]int64
	var kern [2][][2]int64
	for i, p := range paths {
		utc[i] = sqlitecopy.Int64(t, p, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME")
		kern[i] = sqlRows(t, p, `SELECT k.start AS a, r.start AS b FROM CUPTI_ACTIVITY_KIND_KERNEL k
			JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId
			WHERE k.shortName IN (SELECT id FROM StringIds WHERE value LIKE 'nccl%') ORDER BY k.start`)
	}
	first := min(utc[0], utc[1])
	if want := []int64{utc[0] - first, utc[1] - first}; !slices.Equal(r.Offsets, want) {
		t.Errorf("offsets %v, want %v", r.Offsets, want)
	}
	if len(kern[0]) != len(kern[1]) || r.Collectives != len(kern[0]) || r.Outside != 0 {
		t.Fatalf("%d collectives matched (%d outside iterations); SQL: %d and %d kernels", r.Collectives, r.Outside, len(kern[0]), len(kern[1]))
	}
	iters := sqlRows(t, paths[0], `SELECT start AS a, end AS b FROM NVTX_EVENTS WHERE eventType = 59
		AND coalesce(text, (SELECT value FROM StringIds WHERE id = textId)) LIKE 'iteration %' ORDER BY start`)
	if len(r.Iterations) != len(iters) {
		t.Fatalf("%d iterations, SQL %d", len(r.Iterations), len(iters))
	}
	want := make([][2]int64, len(iters))
	for k := range kern[0] {
		a0, a1 := kern[0][k][0]+utc[0]-first, kern[1][k][0]+utc[1]-first
		for j, w := range iters {
			if l := kern[0][k][1]; w[0] <= l && l < w[1] {
				want[j][0] += max(a0, a1) - a0
				want[j][1] += max(a0, a1) - a1
			}
		}
	}
	for j, it := range r.Iterations {
		if !slices.Equal(it.Lost, want[j][:]) {
			t.Errorf("%s: lost %v, SQL %v", it.Name, it.Lost, want[j])
		}
		// the slow rank is the straggler once the capture runs (the first
		// captured iteration starts with rank 0's profiler start)
		if j > 0 && it.Straggler != 1 {
			t.Errorf("%s: straggler %d, want 1 (lost %v)", it.Name, it.Straggler, it.Lost)
		}
		if it.Idle[0] > it.Lost[0] || it.Idle[1] > it.Lost[1] || it.Predicted > it.Observed || it.Predicted <= 0 {
			t.Errorf("%s: idle %v beyond lost %v, or predicted %d beyond observed %d", it.Name, it.Idle, it.Lost, it.Predicted, it.Observed)
		}
	}
	if s := r.Skew[1]; s < -50_000 || s > 50_000 || len(r.Warnings) > 0 {
		t.Errorf("skew %d ns, warnings %q: the two GPUs of one host should agree within 50 us", s, r.Warnings)
	}
}

// The injected job: four copies of rank0's export on clocks of their own,
// with arrival jitter, rank 2 delayed by 200 ms in the middle of iteration
// 8's collectives (the export's collectives 36-47) and rank 0 by 150 ms
// before iteration 15's first.
var (
	fixRanks = []ranksfix.Rank{
		{Clock: 0, Jitter: 30_000}, {Clock: 5_000_000_000, Jitter: 30_000},
		{Clock: -3_000_000_000, Jitter: 30_000}, {Clock: 123_456_789, Jitter: 30_000},
	}
	fixDelays = []ranksfix.Delay{{Rank: 2, Collective: 41, D: 200_000_000}, {Rank: 0, Collective: 120, D: 150_000_000}}
	injected  = map[string]ranksfix.Delay{"iteration 8": fixDelays[0], "iteration 15": fixDelays[1]}
)

// TestRanksInjected checks the answers on a job where they are known: the
// delayed rank is the straggler in the injected iterations and there is
// none elsewhere; every other rank lost the delay (within 10 %), on an idle
// GPU; the step grew by the delay and the prediction with the straggler at
// the median pace is the clean run's step (within 10 %).
func TestRanksInjected(t *testing.T) {
	clean := ranks(t, critpath.RanksOptions{}, ranksfix.Job(t, "rank0", t.TempDir(), fixRanks, nil)...)
	r := ranks(t, critpath.RanksOptions{}, ranksfix.Job(t, "rank0", t.TempDir(), fixRanks, fixDelays)...)
	if len(r.Iterations) != 20 || len(clean.Iterations) != 20 {
		t.Fatalf("%d and %d iterations, want 20", len(r.Iterations), len(clean.Iterations))
	}
	near := func(got, want int64) bool { return got >= want*9/10 && got <= want*11/10 }
	for j, it := range r.Iterations {
		c := clean.Iterations[j]
		if c.Straggler != -1 {
			t.Errorf("clean %s: straggler %d (lost %v)", c.Name, c.Straggler, c.Lost)
		}
		d, ok := injected[it.Name]
		if !ok {
			if it.Straggler != -1 || it.Observed != c.Observed {
				t.Errorf("%s: straggler %d, step %d (clean %d): nothing was injected", it.Name, it.Straggler, it.Observed, c.Observed)
			}
			continue
		}
		if it.Straggler != d.Rank {
			t.Errorf("%s: straggler %d, want %d (lost %v)", it.Name, it.Straggler, d.Rank, it.Lost)
		}
		for k := range fixRanks {
			if k == d.Rank {
				if it.Lost[k] > d.D/10 {
					t.Errorf("%s: the delayed rank lost %d", it.Name, it.Lost[k])
				}
				continue
			}
			if !near(it.Lost[k], d.D) || !near(it.Idle[k], d.D) {
				t.Errorf("%s: rank %d lost %d (idle %d), injected %d", it.Name, k, it.Lost[k], it.Idle[k], d.D)
			}
		}
		if !near(it.Observed-c.Observed, d.D) || !near(it.Predicted, c.Observed) {
			t.Errorf("%s: step %d, clean %d, predicted %d (injected %d)", it.Name, it.Observed, c.Observed, it.Predicted, d.D)
		}
	}
}

// TestRanksClockShift: the same job with every clock the same gives the
// same answers, and the offsets found are the clocks given.
func TestRanksClockShift(t *testing.T) {
	same := slices.Clone(fixRanks)
	for i := range same {
		same[i].Clock = 0
	}
	a := ranks(t, critpath.RanksOptions{}, ranksfix.Job(t, "rank0", t.TempDir(), fixRanks, fixDelays)...)
	b := ranks(t, critpath.RanksOptions{}, ranksfix.Job(t, "rank0", t.TempDir(), same, fixDelays)...)
	if !reflect.DeepEqual(a.Iterations, b.Iterations) {
		t.Errorf("shifted clocks change the answers:\n%+v\n%+v", a.Iterations, b.Iterations)
	}
	for i, r := range fixRanks {
		if a.Offsets[i] != r.Clock+3_000_000_000 || b.Offsets[i] != 0 {
			t.Errorf("rank %d: offsets %d and %d, clocks %d and 0", i, a.Offsets[i], b.Offsets[i], r.Clock)
		}
	}
}

// TestRanksMissingCollectives: a rank whose capture missed the first
// iteration's collectives is paired by time, not by position: the other
// iterations keep their answers.
func TestRanksMissingCollectives(t *testing.T) {
	full := ranks(t, critpath.RanksOptions{}, ranksfix.Job(t, "rank0", t.TempDir(), fixRanks, fixDelays)...)
	late := slices.Clone(fixRanks)
	late[3].Drop = 12
	r := ranks(t, critpath.RanksOptions{}, ranksfix.Job(t, "rank0", t.TempDir(), late, fixDelays)...)
	if r.Collectives != full.Collectives-12 || len(r.Warnings) == 0 || r.Iterations[0].Collectives != 0 {
		t.Fatalf("%d collectives matched (full %d), %d in the first iteration, warnings %q", r.Collectives, full.Collectives, r.Iterations[0].Collectives, r.Warnings)
	}
	if !reflect.DeepEqual(r.Iterations[1:], full.Iterations[1:]) {
		t.Errorf("the iterations after the missing collectives changed:\n%+v\n%+v", r.Iterations[1:], full.Iterations[1:])
	}
}

// TestRanksWholeCapture: without iterations the capture is one.
func TestRanksWholeCapture(t *testing.T) {
	r := ranks(t, critpath.RanksOptions{Iterations: `^no such range$`}, testutil.Profile(t, "rank0"), testutil.Profile(t, "rank1"))
	if len(r.Iterations) != 1 || r.Iterations[0].Name != "whole capture" || r.Iterations[0].Collectives != r.Collectives ||
		r.Iterations[0].Straggler != 1 || r.Iterations[0].Observed <= 0 {
		t.Errorf("%+v", r.Iterations)
	}
}

// TestRanksBadInput: each mistake is a one-line error naming it.
func TestRanksBadInput(t *testing.T) {
	dir := t.TempDir()
	rank0, train := testutil.Profile(t, "rank0"), testutil.Profile(t, "train")
	nosession := sqlitecopy.Profile(t, "rank1", dir, "nosession.sqlite", "DELETE FROM TARGET_INFO_SESSION_START_TIME")
	for _, c := range []struct {
		paths []string
		o     critpath.RanksOptions
		want  string
	}{
		{[]string{rank0}, critpath.RanksOptions{}, "at least two ranks (got 1)"},
		{[]string{rank0, train}, critpath.RanksOptions{}, "no NCCL kernels"},
		{[]string{rank0, nosession}, critpath.RanksOptions{}, "nosession.sqlite: no session start time"},
		{[]string{rank0, rank0}, critpath.RanksOptions{Iterations: "("}, "--iterations"},
		{[]string{rank0, rank0}, critpath.RanksOptions{Threshold: 2}, "threshold"},
	} {
		_, err := critpath.Ranks(t.Context(), openAll(t, c.paths...), c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v %+v: error %v, want one line with %q", c.paths, c.o, err, c.want)
		}
		if c.want == "no NCCL kernels" && !errors.Is(err, critpath.ErrNoCollectives) {
			t.Errorf("%v: %v is not ErrNoCollectives", c.paths, err)
		}
	}
}

// TestRanksResult: one row per iteration and rank, in the format
// helpers' columns.
func TestRanksResult(t *testing.T) {
	r := ranks(t, critpath.RanksOptions{}, testutil.Profile(t, "rank0"), testutil.Profile(t, "rank1"))
	res := r.Result()
	if res.Len() != 2*len(r.Iterations) {
		t.Fatalf("%d rows for %d iterations", res.Len(), len(r.Iterations))
	}
	it := r.Iterations[3]
	row := res.Row(7)
	got := fmt.Sprintf("%v|%v|%v|%v|%v|%v|%v", row[0], row[1], row[4], row[5], row[6], row[7], row[8])
	want := fmt.Sprintf("%v|%v|%v|%v|%v|%v|%v", it.Name, 1, it.Straggler, it.Lost[1], it.Idle[1], it.Observed, it.Predicted)
	if got != want {
		t.Errorf("row 7: %s, want %s", got, want)
	}
}
