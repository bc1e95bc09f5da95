package nsysxengine

import (
	"sort"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// Tables of several profiles name their profile in text, HTML and JSON.
func TestMultiProfileLabels(t *testing.T) {
	e := newEngine(t)
	cell(t, e, "%open "+gz("rank0")+" as before")
	cell(t, e, "%open "+gz("rank1")+" as after")
	r := cell(t, e, "%nsys stats -r cuda_api_sum before after")
	if len(r.displays) != 3 { // progress + 2 tables
		t.Fatalf("%d displays", len(r.displays))
	}
	for i, name := range []string{"before", "after"} {
		d := r.displays[i+1].Data
		txt, htm := d["text/plain"].(string), d["text/html"].(string)
		js := d[ResultMIME].(map[string]any)
		if !strings.HasPrefix(txt, "Profile: "+name+"\n") || !strings.Contains(htm, "Profile: <b>"+name+"</b>") || js["profile"] != name {
			t.Errorf("table %d is not labelled %s: %.80q / %.200q / %v", i, name, txt, htm, js["profile"])
		}
	}
	r = cell(t, e, "%nsys stats -q -f csv -r cuda_api_sum before after")
	want, _ := testutil.Golden(t, "rank1", "cuda_api_sum.csv")
	if got := r.displays[2].Data["text/plain"].(string); got != "Profile: after\n"+strings.TrimRight(want, "\n") {
		t.Errorf("quiet csv of the second profile:\n%.300s", got)
	}
	// one profile: no label (the goldens' text is unchanged)
	r = cell(t, e, "%nsys stats -r cuda_api_sum before")
	if txt := r.displays[0].Data["text/plain"].(string); strings.HasPrefix(txt, "Profile:") {
		t.Errorf("a single profile is labelled: %.60q", txt)
	}
	// a Go slice of results from two profiles
	cell(t, e, `a, _ := before.Stats("cuda_api_sum")`)
	cell(t, e, `b, _ := after.Stats("cuda_api_sum")`)
	txt := cell(t, e, `[]*nsysx.Result{a, b}`).result(t)["text/plain"].(string)
	if !strings.Contains(txt, "Profile: rank0\n") || !strings.Contains(txt, "Profile: rank1\n") {
		t.Errorf("slice of results: %.300q", txt)
	}
}

// SKIPPED reports say why in plain text too, as the CLI does.
func TestSkippedReasons(t *testing.T) {
	e := newEngine(t)
	cell(t, e, "%open "+gz("train"))
	r := cell(t, e, `%nsys stats --filter-nvtx "iteraton 12" -r nvtx_sum,cuda_api_sum`)
	last := r.displays[len(r.displays)-1].Data["text/plain"].(string)
	want := "NVTX range 'iteraton 12' could not be found in"
	if !strings.HasPrefix(last, "SKIPPED (2): nvtx_sum, cuda_api_sum\n  nvtx_sum: "+want) || strings.Count(last, want) != 2 {
		t.Errorf("skipped block %q", last)
	}
}

// Table methods in cells: results, errors with the closest name, and a
// nil column shown as an error instead of <nil>.
func TestTableCells(t *testing.T) {
	e := newEngine(t)
	cell(t, e, "%open "+gz("train"))
	cell(t, e, `k, _ := train.Stats("cuda_gpu_kern_sum")`)
	rows := goldenRows(t, "train", "cuda_gpu_kern_sum.csv")
	js := cell(t, e, `k.Sort("Name").Head(2)`).result(t)[ResultMIME].(map[string]any)
	names := []string{}
	for _, row := range rows {
		names = append(names, row[8])
	}
	sort.Strings(names)
	if got := js["rows"].([]any); len(got) != 2 || got[0].([]any)[8] != names[0] || got[1].([]any)[8] != names[1] {
		t.Errorf("Sort(Name).Head(2): %v, want %q", got, names[:2])
	}
	for code, want := range map[string]string{
		`k.Sort("Avgg")`:        "error: nsysx: cuda_gpu_kern_sum has no column \"Avgg\" (did you mean Avg?)",
		`k.Col("Totl Time")`:    "error: no such column",
		`k.Column("Totl Time")`: "did you mean Total Time",
	} {
		got := cell(t, e, code).result(t)["text/plain"].(string)
		if !strings.Contains(got, want) {
			t.Errorf("%s shows %q, want %q", code, got, want)
		}
	}
}
