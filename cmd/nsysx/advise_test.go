package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// nsysx advise -f csv prints only the CSV with the exact header, one
// table per profile; -o writes the same to a file.
func TestAdviseCSV(t *testing.T) {
	const header = "Rank,Category,Finding,At Stake (ns),Per Iteration (ns),Share (%),Confidence,Evidence,Fix"
	train := testutil.Profile(t, "train")
	stdout, stderr, code := runCLI(t, "advise", "-f", "csv", train)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if first, _, _ := strings.Cut(stdout, "\n"); first != header {
		t.Fatalf("header %q, want %q", first, header)
	}
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 2 || recs[1][0] != "1" || recs[1][1] != "gpu_bound" {
		t.Fatalf("first finding %v, want rank 1 gpu_bound", recs[1:2])
	}
	for _, r := range recs[1:] {
		if !strings.Contains(r[2], "all 20 iterations") || !strings.Contains(r[7], "Command: nsysx ") || !strings.Contains(r[7], train) {
			t.Errorf("finding %v lacks its scope or its command", r[:3])
		}
	}
	out := filepath.Join(t.TempDir(), "advice.csv")
	if _, stderr, code := runCLI(t, "advise", "-f", "csv", "-o", out, train); code != 0 {
		t.Fatalf("-o: exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != stdout {
		t.Errorf("-o wrote %d bytes (%v), not the console's CSV", len(b), err)
	}
	// two profiles: two tables, each with its header
	stdout, _, code = runCLI(t, "advise", "-f", "csv", train, testutil.Profile(t, "fixed"))
	if code != 0 || strings.Count(stdout, header+"\n") != 2 {
		t.Errorf("two profiles: exit %d, %d headers", code, strings.Count(stdout, header+"\n"))
	}
}

// Bad input gets one line on stderr and a non-zero exit.
func TestAdviseErrors(t *testing.T) {
	in := testutil.Profile(t, "sync")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "give at least one profile"},
		{[]string{"-f", "cvs", in}, 2, "did you mean csv"},
		{[]string{"--iteration", "x", in}, 2, "did you mean --iterations"},
		{[]string{"--iterations", "(", in}, 2, "--iterations"},
		{[]string{"-f", "parquet", in}, 2, "not parquet"},
		{[]string{"nope.sqlite"}, 1, "no such file"},
	} {
		_, stderr, code := runCLI(t, append([]string{"advise"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want %d, %q", c.args, code, stderr, c.code, c.want)
		}
	}
}
