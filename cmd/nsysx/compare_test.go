package main

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// nsysx compare -f csv prints only the CSV, header first; train vs fixed
// reports the kernel-time drop as faster.
func TestCompareCSV(t *testing.T) {
	stdout, stderr, code := runCLI(t, "compare", "-f", "csv", testutil.Profile(t, "train"), testutil.Profile(t, "fixed"))
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if recs[0][0] != "Verdict" {
		t.Fatalf("first line %v is not the header", recs[0])
	}
	found := false
	for _, r := range recs[1:] {
		if r[len(r)-1] == "[all kernels]" {
			found = r[0] == "faster"
		}
	}
	if !found {
		t.Error("[all kernels] is not faster")
	}
}

func TestCompareErrors(t *testing.T) {
	in := testutil.Profile(t, "sync")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{in}, 2, "give two profiles"},
		{[]string{"-f", "cvs", in, in}, 2, "did you mean csv"},
		{[]string{"--confidence", "2", in, in}, 2, "--confidence"},
		{[]string{"--iterations", "(", in, in}, 2, "--iterations"},
		{[]string{"-f", "parquet", in, in}, 2, "give -o FILE"},
		{[]string{in, "nope.sqlite"}, 1, "no such file"},
		{[]string{"--filter-nvtx", "nope", in, in}, 0, "SKIPPED"},
	} {
		_, stderr, code := runCLI(t, append([]string{"compare"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want %d, %q", c.args, code, stderr, c.code, c.want)
		}
	}
}
