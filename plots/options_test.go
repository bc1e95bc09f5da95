package plots

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseOptions(t *testing.T) {
	o, rest, err := ParseOptions([]string{"--top", "10", "--range=iteration 12", "a.sqlite", "--start", "1.5s", "--end=2000000000",
		"--device", "1", "--bins", "50", "--kernel", "gemm", "--by", "nvtx", "--match", "^it", "--width", "8", "--", "--odd"})
	if err != nil {
		t.Fatal(err)
	}
	want := Options{Top: 10, Range: "iteration 12", Match: "^it", Start: 1500000000, End: 2000000000, Kernel: "gemm", Bins: 50,
		Device: 1, OneDevice: true, By: "nvtx", Width: 8}
	if *o != want || !slices.Equal(rest, []string{"a.sqlite", "--odd"}) {
		t.Errorf("got %+v %v", *o, rest)
	}
	o2, _, err := ParseOptions(o.Args())
	if err != nil || *o2 != *o {
		t.Errorf("Args round trip: %+v, %v", o2, err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"kernels", "--tpo", "3"}, "unknown option --tpo (did you mean --top?)"},
		{[]string{"kernels", "--top"}, "--top needs a value"},
		{[]string{"kernels", "--top", "0"}, "--top takes an integer from 1"},
		{[]string{"kernels", "--top", "x"}, "--top takes an integer"},
		{[]string{"kernels", "--bins", "3"}, "kernels does not take --bins"},
		{[]string{"kernal"}, `unknown chart "kernal" (did you mean kernels?)`},
		{[]string{}, "which chart?"},
		{[]string{"gpu-util", "--start", "soon"}, "--start takes a time"},
		{[]string{"memops", "--by", "colour"}, "--by takes time or size"},
		{[]string{"iterations", "--match", "("}, "--match:"},
		{[]string{"kernels", "--width", "1000"}, "--width takes a size"},
		{[]string{"nvtx-timeline", "--range", ""}, "--range needs"},
	} {
		_, _, _, err := Parse(tc.words)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrUsage) {
			t.Errorf("%v: error %v, want %q (a usage error)", tc.words, err, tc.want)
		}
	}
	d, o, rest, err := Parse([]string{"gpu-util", "--bins", "12", "a", "b"})
	if err != nil || d.Name != "gpu-util" || o.Bins != 12 || len(rest) != 2 {
		t.Errorf("Parse: %v %+v %v %v", d, o, rest, err)
	}
}

func TestRegistry(t *testing.T) {
	want := []string{"kernels", "api", "memops", "nvtx-timeline", "gpu-util", "nccl", "iterations", "kernel-hist", "compare", "idle", "stacks"}
	if !slices.Equal(Names(), want) {
		t.Errorf("Names() = %v", Names())
	}
	help := Help()
	for _, n := range want {
		d, err := Lookup(n)
		if err != nil || d.Help == "" || !strings.Contains(help, d.Usage()) {
			t.Errorf("%s: %v, help %q", n, err, d.Help)
		}
	}
	for _, name := range []string{"nvtx-timeline", "gpu-util", "nccl"} {
		if d, _ := Lookup(name); !d.Vega {
			t.Errorf("%s: no Vega-Lite", name)
		}
	}
	c, _ := Lookup("compare")
	for n, ok := range map[int]bool{0: false, 1: false, 2: true, 3: false} {
		if err := c.CheckFiles(n); (err == nil) != ok || err != nil && !errors.Is(err, ErrUsage) {
			t.Errorf("compare with %d files: %v", n, err)
		}
	}
	g, _ := Lookup("gpu-util")
	if g.CheckFiles(5) != nil || g.CheckFiles(0) == nil {
		t.Error("gpu-util takes any number of profiles, at least one")
	}
}
