package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/plots"
)

func TestPlotWritesEachFormat(t *testing.T) {
	dir := t.TempDir()
	train, rank0, rank1 := testutil.Profile(t, "train"), testutil.Profile(t, "rank0"), testutil.Profile(t, "rank1")
	for _, tc := range []struct {
		args []string
		out  string
	}{
		{[]string{"kernels", "--top", "5", train}, "k.png"},
		{[]string{"nvtx-timeline", "--range", "iteration 12", train}, "t.svg"},
		{[]string{"gpu-util", rank0, rank1, "--bins", "40"}, "u.json"},
		{[]string{"nccl", rank0, rank1}, "n.vl.json"},
		{[]string{"compare", train, testutil.Profile(t, "fixed")}, "c.PNG"},
	} {
		out := filepath.Join(dir, tc.out)
		stdout, stderr, code := runCLI(t, append([]string{"plot", "-o", out}, tc.args...)...)
		if code != 0 || stdout != "" || stderr != "" {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", tc.args, code, stdout, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(strings.ToLower(out), ".png"):
			if _, err := png.Decode(bytes.NewReader(b)); err != nil {
				t.Errorf("%s: %v", out, err)
			}
		case strings.HasSuffix(out, ".svg"):
			if !bytes.Contains(b[:200], []byte("<svg")) {
				t.Errorf("%s is not SVG", out)
			}
		default:
			var spec map[string]any
			if err := json.Unmarshal(b, &spec); err != nil || !strings.Contains(spec["$schema"].(string), "vega-lite/v5") {
				t.Errorf("%s: %v", out, err)
			}
		}
	}
}

func TestPlotListAndHelp(t *testing.T) {
	stdout, _, code := runCLI(t, "plot", "--list")
	if code != 0 || strings.Count(stdout, "\n") != len(plots.Names()) || !strings.Contains(stdout, "nvtx-timeline") {
		t.Errorf("--list: exit %d\n%s", code, stdout)
	}
	stdout, _, code = runCLI(t, "plot", "--help")
	if code != 0 || !strings.Contains(stdout, "Usage: nsysx plot CHART") || !strings.Contains(stdout, "--range NAME") {
		t.Errorf("--help: exit %d\n%s", code, stdout)
	}
	stdout, _, code = runCLI(t, "plot", "kernel-hist", "--help")
	if code != 0 || !strings.Contains(stdout, "kernel-hist [--kernel NAME] [--bins N]") {
		t.Errorf("kernel-hist --help: exit %d\n%s", code, stdout)
	}
	stdout, _, _ = runCLI(t, "--help")
	if !strings.Contains(stdout, "plot      draw charts") {
		t.Errorf("nsysx --help does not list plot:\n%s", stdout)
	}
}

// Usage errors exit 2, unreadable inputs 1, each with one line; a chart
// without data is written with a warning.
func TestPlotErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.png")
	train := testutil.Profile(t, "train")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"kernal", "-o", out, train}, 2, `unknown chart "kernal" (did you mean kernels?)`},
		{[]string{"kernels", "--tpo", "3", "-o", out, train}, 2, "unknown option --tpo (did you mean --top?)"},
		{[]string{"kernels", train}, 2, "give the output file"},
		{[]string{"kernels", "-o", filepath.Join(dir, "x.gif"), train}, 2, "must end in .png, .svg or .json"},
		{[]string{"kernels", "-o", out}, 2, "kernels needs a profile"},
		{[]string{"compare", "-o", out, train}, 2, "compare takes 2 profile(s), not 1"},
		{[]string{"kernels", "--bins", "3", "-o", out, train}, 2, "kernels does not take --bins"},
		{[]string{"kernels", "-x", "-o", out, train}, 2, "unknown flag -x"},
		{[]string{"nvtx-timeline", "--start", "2s", "--end", "1s", "-o", out, train}, 2, "the window is empty"},
		{[]string{"-o", out}, 2, "which chart?"},
		{[]string{"kernels", "-o", out, filepath.Join(dir, "missing.sqlite")}, 1, "no such file"},
		{[]string{"kernels", "-o", out, filepath.Join(testutil.Root(), "testdata", "bad", "notnsys.sqlite")}, 1, "not an Nsight Systems export"},
		{[]string{"kernels", "-o", filepath.Join(dir, "nodir", "x.png"), train}, 1, "no such file or directory"},
	} {
		_, stderr, code := runCLI(t, append([]string{"plot"}, tc.args...)...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != tc.code || len(lines) != 1 || !strings.HasPrefix(lines[0], "nsysx plot: ") || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", tc.args, code, tc.code, stderr, tc.want)
		}
	}
	_, stderr, code := runCLI(t, "plot", "nccl", "-o", out, train)
	if code != 0 || !strings.HasPrefix(stderr, "nsysx plot: warning: no NCCL kernels") {
		t.Errorf("nccl on train: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("chart with a note not written: %v", err)
	}
}

func TestPlotSample(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.svg")
	if _, stderr, code := runCLI(t, "plot", "kernels", "--sample", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
