package nsysxengine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// TestProfileAcrossCells is the example: open in one cell, run a
// report in a later one; the result is an HTML table with text and JSON.
func TestProfileAcrossCells(t *testing.T) {
	e := newEngine(t)
	path := testutil.Profile(t, "train")
	cell(t, e, fmt.Sprintf("r, err := nsysx.Open(%q)", path))
	b := cell(t, e, `r.Stats(ctx, "cuda_gpu_kern_sum")`).result(t)
	html, _ := b["text/html"].(string)
	text, _ := b["text/plain"].(string)
	if !strings.Contains(html, "<table") || !strings.Contains(text, "** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):") {
		t.Fatalf("bundle: %.300s / %.300s", html, text)
	}
	js := b[ResultMIME].(map[string]any)
	want := goldenRows(t, "train", "cuda_gpu_kern_sum.csv")
	rows := js["rows"].([]any)
	if js["total_rows"] != len(want) || len(rows) != len(want) {
		t.Fatalf("rows %d total %v, golden %d", len(rows), js["total_rows"], len(want))
	}
	// Total Time and Name of every row, against what nsys printed
	for i, w := range want {
		row := rows[i].([]any)
		if fmt.Sprint(row[1]) != w[1] || row[8] != w[8] {
			t.Errorf("row %d: %v %v, golden %s %s", i, row[1], row[8], w[1], w[8])
		}
	}
	// a (value, error) call with a nil error shows the value
	if got := cell(t, e, "r.Stats(ctx, \"cuda_gpu_trace\")").result(t)["text/html"].(string); !strings.Contains(got, "showing 50 of 6,980 rows") {
		t.Errorf("trace note missing: %.200s", got)
	}
	// a failing call shows its error
	if got := cell(t, e, `r.Stats(ctx, "no_such_report")`).result(t)["text/plain"]; !strings.Contains(got.(string), "error: unknown report") {
		t.Errorf("error result %q", got)
	}
	// the profile itself
	if got := cell(t, e, "r").result(t)["text/plain"].(string); !strings.Contains(got, "holds: CUDA kernels") {
		t.Errorf("profile display %q", got)
	}
}

func goldenRows(t *testing.T, profile, name string) [][]string {
	t.Helper()
	recs := testutil.GoldenCSV(t, profile, name)
	if len(recs) == 0 {
		t.Fatalf("golden %s/%s is empty", profile, name)
	}
	return recs[1:]
}

// TestNB covers the nb package: gzipped files, tables, row limits.
func TestNB(t *testing.T) {
	e := newEngine(t)
	cell(t, e, fmt.Sprintf("p, err := nb.Open(%q)\nif err != nil { panic(err) }", gz("sync")))
	if got := cell(t, e, "p.Base()").result(t)["text/plain"]; got != "sync" {
		t.Errorf("Base of a .gz profile: %v", got)
	}
	cell(t, e, "nb.SetMaxRows(3)")
	b := cell(t, e, `res, _ := p.Stats(ctx, "cuda_gpu_trace")`+"\nres").result(t)
	if !strings.Contains(b["text/html"].(string), "showing 3 of") || strings.Count(b["text/html"].(string), "<tr>") != 4 {
		t.Errorf("3 rows: %.500s", b["text/html"])
	}
	b = cell(t, e, "nb.Table(res, 5)").result(t)
	if strings.Count(b["text/html"].(string), "<tr>") != 6 {
		t.Errorf("nb.Table: %.500s", b["text/html"])
	}
	if got := cell(t, e, `nb.VarName("runs/rank-0.sqlite.gz")`).result(t)["text/plain"]; got != "rank_0" {
		t.Errorf("VarName %v", got)
	}
	// the same unchanged file gives the same cached profile
	if got := cell(t, e, fmt.Sprintf("q, _ := nb.Open(%q)\nq == p", gz("sync"))).result(t)["text/plain"]; got != "true" {
		t.Errorf("cache: %v", got)
	}
	if got := cell(t, e, `s, _ := nb.Open("sample")`+"\ns.Path").result(t)["text/plain"]; got != "sample:sync.sqlite" {
		t.Errorf("sample: %v", got)
	}
}

// TestGoSubset checks the Go that cells support with the nsysx types:
// loops over rows, closures, maps, sort, strings, methods on results.
func TestGoSubset(t *testing.T) {
	e := newEngine(t)
	cell(t, e, fmt.Sprintf("p, _ := nb.Open(%q)", gz("train")))
	code := `import (
	"sort"
	"strings"
)
res, _ := p.Stats(ctx, "cuda_gpu_kern_sum")
total := res.Col("Total Time")
byPrefix := map[string]int64{}
for i := 0; i < res.Len(); i++ {
	name := res.Col("Name").Value(i).S
	key := "other"
	if strings.Contains(name, "gemm") {
		key = "gemm"
	}
	byPrefix[key] += total.Value(i).I
}
keys := []string{}
for k := range byPrefix {
	keys = append(keys, k)
}
sort.Strings(keys)
strings.Join(keys, ",")`
	if got := cell(t, e, code).result(t)["text/plain"]; got != "gemm,other" {
		t.Errorf("got %v", got)
	}
	var sum int64
	for _, r := range goldenRows(t, "train", "cuda_gpu_kern_sum.csv") {
		var v int64
		fmt.Sscan(r[1], &v)
		sum += v
	}
	if got := cell(t, e, `byPrefix["gemm"] + byPrefix["other"]`).result(t)["text/plain"]; got != fmt.Sprint(sum) {
		t.Errorf("sum %v, golden %d", got, sum)
	}
	// types and functions declared in cells, used with the library's
	code = `type kern struct {
	name string
	ns   int64
}
func top(r *nsysx.Result, n int) []kern {
	var out []kern
	for i := 0; i < r.Len() && i < n; i++ {
		out = append(out, kern{r.Col("Name").Text(i), r.Col("Total Time").Value(i).I})
	}
	return out
}
len(top(res, 3))`
	if got := cell(t, e, code).result(t)["text/plain"]; got != "3" {
		t.Errorf("declared func: %v", got)
	}
}
