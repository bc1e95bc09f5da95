package format

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx"
)

// The goldens are what nsys 2025.3.1 printed for the real profiles; see
// testdata/README.md at the repository root.
var profiles = []string{"bt", "cnn", "fixed", "rank0", "rank1", "sync", "train"}

func goldenPath(profile, name string) string {
	return filepath.Join("..", "..", "testdata", "golden", profile, name)
}

// readFile reads path, or path+".gz" gunzipped.
func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		var gz []byte
		if gz, err = os.ReadFile(path + ".gz"); err == nil {
			var zr *gzip.Reader
			if zr, err = gzip.NewReader(bytes.NewReader(gz)); err == nil {
				data, err = io.ReadAll(zr)
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// cell turns a CSV field back into the SQLite value nsys printed: integers,
// reals (checked to print back the same) and text; empty is NULL.
func cell(t *testing.T, s string) nsysx.Value {
	t.Helper()
	if s == "" {
		return nsysx.Null
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return nsysx.IntV(n)
	}
	if x, err := strconv.ParseFloat(s, 64); err == nil && IsNumber(s) {
		v := nsysx.FloatV(x)
		if v.String() != s {
			t.Fatalf("real %q prints back as %q", s, v.String())
		}
		return v
	}
	return nsysx.TextV(s)
}

// kernSum rebuilds a profile's cuda_gpu_kern_sum result from its raw CSV
// golden. Names are quoted only when they hold a comma and nothing is
// escaped, so the name is everything after the eight numeric fields.
func kernSum(t *testing.T, profile string) *nsysx.Result {
	r := nsysx.NewResult("cuda_gpu_kern_sum", "CUDA GPU Kernel Summary",
		"Time:ratio_%", "Total Time:dur_ns", "Instances", "Avg:dur_ns", "Med:dur_ns",
		"Min:dur_ns", "Max:dur_ns", "StdDev:dur_ns", "Name")
	lines := strings.Split(strings.TrimSuffix(readFile(t, goldenPath(profile, "cuda_gpu_kern_sum.csv")), "\n"), "\n")
	for _, line := range lines[1:] {
		f := strings.SplitN(line, ",", 9)
		vals := make([]nsysx.Value, 9)
		for i := range 8 {
			vals[i] = cell(t, f[i])
		}
		name := f[8]
		if strings.Contains(name, ",") && len(name) > 1 && name[0] == '"' && name[len(name)-1] == '"' {
			name = name[1 : len(name)-1]
		}
		vals[8] = nsysx.TextV(name)
		r.Add(vals...)
	}
	return r
}

// memSizeSum rebuilds cuda_gpu_mem_size_sum from its noconv CSV, captured with
// nsys 2025.3.1 (testdata/nsys/memsize_noconv_<profile>.csv).
func memSizeSum(t *testing.T, profile string) *nsysx.Result {
	r := nsysx.NewResult("cuda_gpu_mem_size_sum", "CUDA GPU MemOps Summary (by Size)",
		"Total:mem_B", "Count", "Avg:mem_B", "Med:mem_B", "Min:mem_B", "Max:mem_B",
		"StdDev:mem_B", "Operation")
	text := readFile(t, filepath.Join("testdata", "nsys", "memsize_noconv_"+profile+".csv"))
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for _, line := range lines[1:] {
		f := strings.Split(line, ",")
		vals := make([]nsysx.Value, len(f))
		for i, s := range f {
			vals[i] = cell(t, s)
		}
		r.Add(vals...)
	}
	return r
}

// render writes r as nsys's console does with -q -o -: the formatter output
// plus one newline when there are rows.
func render(t *testing.T, r *nsysx.Result, s Spec) string {
	t.Helper()
	var b strings.Builder
	if err := Write(&b, r, s); err != nil {
		t.Fatal(err)
	}
	if r.Len() > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

func mustSpec(t *testing.T, text string) Spec {
	t.Helper()
	s, err := ParseSpec(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGoldenFormats renders every format_cuda_gpu_kern_sum.<fmt>.txt golden.
func TestGoldenFormats(t *testing.T) {
	n := 0
	for _, p := range profiles {
		r := kernSum(t, p)
		files, _ := filepath.Glob(goldenPath(p, "format_cuda_gpu_kern_sum.*.txt"))
		if len(files) != 10 {
			t.Errorf("%s: %d format goldens, want 10", p, len(files))
		}
		for _, f := range files {
			name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "format_cuda_gpu_kern_sum."), ".txt")
			t.Run(p+"/"+name, func(t *testing.T) {
				s := mustSpec(t, strings.ReplaceAll(name, "_", ":"))
				s.Locale = "C.UTF-8"
				compare(t, render(t, r, s), readFile(t, f))
			})
			n++
		}
	}
	t.Logf("%d format goldens", n)
}

// TestGoldenEnUS checks digit grouping against the en_US goldens, which hold
// cuda_gpu_kern_sum and then cuda_gpu_mem_size_sum (sizes converted to MB).
func TestGoldenEnUS(t *testing.T) {
	for _, p := range profiles {
		kern := kernSum(t, p)
		for _, name := range []string{"column", "table", "column_nofmt"} {
			t.Run(p+"/"+name, func(t *testing.T) {
				s := mustSpec(t, strings.ReplaceAll(name, "_", ":"))
				s.Locale = "en_US.UTF-8"
				want := readFile(t, goldenPath(p, "format_en_US."+name+".txt"))
				got := render(t, kern, s) + render(t, memSizeSum(t, p), s)
				compare(t, got, want)
			})
		}
	}
}

// compare reports the first differing line.
func compare(t *testing.T, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			t.Fatalf("line %d differs (got %d lines, want %d)\n got: %q\nwant: %q", i+1, len(g), len(w), gl, wl)
		}
	}
	t.Fatalf("outputs differ")
}
