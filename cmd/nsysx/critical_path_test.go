package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// nsysx critical-path -f csv prints the documented header and one row per
// iteration whose observed time is the step's NVTX range (checked against
// nsys's own NVTX report of the same profile is the library test's job;
// here against the row's own columns: the composition adds up to the
// replay, and kernels=1 predicts the replay); -o writes the same to a
// file.
func TestCriticalPathCSV(t *testing.T) {
	const header = "Rank,Iteration,Observed (ns),Replayed (ns),Error (%),Predicted (ns),GPU (ns),Copies (ns),Host (ns),Sync Wait (ns),Communication (ns),Top Critical Item"
	before := testutil.Profile(t, "whatif/before")
	stdout, stderr, code := runCLI(t, "critical-path", "-f", "csv", "--what-if", "kernels=1", before)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != header || len(recs) != 21 {
		t.Fatalf("header %v and %d rows, want %q and 20 steps", recs[0], len(recs)-1, header)
	}
	for _, r := range recs[1:] {
		n := make([]int64, 11)
		for i := range n {
			if i != 4 {
				n[i], _ = strconv.ParseInt(r[i], 10, 64)
			}
		}
		if n[5] != n[3] || n[6]+n[7]+n[8]+n[9]+n[10] != n[3] || r[11] == "" {
			t.Errorf("row %v: predicted or composition differ from the replay", r)
		}
	}
	out := filepath.Join(t.TempDir(), "cp.csv")
	if _, stderr, code := runCLI(t, "critical-path", "-f", "csv", "--what-if", "kernels=1", "-o", out, before); code != 0 {
		t.Fatalf("-o: exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != stdout {
		t.Errorf("-o wrote %d bytes (%v), want the console's CSV", len(b), err)
	}
}

// Bad input is a one-line error and a non-zero exit.
func TestCriticalPathBadInput(t *testing.T) {
	train := testutil.Profile(t, "train")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"critical-path"}, "give at least one profile"},
		{[]string{"critical-path", "--what-if", "kernel=2", train}, "did you mean kernels"},
		{[]string{"critical-path", "--what-if", "sync=0", train}, "sync=drop"},
		{[]string{"critical-path", "--iterations", "(", train}, "--iterations"},
		{[]string{"critical-path", "-f", "parquet", train}, "text formats"},
		{[]string{"critical-path", filepath.Join(t.TempDir(), "none.sqlite")}, "none.sqlite"},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q: want one line with %q", c.args, code, stderr, c.want)
		}
	}
}

// Several reports: each one's table, then, for the ranks of one job, the
// critical path across them (its header and rank 1 as iteration 6's
// straggler); reports of different runs get no ranks table and no error.
func TestCriticalPathSeveral(t *testing.T) {
	r0, r1 := testutil.Profile(t, "rank0"), testutil.Profile(t, "rank1")
	stdout, stderr, code := runCLI(t, "critical-path", "-q", "-f", "csv", r0, r1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	parts := strings.Split(strings.TrimSpace(stdout), "\n\n")
	if len(parts) != 2 || !strings.HasPrefix(parts[1], "Iteration,Rank,File,Collectives,Straggler,Lost (ns),Idle Lost (ns),Observed (ns),Predicted (ns)\n") ||
		!strings.Contains(parts[1], "\niteration 6,1,") {
		t.Errorf("%d parts; stdout %.600q", len(parts), stdout)
	}
	stdout, stderr, code = runCLI(t, "critical-path", "-q", "-f", "csv", testutil.Profile(t, "train"), testutil.Profile(t, "fixed"))
	if code != 0 || stderr != "" || strings.Contains(stdout, "Straggler") {
		t.Errorf("exit %d, stderr %q, stdout %.300q", code, stderr, stdout)
	}
}
