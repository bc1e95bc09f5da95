package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
)

// TestBadInput: every kind of unreadable input gives one clear error line, a
// non-zero exit, no panic, and leaves the input untouched.
func TestBadInput(t *testing.T) {
	for _, c := range badInputs(t) {
		t.Run(c.name, func(t *testing.T) {
			before := hashPath(t, c.path)
			stdout, stderr, code := runCLI(t, "stats", "-q", "-r", "cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_trace,nvtx_sum", c.path)
			if code == 0 {
				t.Fatalf("exit 0 for %s; stdout %q", c.name, stdout)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "nsysx stats: ") {
				t.Errorf("want one error line, got %q", stderr)
			}
			if c.want != "" && !strings.Contains(stderr, c.want) {
				t.Errorf("error %q does not say %q", stderr, c.want)
			}
			if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine") {
				t.Errorf("panic: %s", stderr)
			}
			if after := hashPath(t, c.path); !bytes.Equal(before, after) {
				t.Errorf("input modified")
			}
		})
	}
}

// badInput is an unreadable input and what its error says ("" when any
// one-line error will do).
type badInput struct {
	name, path, want string
}

// badInputs makes every kind of bad input (cut-off copies of sync, random
// bytes, a Parquet directory without tables, ...) in a new directory.
func badInputs(t *testing.T) []badInput {
	dir := t.TempDir()
	_, data := syncProfile(t)
	write := func(name string, b []byte) string { return writeInput(t, dir, name, b) }
	rnd := make([]byte, 100000)
	rand.New(rand.NewSource(1)).Read(rnd)
	ps := int(data[16])<<8 | int(data[17])
	// StringIds' root (page 2) swapped with one of its leaves (page 8):
	// SQLite reads one of its 317 strings, and so did nsysx, blanking every
	// name with exit 0
	swapped := bytes.Clone(data)
	copy(swapped[ps:2*ps], data[7*ps:8*ps])
	copy(swapped[7*ps:8*ps], data[ps:2*ps])
	utf16 := bytes.Clone(data)
	utf16[59] = 2 // the header's text encoding: UTF-16le
	emptyDir := filepath.Join(dir, "empty_pqtdir")
	os.Mkdir(emptyDir, 0o755)
	os.WriteFile(filepath.Join(emptyDir, "README"), []byte("x"), 0o644)
	return []badInput{
		{"truncated", write("truncated.sqlite", data[:len(data)/3]), "corrupt or truncated"},
		{"root swapped", write("swapped.sqlite", swapped), "StringIds: page 3 holds rows of it that its B-tree does not reach"},
		{"UTF-16", write("utf16.sqlite", utf16), "UTF-16 exports are not supported"},
		{"header only", write("header.sqlite", data[:4096]), ""},
		{"not nsys", filepath.Join(testutil.Root(), "testdata", "bad", "notnsys.sqlite"), "not an Nsight Systems export"},
		{"empty", write("empty.sqlite", nil), "not an Nsight Systems export"},
		{"random", write("random.bin", rnd), "not an Nsight Systems export"},
		{"no parquet", emptyDir, "no .parquet or .arrow files"},
		{"missing", filepath.Join(dir, "nope.sqlite"), "no such file"},
	}
}

// syncProfile is the test profile sync and its bytes, to make bad copies of.
func syncProfile(t *testing.T) (string, []byte) {
	t.Helper()
	good := testutil.Profile(t, "sync")
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	return good, data
}

// writeInput writes the read-only input file dir/name.
func writeInput(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o444); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBadTableOnce: when a table that several reports read is corrupt,
// each run prints the error once, not once per report (the default
// reports printed the same line 4 times, analyze's rules 4 times).
func TestBadTableOnce(t *testing.T) {
	good, data := syncProfile(t)
	root := sqlitecopy.RootPage(t, good, "CUPTI_ACTIVITY_KIND_MEMCPY")
	ps := int(data[16])<<8 | int(data[17])
	bad := bytes.Clone(data)
	copy(bad[(root-1)*ps:root*ps], bytes.Repeat([]byte{0xff}, ps))
	path := writeInput(t, t.TempDir(), "badmemcpy.sqlite", bad)
	for _, args := range [][]string{{"stats", path}, {"stats", "-q", path}, {"analyze", path}} {
		_, stderr, code := runCLI(t, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 1 || len(lines) != 1 || !strings.Contains(stderr, fmt.Sprintf("page %d", root)) {
			t.Errorf("%v: exit %d, want one line naming page %d:\n%s", args, code, root, stderr)
		}
	}
}

// TestTwoDamagesOneLine: a file damaged in two tables, which different
// rules read, is said to be damaged once (the first damage found), not once
// a table.
func TestTwoDamagesOneLine(t *testing.T) {
	good, data := syncProfile(t)
	ps := int(data[16])<<8 | int(data[17])
	bad := bytes.Clone(data)
	for _, table := range []string{"CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_RUNTIME"} {
		root := sqlitecopy.RootPage(t, good, table)
		copy(bad[(root-1)*ps:root*ps], bytes.Repeat([]byte{0xff}, ps))
	}
	path := writeInput(t, t.TempDir(), "twodamages.sqlite", bad)
	for _, args := range [][]string{{"analyze", path}, {"stats", "-r", "cuda_gpu_mem_time_sum,cuda_api_sum", path}} {
		_, stderr, code := runCLI(t, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 1 || len(lines) != 1 || !strings.Contains(stderr, "corrupt") {
			t.Errorf("%v: exit %d, want 1 and one line saying the file is damaged:\n%s", args, code, stderr)
		}
	}
}

// TestSwappedRootAnalyze: the rule that said "no problems detected" on sync
// with StringIds' root swapped with a leaf (its calls' names all blank)
// says the file is damaged.
func TestSwappedRootAnalyze(t *testing.T) {
	var path string
	for _, c := range badInputs(t) {
		if c.name == "root swapped" {
			path = c.path
		}
	}
	_, stderr, code := runCLI(t, "analyze", "-r", "cuda_api_sync", path)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != 1 || len(lines) != 1 || !strings.Contains(stderr, "StringIds: page 3 holds rows of it that its B-tree does not reach") {
		t.Errorf("exit %d, want 1 and one line saying the file is damaged:\n%s", code, stderr)
	}
}

func hashPath(t *testing.T, p string) []byte {
	st, err := os.Stat(p)
	if err != nil || st.IsDir() {
		return nil
	}
	b, _ := os.ReadFile(p)
	h := sha256.Sum256(b)
	return h[:]
}

// TestUsageErrors: unknown report, rule, format, flag, option: exit 2 and
// one line naming the problem with the closest valid name.
func TestUsageErrors(t *testing.T) {
	in := testutil.Profile(t, "sync")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"stats", "-r", "cuda_gpu_kern_sm", in}, `unknown report "cuda_gpu_kern_sm" (did you mean cuda_gpu_kern_sum?)`},
		{[]string{"stats", "-f", "cvs", "-r", "cuda_api_sum", in}, "unknown format 'cvs' (did you mean csv?)"},
		{[]string{"stats", "--reprot", "cuda_api_sum", in}, "unknown flag --reprot (did you mean --report?)"},
		{[]string{"stats", "-r", "cuda_gpu_kern_sum:bse", in}, `"bse"`},
		{[]string{"analyze", "-r", "gpu_gap", in}, `unknown rule "gpu_gap" (did you mean gpu_gaps?)`},
		{[]string{"stats", "--timeunit", "days", in}, "--timeunit"},
		{[]string{"stats", "--filter-time", "5s/1s", "-r", "cuda_api_sum", in}, "--filter-time"},
		{[]string{"stats", "--filter-time", "1x/", "-r", "cuda_api_sum", in}, "--filter-time"},
		{[]string{"stats", "--filter-nvtx", "", "-r", "cuda_api_sum", in}, "--filter-nvtx"},
		{[]string{"analyze", "-r", "gpu_gaps:gapp=1", in}, `"gapp"`},
		{[]string{"analyze", "-r", "gpu_time_util:chunks=5000", in}, "chunks"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"stats"}, "no input file"},
		{[]string{"stats", "-r"}, "flag -r needs a value"},
	}
	for _, c := range cases {
		_, stderr, code := runCLI(t, c.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", c.args, code, stderr)
		}
		if !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: stderr %q, want one line containing %q", c.args, stderr, c.want)
		}
	}
}
