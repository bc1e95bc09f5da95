package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// nsysx export -t perfetto writes exactly one file, BASE.json(.gz), that
// parses back with one kernel event per row of the raw kernel table.
func TestExportPerfetto(t *testing.T) {
	in := testutil.Profile(t, "sync")
	p, err := nsysx.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	k, err := p.Load(context.Background(), "CUPTI_ACTIVITY_KIND_KERNEL", "start")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, stderr, code := runCLI(t, "export", "-t", "perfetto", "--gzip", "-o", filepath.Join(dir, "tl"), in)
	if code != 0 || !strings.Contains(stderr, "tl.json.gz") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != "tl.json.gz" {
		t.Fatalf("wrote %v, want tl.json.gz only", ents)
	}
	f, _ := os.Open(filepath.Join(dir, "tl.json.gz"))
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		TraceEvents []struct{ Ph, Cat string } `json:"traceEvents"`
	}
	if err := json.NewDecoder(zr).Decode(&tr); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range tr.TraceEvents {
		if e.Ph == "X" && e.Cat == "kernel" {
			n++
		}
	}
	if n != k.N || n == 0 {
		t.Errorf("%d kernel events, %d kernels in the profile", n, k.N)
	}
}

func TestExportPerfettoErrors(t *testing.T) {
	in := testutil.Profile(t, "sync")
	dir := t.TempDir()
	out := filepath.Join(dir, "x")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-t", "perfeto", "-o", out, in}, 2, "did you mean perfetto"},
		{[]string{"-t", "perfetto", in}, 2, "-o BASE is required"},
		{[]string{"-t", "perfetto", "--tables", "X", "-o", out, in}, 2, "--tables applies"},
		{[]string{"-t", "parquet", "--gzip", "-o", out, in}, 2, "--gzip applies"},
		{[]string{"-t", "perfetto", "--filter-time", "abc", "-o", out, in}, 2, "--filter-time"},
		{[]string{"-t", "perfetto", "-o", filepath.Join(dir, "no", "x"), in}, 1, "no such file or directory"},
		{[]string{"-t", "perfetto", "--filter-nvtx", "nope", "-o", out, in}, 0, "SKIPPED: NVTX range 'nope'"},
	} {
		_, stderr, code := runCLI(t, append([]string{"export"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("failed exports left %v", ents)
	}
}
