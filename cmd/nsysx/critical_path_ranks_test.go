package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/format"
)

// TestRanksCSV: the two-rank capture as CSV: the header, one row per
// iteration and rank (rank 0 first, whatever the order of the files), the
// slow rank 1 named the straggler and rank 0 losing time waiting for it.
func TestRanksCSV(t *testing.T) {
	var out, errs bytes.Buffer
	files := []string{testutil.Profile(t, "rank1"), testutil.Profile(t, "rank0")}
	if err := writeRanks(t.Context(), &out, &errs, openAll(t, files), "", format.Spec{Name: "csv"}); err != nil || errs.Len() > 0 {
		t.Fatalf("%v; stderr %q", err, errs.String())
	}
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(out.String(), "\n"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := "Iteration,Rank,File,Collectives,Straggler,Lost (ns),Idle Lost (ns),Observed (ns),Predicted (ns)"
	if strings.Join(recs[0], ",") != want || len(recs) != 1+2*20 {
		t.Fatalf("header %q and %d rows; want %q and 40 rows", recs[0], len(recs)-1, want)
	}
	for _, r := range recs[3:] { // after iteration 5 (the capture's start)
		lost, _ := strconv.ParseInt(r[5], 10, 64)
		if r[4] != "1" || r[1] == "0" && (lost <= 0 || !strings.HasSuffix(r[2], "rank0.sqlite")) {
			t.Errorf("row %q: want straggler 1, rank 0 losing time", r)
		}
	}
}

// TestRanksJSON: the JSON format parses, with the same rows.
func TestRanksJSON(t *testing.T) {
	var out, errs bytes.Buffer
	files := []string{testutil.Profile(t, "rank0"), testutil.Profile(t, "rank1")}
	if err := writeRanks(t.Context(), &out, &errs, openAll(t, files), `^iteration \d+$`, format.Spec{Name: "json"}); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil {
		t.Fatalf("%v: %.200s", err, out.String())
	}
	if len(rows) != 40 || fmt.Sprint(rows[39]["Straggler"]) != "1" || rows[39]["Iteration"] != "iteration 24" {
		t.Errorf("%d rows, last %v", len(rows), rows[len(rows)-1])
	}
}

// openAll opens the test profiles named, closed at the test's end.
func openAll(t *testing.T, files []string) []*nsysx.Profile {
	t.Helper()
	var profs []*nsysx.Profile
	for _, f := range files {
		p, err := nsysx.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		profs = append(profs, p)
	}
	return profs
}

// TestRanksErrors: reports that are not one job's get no table across the
// ranks (ErrNoCollectives: nothing said) or one line saying why, after the
// per-file tables, and the command succeeds; a mistake of the command line
// is one line naming it, with the usage exit status.
func TestRanksErrors(t *testing.T) {
	rank0, rank1, train := testutil.Profile(t, "rank0"), testutil.Profile(t, "rank1"), testutil.Profile(t, "train")
	nosession := sqlitecopy.Profile(t, "rank1", t.TempDir(), "nosession.sqlite", "DELETE FROM TARGET_INFO_SESSION_START_TIME")
	for _, c := range []struct {
		args []string
		code int
		want string // in stderr ("" for nothing)
	}{
		{[]string{rank0, train}, 0, ""},
		{[]string{rank0, nosession}, 0, "not across the ranks: "},
		{[]string{"--iterations", "(", rank0, rank1}, 2, "--iterations"},
		{[]string{"-f", "cvs", rank0, rank1}, 2, "did you mean csv"},
		{[]string{rank0, "nope.sqlite"}, 1, "no such file"},
	} {
		out, errOut, code := runCLI(t, append([]string{"critical-path", "-q"}, c.args...)...)
		if code != c.code || c.want == "" && errOut != "" || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") > 1 {
			t.Errorf("%v: exit %d, %q; want %d and %q on one line", c.args, code, errOut, c.code, c.want)
		}
		if code == 0 && (strings.Contains(out, "Straggler") || !strings.Contains(out, "Critical path")) {
			t.Errorf("%v: a table across the ranks, or no per-file table:\n%.300s", c.args, out)
		}
	}
	// What critpath.Ranks says of each: the reason named.
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{rank0, train}, "no NCCL kernels"},
		{[]string{rank0, nosession}, "no session start time"},
	} {
		var out, errs bytes.Buffer
		if err := writeRanks(t.Context(), &out, &errs, openAll(t, c.files), "", format.Spec{Name: "csv"}); err == nil || !strings.Contains(err.Error(), c.want) || out.Len() > 0 {
			t.Errorf("%v: %v, %d bytes written; want %q and nothing", c.files, err, out.Len(), c.want)
		}
	}
}
