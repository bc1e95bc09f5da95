package nsysxengine

import (
	"strings"
	"testing"
)

// %nsys advise shows, per profile, the summary, the findings table and the
// time-at-stake chart; -f csv prints the CSV; an *advise.Advice value
// shows as its table; bad flags are usage errors.
func TestNsysAdvise(t *testing.T) {
	e := openEngine(t, "train", "fixed")
	r := cell(t, e, "%nsys advise train fixed")
	if n := len(r.Displays); n != 4 {
		t.Fatalf("%d displays, want a table and a chart per profile", n)
	}
	if tab := r.Displays[0].Data; tab[ResultMIME] == nil || !strings.Contains(tab["text/plain"].(string), "gpu_bound") {
		t.Errorf("table bundle %v", keys(tab))
	}
	if c := r.Displays[1].Data; c["image/png"] == nil || !strings.Contains(c["text/plain"].(string), "gpu_bound") {
		t.Errorf("chart bundle %v", keys(c))
	}
	if out := r.Out.String(); !strings.Contains(out, "What to fix first: train; all 20 iterations") || !strings.Contains(out, "fix first: gpu_bound") {
		t.Errorf("summary %q", out)
	}
	r = cell(t, e, "%nsys advise -q -f csv train")
	if !strings.HasPrefix(r.Out.String(), "Rank,Category,Finding,At Stake (ns),Per Iteration (ns),Share (%),Confidence,Evidence,Fix\n1,gpu_bound,") {
		t.Errorf("csv %.200q", r.Out.String())
	}
	r = cell(t, e, "import \"github.com/nsysx/nsysx/nsysx/advise\"\na, _ := advise.Run(ctx, fixed, advise.Options{})\na")
	if res := r.result(t); res[ResultMIME] == nil || !strings.Contains(res["text/plain"].(string), "What to fix first: fixed") {
		t.Errorf("display %.300v", res["text/plain"])
	}
	for _, bad := range []string{"%nsys advise --iteration x train", "%nsys advise -f parquet train", "%nsys advise --iterations ( train"} {
		if _, err := tryCell(t, e, bad); errName(err) != "UsageError" {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// The ranks of one job: the job's advice (with its straggler) comes first,
// then each rank's.
func TestNsysAdviseJob(t *testing.T) {
	e := openEngine(t, "rank0", "rank1")
	r := cell(t, e, "%nsys advise -q -f csv rank0 rank1")
	tables := strings.Split(strings.TrimSpace(r.Out.String()), "\n\n")
	if len(tables) != 3 || !strings.Contains(tables[0], ",straggler,rank 1 (") {
		t.Errorf("%d tables; first %.400q", len(tables), tables[0])
	}
	r = cell(t, e, "%nsys advise rank0 rank1")
	if out := r.Out.String(); !strings.HasPrefix(out, "What to fix first: job of 2 ranks") || len(r.Displays) != 6 {
		t.Errorf("%d displays, summary %.200q", len(r.Displays), out)
	}
}
