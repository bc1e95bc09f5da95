package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
)

// The parts of an executed notebook the checks read, and the check of the
// test notebook's outputs.

// notebook is the part of an .ipynb file the checks read.
type notebook struct {
	Cells []struct {
		notebookCell
		Source         any  `json:"source"`
		ExecutionCount *int `json:"execution_count"`
	}
	Metadata struct {
		Kernelspec struct{ Name string } `json:"kernelspec"`
	}
}

// notebookCell is the part of a cell the checks read.
type notebookCell struct {
	CellType string         `json:"cell_type"`
	Metadata map[string]any `json:"metadata"`
	Outputs  []struct {
		OutputType string         `json:"output_type"`
		Name       string         `json:"name"`
		Text       any            `json:"text"`
		Data       map[string]any `json:"data"`
		Ename      string         `json:"ename"`
		Evalue     string         `json:"evalue"`
	} `json:"outputs"`
}

func joinText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, s := range x {
			b.WriteString(fmt.Sprint(s))
		}
		return b.String()
	}
	return ""
}

// checkTestNotebook compares the executed test notebook's outputs with
// what nsys printed for train (testdata/golden/train).
func checkTestNotebook(t *testing.T, path string) {
	t.Helper()
	var nb struct{ Cells []notebookCell }
	testutil.ReadJSON(t, path, &nb)
	kern := testutil.GoldenCSV(t, "train", "cuda_gpu_kern_sum.csv")[1:]
	var instances, total int64
	for _, r := range kern {
		var n, ns int64
		fmt.Sscan(r[2], &n)
		fmt.Sscan(r[1], &ns)
		instances, total = instances+n, total+ns
	}
	checked := map[string]bool{}
	for i, c := range nb.Cells {
		for _, o := range c.Outputs {
			if o.OutputType == "error" {
				t.Errorf("cell %d: %s: %s", i, o.Ename, o.Evalue)
			}
		}
		check, _ := c.Metadata["nsysx_check"].(string)
		if check == "" {
			continue
		}
		if len(c.Outputs) == 0 {
			t.Errorf("%s: no output", check)
			continue
		}
		o := c.Outputs[len(c.Outputs)-1]
		checked[check] = true
		switch check {
		case "kern_sum":
			compareRows(t, check, o.Data, kern)
		case "api_sum":
			compareRows(t, check, o.Data, testutil.GoldenCSV(t, "train", "cuda_api_sum.csv")[1:])
		case "mem_csv":
			want, _ := testutil.Golden(t, "train", "cuda_gpu_mem_size_sum.csv")
			if got := joinText(o.Data["text/plain"]); got != strings.TrimRight(want, "\n") {
				t.Errorf("%s:\n%s", check, testutil.Diff(got, want))
			}
		case "model":
			if got, want := joinText(o.Text), fmt.Sprintf("kernels=%d total_ns=%d\n", instances, total); got != want {
				t.Errorf("%s: %q, want %q", check, got, want)
			}
		case "sql":
			rows, _ := o.Data["application/vnd.nsysx.result+json"].(map[string]any)["rows"].([]any)
			if len(rows) != 1 || fmt.Sprintf("%.0f", rows[0]) != fmt.Sprintf("[%d %d]", instances, total) {
				t.Errorf("%s: %v, want [[%d %d]]", check, rows, instances, total)
			}
		case "top":
			if got := joinText(o.Data["text/plain"]); got != kern[0][8] {
				t.Errorf("%s: %q, want %q", check, got, kern[0][8])
			}
		}
	}
	for _, c := range []string{"kern_sum", "api_sum", "mem_csv", "model", "sql", "top"} {
		if !checked[c] {
			t.Errorf("check %s: no cell", c)
		}
	}
}

// compareRows checks a table output's JSON rows against a golden CSV:
// every cell, as nsys printed it (same row order, same values).
func compareRows(t *testing.T, check string, data map[string]any, want [][]string) {
	t.Helper()
	js, ok := data["application/vnd.nsysx.result+json"].(map[string]any)
	if !ok {
		t.Errorf("%s: no application/vnd.nsysx.result+json in %v", check, data)
		return
	}
	rows, _ := js["rows"].([]any)
	if len(rows) != min(len(want), 50) || js["total_rows"] != float64(len(want)) {
		t.Errorf("%s: %d rows of %v, golden %d", check, len(rows), js["total_rows"], len(want))
		return
	}
	for i, r := range rows {
		for j, v := range r.([]any) {
			got := fmt.Sprint(v)
			if f, ok := v.(float64); ok {
				got = fmt.Sprintf("%.1f", f)
				if f == float64(int64(f)) && !strings.Contains(want[i][j], ".") {
					got = fmt.Sprint(int64(f))
				}
			}
			if got != want[i][j] {
				t.Errorf("%s: row %d col %d: %s, golden %s", check, i, j, got, want[i][j])
			}
		}
	}
}
