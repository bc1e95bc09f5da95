package nsysxengine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMagicNsysCompare(t *testing.T) {
	e := openEngine(t, "train", "fixed as after")
	r := cell(t, e, "%nsys compare train after")
	out := r.Out.String()
	if !strings.Contains(out, "[all kernels]          faster") || len(r.Displays) != 1 {
		t.Fatalf("stdout %q, %d displays", out, len(r.Displays))
	}
	js := r.Displays[0].Data[ResultMIME].(map[string]any)
	if js["report"] != "compare" {
		t.Errorf("display %v", js["report"])
	}
	r = cell(t, e, "%nsys compare -f csv train train")
	if out := r.Out.String(); !strings.HasPrefix(out, "Verdict,") || strings.Contains(out, "faster") {
		t.Errorf("-f csv of a profile against itself: %.200q", out)
	}
	path := filepath.Join(t.TempDir(), "cmp.csv")
	cell(t, e, "%nsys compare -o "+path+" train after")
	if b, err := os.ReadFile(path); err != nil || !strings.HasPrefix(string(b), "Verdict,") {
		t.Errorf("-o: %v %.80q", err, b)
	}
	for code, want := range map[string]string{
		"%nsys compare train":                 "UsageError",
		"%nsys compare --threshold x a b":     "UsageError",
		"%nsys compare train /no/such.sqlite": "OpenError",
	} {
		if _, err := tryCell(t, e, code); errName(err) != want {
			t.Errorf("%q: %v, want %s", code, err, want)
		}
	}
}

func TestMagicNsysTimeline(t *testing.T) {
	e := openEngine(t, "train")
	for _, code := range []string{"%nsys timeline", `%nsys timeline "iteration 12" train`, "%nsys timeline 0.5s/0.51s", "%nsys timeline --filter-nvtx forward/3"} {
		r := cell(t, e, code)
		if len(r.Displays) != 1 {
			t.Fatalf("%s: %d displays", code, len(r.Displays))
		}
		d := r.Displays[0].Data
		h, _ := d["text/html"].(string)
		if !strings.Contains(h, "nsysxTimeline(") || d["image/png"] == nil || !strings.Contains(d["text/plain"].(string), "kernels") {
			t.Errorf("%s: bundle %v", code, keys(d))
		}
	}
	r := cell(t, e, `%nsys timeline "no such range"`)
	if !strings.Contains(r.Out.String(), "SKIPPED") {
		t.Errorf("missing range: %q", r.Out.String())
	}
	if _, err := tryCell(t, e, "%nsys timeline --max-events 0"); errName(err) != "UsageError" {
		t.Errorf("--max-events 0: %v", err)
	}
}

// The Go API of nsysx/compare works in cells, and a *Comparison shows as
// its summary and table.
func TestCellCompareAPI(t *testing.T) {
	e := openEngine(t, "train as before", "fixed as after")
	r := cell(t, e, "import \"github.com/nsysx/nsysx/nsysx/compare\"\nc, _ := compare.Profiles(ctx, before, after, nil)\nc")
	res := r.result(t)
	if txt, _ := res["text/plain"].(string); !strings.Contains(txt, "[all kernels]          faster") || res[ResultMIME] == nil {
		t.Errorf("display %.300v", res["text/plain"])
	}
}
