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
)

// TestRanksCSV: the two-rank capture as CSV: the header, one row per
// iteration and rank (rank 0 first, whatever the order of the files), the
// slow rank 1 named the straggler and rank 0 losing time waiting for it.
func TestRanksCSV(t *testing.T) {
	var out, errs bytes.Buffer
	files := []string{testutil.Profile(t, "rank1"), testutil.Profile(t, "rank0")}
	if err := writeRanks(t.Context(), &out, &errs, files, "", "csv"); err != nil || errs.Len() > 0 {
		t.Fatalf("%v; stderr %q", err, errs.String())
	}
	recs, err := csv.NewReader(&out).ReadAll()
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
	if err := writeRanks(t.Context(), &out, &errs, files, `^iteration \d+$`, "json"); err != nil {
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

// TestRanksErrors: each mistake is one line naming it, with the usage
// exit status where it is the command line's.
func TestRanksErrors(t *testing.T) {
	rank0, rank1, train := testutil.Profile(t, "rank0"), testutil.Profile(t, "rank1"), testutil.Profile(t, "train")
	nosession := sqlitecopy.Profile(t, "rank1", t.TempDir(), "nosession.sqlite", "DELETE FROM TARGET_INFO_SESSION_START_TIME")
	for _, c := range []struct {
		files   []string
		iter, f string
		code    int
		want    string
	}{
		{[]string{rank0}, "", "csv", 2, "at least two ranks (got 1)"},
		{[]string{rank0, rank1}, "(", "csv", 2, "--iterations"},
		{[]string{rank0, rank1}, "", "cvs", 2, "did you mean csv"},
		{[]string{rank0, "nope.sqlite"}, "", "csv", 1, "no such file"},
		{[]string{rank0, train}, "", "csv", 1, "no NCCL kernels"},
		{[]string{rank0, nosession}, "", "csv", 1, "no session start time"},
	} {
		var out, errs bytes.Buffer
		err := writeRanks(t.Context(), &out, &errs, c.files, c.iter, c.f)
		if err == nil {
			t.Errorf("%v: no error", c)
			continue
		}
		var msg bytes.Buffer
		if code := fail(&msg, "critical-path", err); code != c.code || !strings.Contains(msg.String(), c.want) || strings.Count(msg.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want %d and %q on one line", c, code, msg.String(), c.code, c.want)
		}
	}
}
