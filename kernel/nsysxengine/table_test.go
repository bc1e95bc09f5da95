package nsysxengine

import (
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// Tables of several profiles name their profile in text, HTML and JSON.
func TestMultiProfileLabels(t *testing.T) {
	e := openEngine(t, "rank0 as before", "rank1 as after")
	r := cell(t, e, "%nsys stats -r cuda_api_sum before after")
	if len(r.Displays) != 3 { // progress + 2 tables
		t.Fatalf("%d displays", len(r.Displays))
	}
	for i, name := range []string{"before", "after"} {
		d := r.Displays[i+1].Data
		txt, htm := d["text/plain"].(string), d["text/html"].(string)
		js := d[ResultMIME].(map[string]any)
		if !strings.HasPrefix(txt, "Profile: "+name+"\n") || !strings.Contains(htm, "Profile: <b>"+name+"</b>") || js["profile"] != name {
			t.Errorf("table %d is not labelled %s: %.80q / %.200q / %v", i, name, txt, htm, js["profile"])
		}
	}
	r = cell(t, e, "%nsys stats -q -f csv -r cuda_api_sum before after")
	want, _ := testutil.Golden(t, "rank1", "cuda_api_sum.csv")
	if got := r.Displays[2].Data["text/plain"].(string); got != "Profile: after\n"+strings.TrimRight(want, "\n") {
		t.Errorf("quiet csv of the second profile:\n%.300s", got)
	}
	// one profile: no label (the goldens' text is unchanged)
	r = cell(t, e, "%nsys stats -r cuda_api_sum before")
	if txt := r.Displays[0].Data["text/plain"].(string); strings.HasPrefix(txt, "Profile:") {
		t.Errorf("a single profile is labelled: %.60q", txt)
	}
	// a Go slice of results from two profiles
	cell(t, e, `a, _ := before.Stats(ctx, "cuda_api_sum")`)
	cell(t, e, `b, _ := after.Stats(ctx, "cuda_api_sum")`)
	txt := cell(t, e, `[]*nsysx.Result{a, b}`).result(t)["text/plain"].(string)
	if !strings.Contains(txt, "Profile: rank0\n") || !strings.Contains(txt, "Profile: rank1\n") {
		t.Errorf("slice of results: %.300q", txt)
	}
}

// SKIPPED reports say why in plain text too, as the CLI does.
func TestSkippedReasons(t *testing.T) {
	e := openEngine(t, "train")
	r := cell(t, e, `%nsys stats --filter-nvtx "iteraton 12" -r nvtx_sum,cuda_api_sum`)
	last := r.Displays[len(r.Displays)-1].Data["text/plain"].(string)
	want := "NVTX range 'iteraton 12' could not be found in"
	if !strings.HasPrefix(last, "SKIPPED (2): nvtx_sum, cuda_api_sum\n  nvtx_sum: "+want) || strings.Count(last, want) != 2 {
		t.Errorf("skipped block %q", last)
	}
}

// Table methods in cells: results, errors with the closest name, and an
// unknown column shown as its error (Col never gives nil).
func TestTableCells(t *testing.T) {
	e := openEngine(t, "train")
	cell(t, e, `k, _ := train.Stats(ctx, "cuda_gpu_kern_sum")`)
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
		`k.Col("Totl Time")`:    "error: nsysx: cuda_gpu_kern_sum has no column \"Totl Time\" (did you mean Total Time?)",
		`k.Column("Totl Time")`: "did you mean Total Time",
	} {
		got := cell(t, e, code).result(t)["text/plain"].(string)
		if !strings.Contains(got, want) {
			t.Errorf("%s shows %q, want %q", code, got, want)
		}
	}
}

// %%sql reads results by their variable names, beside the profile's
// tables, and the profile stays read-only.
func TestSQLOverResults(t *testing.T) {
	e := openEngine(t, "train")
	cell(t, e, `k, _ := train.Stats(ctx, "cuda_gpu_kern_sum")`)
	rows := goldenRows(t, "train", "cuda_gpu_kern_sum.csv")
	want := 0
	for _, row := range rows {
		if n, _ := strconv.Atoi(row[2]); n > 100 {
			want++
		}
	}
	js := cell(t, e, "%%sql\nSELECT count(*), sum(\"Total Time\") FROM k WHERE \"Instances\" > 100").Displays[0].Data[ResultMIME].(map[string]any)
	got := js["rows"].([]any)[0].([]any)
	var total int64
	for _, row := range rows {
		if n, _ := strconv.Atoi(row[2]); n > 100 {
			v, _ := strconv.ParseInt(row[1], 10, 64)
			total += v
		}
	}
	if got[0] != int64(want) || got[1] != total {
		t.Errorf("count/sum over k: %v, want %d %d", got, want, total)
	}
	// a result beside the profile's own tables: kernels by name joined to StringIds
	js = cell(t, e, "%%sql\nSELECT count(*) FROM k JOIN StringIds s ON s.value = k.\"Name\"").Displays[0].Data[ResultMIME].(map[string]any)
	if n := js["rows"].([]any)[0].([]any)[0]; n != int64(len(rows)) {
		t.Errorf("join with StringIds: %v rows, want %d", n, len(rows))
	}
	// a table method's output, and rows bound by as VAR, without a profile
	cell(t, e, `top := k.Sort("-Avg").Head(3)`)
	js = cell(t, e, "%%sql as again\nSELECT \"Name\" FROM top").Displays[0].Data[ResultMIME].(map[string]any)
	if len(js["rows"].([]any)) != 3 {
		t.Errorf("top: %v", js["rows"])
	}
	if got := cell(t, e, "again.Len()").result(t)["text/plain"]; got != "3" {
		t.Errorf("again.Len() = %v", got)
	}
	// no profile at all: the results alone
	e2 := newEngine(t)
	cell(t, e2, "r := nsysx.NewResult(\"x\", \"X\", \"a:dur_ns\", \"b\")\nr.Add(nsysx.IntV(3), nsysx.TextV(\"p\"))\nr.Add(nsysx.IntV(4), nsysx.TextV(\"q\"))")
	js = cell(t, e2, "%%sql\nSELECT sum(a), group_concat(b, '') FROM r").Displays[0].Data[ResultMIME].(map[string]any)
	if got := js["rows"].([]any)[0].([]any); got[0] != int64(7) || got[1] != "pq" {
		t.Errorf("results alone: %v", got)
	}
	for _, q := range []string{"DELETE FROM k", "SELECT 1; DROP TABLE k", "WITH x AS (SELECT 1) INSERT INTO k VALUES (1)"} {
		if _, err := tryCell(t, e, "%%sql\n"+q); errName(err) != "SQLError" {
			t.Errorf("%q: %v", q, err)
		}
	}
}

// A recipe table in a cell variable is a SQL table too.
func TestSQLOverRecipeFrame(t *testing.T) {
	e := newEngine(t)
	f := &recipe.Frame{Cols: []*recipe.Column{
		{Name: "Name", Type: recipe.String, Strs: []string{"a", "b", "c"}},
		{Name: "ns", Type: recipe.Int64, IntVals: []int64{5, 7, 11}, Valid: []bool{true, false, true}},
		{Name: "x", Type: recipe.Float64, FloatVals: []float64{0.5, math.NaN(), 2}},
	}}
	if err := e.Engine.Use(map[string]map[string]reflect.Value{"tabtest/tabtest": {"F": reflect.ValueOf(f)}}); err != nil {
		t.Fatal(err)
	}
	cell(t, e, "import \"tabtest\"\nfr := tabtest.F")
	js := cell(t, e, "%%sql\nSELECT sum(ns), count(ns), sum(x), count(x), group_concat(Name, '') FROM fr").Displays[0].Data[ResultMIME].(map[string]any)
	got := js["rows"].([]any)[0].([]any)
	if got[0] != int64(16) || got[1] != int64(2) || got[2] != 2.5 || got[3] != int64(2) || got[4] != "abc" {
		t.Errorf("recipe frame in SQL: %v", got)
	}
}
