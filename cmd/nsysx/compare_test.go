package main

import (
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
)

// nsysx compare -f csv prints only the CSV, header first; train vs fixed
// reports the kernel-time drop as faster.
func TestCompareCSV(t *testing.T) {
	stdout, stderr, code := runCLI(t, "compare", "-f", "csv", testutil.Profile(t, "train"), testutil.Profile(t, "fixed"))
	// bf16 autocast swapped most kernels: 6% of train's kernel time is in
	// kernels fixed runs too (TestCompareComparability computes it).
	if code != 0 || !strings.HasPrefix(stderr, "nsysx compare: warning: less than half of ") || !strings.Contains(stderr, "train") || strings.Count(stderr, "\n") != 1 {
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
		{[]string{"--fail-on", "slowr", in, in}, 2, "--fail-on takes slower, faster or change"},
		{[]string{"--fail-onn", "slower", in, in}, 2, "did you mean --fail-on"},
		{[]string{"--min-share", "x", in, in}, 2, "--min-share takes a number"},
		{[]string{"--min-shar", "5", in, in}, 2, "did you mean --min-share"},
	} {
		_, stderr, code := runCLI(t, append([]string{"compare"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want %d, %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

// --fail-on slower exits 3 when a row at or above --min-share is slower
// (every cudaLaunchKernel of bt 1.5x slower in a copy: 7.8% of its CUDA
// API time), 0 when none is (the profile against itself, or the threshold
// share above the launches' share), and -f json carries each verdict with
// its method and interval.
func TestCompareFailOn(t *testing.T) {
	before := testutil.Profile(t, "bt")
	after := sqlitecopy.Profile(t, "bt", t.TempDir(), "slow.sqlite",
		"UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end = start + (end - start) * 3 / 2 WHERE nameId IN "+
			"(SELECT id FROM StringIds WHERE value IN ('cudaLaunchKernel', 'cudaLaunchKernel_v7000'))")
	share := 100 * float64(sqlitecopy.Int64(t, before, "SELECT sum(r.end - r.start) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "+
		"WHERE s.value IN ('cudaLaunchKernel', 'cudaLaunchKernel_v7000')")) /
		float64(sqlitecopy.Int64(t, before, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_RUNTIME"))
	stdout, stderr, code := runCLI(t, "compare", "--fail-on", "slower", "-f", "json", before, after)
	if code != 3 || !strings.Contains(stderr, "are slower, among them api cudaLaunchKernel (+50.0%)") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rows {
		if r["Name"] == "cudaLaunchKernel" {
			found = true
			if r["Verdict"] != "slower" || r["Method"] != "paired-iterations" || r["Change (%)"] != 50.0 || r["CI Low (%)"] == nil ||
				r["Median Change (%)"] == nil || r["Avg Change (%)"] == nil {
				t.Errorf("json row %v", r)
			}
		}
	}
	if !found {
		t.Error("no cudaLaunchKernel row in the JSON")
	}
	// Above 50%, only [all CUDA API calls]: slower by 50% of 7.8%, not at
	// --threshold 10.
	if _, stderr, code := runCLI(t, "compare", "--fail-on", "slower", "--min-share", "50", "--threshold", "10", "-q", "-f", "csv", before, after); code != 0 || share >= 50 {
		t.Errorf("--min-share 50 (the launches hold %.1f%%): exit %d: %s", share, code, stderr)
	}
	if _, stderr, code := runCLI(t, "compare", "--fail-on", "change", "-q", before, before); code != 0 || stderr != "" {
		t.Errorf("a profile against itself: exit %d: %s", code, stderr)
	}
}
