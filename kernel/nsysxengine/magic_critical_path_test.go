package nsysxengine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// %nsys critical-path shows, per profile, the summary and the iteration
// table; -f csv prints the CSV; bad flags are usage errors.
func TestNsysCriticalPath(t *testing.T) {
	e := openEngine(t, "train")
	r := cell(t, e, "%nsys critical-path --what-if kernels=0.5 train")
	if n := len(r.Displays); n != 1 {
		t.Fatalf("%d displays, want the table", n)
	}
	if tab := r.Displays[0].Data; tab[ResultMIME] == nil || !strings.Contains(tab["text/plain"].(string), "Sync Wait") {
		t.Errorf("table bundle %v", keys(tab))
	}
	if out := r.Out.String(); !strings.Contains(out, "Critical path: ") || !strings.Contains(out, "what-if kernels=0.5") {
		t.Errorf("summary %q", out)
	}
	r = cell(t, e, "%nsys critical-path -q -f csv train")
	if !strings.HasPrefix(r.Out.String(), "Rank,Iteration,Observed (ns),Replayed (ns),Error (%),Predicted (ns),GPU (ns)") {
		t.Errorf("csv %.200q", r.Out.String())
	}
	o := filepath.Join(t.TempDir(), "cp.csv")
	r = cell(t, e, "%nsys critical-path -o "+o+" train")
	if b, err := os.ReadFile(o); err != nil || !strings.HasPrefix(string(b), "Rank,Iteration,") || !strings.Contains(r.Out.String(), "wrote "+o) {
		t.Errorf("-o: %v, %.100q, %q", err, b, r.Out.String())
	}
	for _, bad := range []string{"%nsys critical-path --what-if kernel=2 train", "%nsys critical-path -f parquet train", "%nsys critical-path --iterations ( train"} {
		if _, err := tryCell(t, e, bad); errName(err) != "UsageError" {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// The ranks of one job: each rank's table, then the critical path across
// the ranks, with rank 1 the straggler of iteration 6.
func TestNsysCriticalPathRanks(t *testing.T) {
	e := openEngine(t, "rank0", "rank1")
	r := cell(t, e, "%nsys critical-path -q rank0 rank1")
	if len(r.Displays) != 3 {
		t.Fatalf("%d displays, want two ranks' tables and the ranks table", len(r.Displays))
	}
	if txt := r.Displays[2].Data["text/plain"].(string); !strings.Contains(txt, "Straggler") {
		t.Errorf("ranks table %.300q", txt)
	}
	r = cell(t, e, "%nsys critical-path -q -f csv rank0 rank1")
	if !strings.Contains(r.Out.String(), "\niteration 6,1,") {
		t.Errorf("csv %.300q", r.Out.String())
	}
}
