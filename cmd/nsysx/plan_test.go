package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/kernel"
	"github.com/nsysx/nsysx/kernel/nsysxengine"
)

// magicText is a kernel.Output that keeps what a cell prints and the text
// of its displays, leaving out progress lines (displays with an ID).
type magicText struct{ b bytes.Buffer }

func (m *magicText) Stdout() io.Writer { return &m.b }
func (m *magicText) Stderr() io.Writer { return &m.b }
func (m *magicText) Display(d kernel.Display) error {
	if d.ID == "" {
		s, _ := d.Data["text/plain"].(string)
		m.b.WriteString(s + "\n")
	}
	return nil
}
func (m *magicText) UpdateDisplay(kernel.Display) error          { return nil }
func (m *magicText) Result(map[string]any, map[string]any) error { return nil }
func (m *magicText) Clear(bool) error                            { return nil }
func (m *magicText) Input(string, bool) (string, error)          { return "", kernel.ErrNoStdin }

// sameText drops blank lines and trailing spaces: the command ends each
// report with a blank line, a notebook display does not.
func sameText(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimRight(l, " \t"); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// runMagic runs `%nsys WORDS` in a fresh kernel: its text, or its error's
// message.
func runMagic(t *testing.T, words string) (text, errMsg string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out magicText
	err := newTestKernel(t).RunCell(ctx, "%nsys "+words, &out)
	var ke *kernel.Error
	if errors.As(err, &ke) {
		return out.b.String(), ke.Value
	} else if err != nil {
		return out.b.String(), err.Error()
	}
	return out.b.String(), ""
}

// newTestKernel is a kernel with the nsysx engine, closed when the test ends.
func newTestKernel(t *testing.T) *kernel.Kernel {
	t.Helper()
	e, err := nsysxengine.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	k, err := kernel.New(e)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// filesIn returns name -> content of the files in dir.
func filesIn(t *testing.T, dir string) map[string]string {
	ents, _ := os.ReadDir(dir)
	m := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

func sortedKeys(m map[string]string) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}

// TestPlanCLIMatchesMagic: the same words give the same run in `nsysx
// stats|analyze` and `%nsys stats|analyze`: the same text, the same files
// (-o), the same error. Both build their plans in internal/frontend;
// `analyze -r ALL` used to work only in the kernel.
func TestPlanCLIMatchesMagic(t *testing.T) {
	in := testutil.Profile(t, "sync")
	cases := []struct {
		words   string
		wantErr string // "" when the run must succeed
	}{
		{"analyze -r ALL -f csv", ""},
		{"analyze -r all -f csv -q", ""},
		{"analyze --rule gpu_gaps:gap=1 -f csv", ""},
		{"analyze -f column", ""},
		{"stats -r cuda_gpu_kern_sum,cuda_api_sum -f csv --timeunit usec", ""},
		{"stats -r cuda_gpu_kern_sum:base -f csv,json", ""},
		{"stats -r cuda_api_sum -f tsv --filter-time 0/1s", ""},
		{"stats -r nvtx_sum,cuda_gpu_kern_sum -f column -q", ""},
		{"stats -r cuda_api_sum,cuda_gpu_kern_sum -f csv,json -o OUT", ""},
		{"analyze -r gpu_gaps,cuda_api_sync -o OUT", ""},
		{"stats -r cuda_gpu_kern_sm -f csv", `unknown report "cuda_gpu_kern_sm"`},
		{"analyze -r gpu_gap -f csv", `unknown rule "gpu_gap"`},
		{"stats -r cuda_api_sum -f cvs", "unknown format 'cvs'"},
		{"stats -r cuda_api_sum -f csv --timeunit days", "--timeunit"},
		{"stats -r cuda_gpu_kern_sum:bse -f csv", `"bse"`},
		{"stats -r cuda_api_sum -f parquet", "format parquet is binary"},
		{"stats -r cuda_api_sum -f csv --filter-time 5s/1s", "--filter-time"},
		{"stats -r cuda_api_sum -f csv --export-timeout soon", "--export-timeout"},
	}
	for _, c := range cases {
		t.Run(c.words, func(t *testing.T) { cliVsMagic(t, in, c.words, c.wantErr) })
	}
}

// cliVsMagic runs words (OUT stands for a file base) on in through the
// command and the magic, and compares what they print and write.
func cliVsMagic(t *testing.T, in, words, wantErr string) {
	cliDir, magicDir := plainTempDir(t), plainTempDir(t) // -o splits at commas
	w := strings.Fields(words)
	cliWords := append(append([]string(nil), w...), in)
	for i, word := range cliWords {
		if word == "OUT" {
			cliWords[i] = filepath.Join(cliDir, "out")
		}
	}
	stdout, stderr, code := runCLI(t, cliWords...)
	mtext, merr := runMagic(t, strings.ReplaceAll(words, "OUT", filepath.Join(magicDir, "out"))+" "+in)
	if wantErr != "" {
		cliErr := strings.TrimPrefix(strings.TrimSpace(stderr), "nsysx "+w[0]+": ")
		if code != 2 || !strings.Contains(cliErr, wantErr) || merr != cliErr {
			t.Errorf("errors differ or miss %q:\ncli (exit %d): %q\nmagic: %q", wantErr, code, cliErr, merr)
		}
		return
	}
	if code != 0 || merr != "" {
		t.Fatalf("cli exit %d (%s), magic error %q", code, stderr, merr)
	}
	got, want := sameText(strings.ReplaceAll(mtext, magicDir, "DIR")), sameText(strings.ReplaceAll(stdout, cliDir, "DIR"))
	if got != want || want == "" {
		t.Errorf("text differs (magic vs cli):\n%s", testutil.Diff(got, want))
	}
	cf, mf := filesIn(t, cliDir), filesIn(t, magicDir)
	if strings.Join(sortedKeys(cf), " ") != strings.Join(sortedKeys(mf), " ") {
		t.Fatalf("files differ: cli %v, magic %v", sortedKeys(cf), sortedKeys(mf))
	}
	for name, b := range cf {
		if mf[name] != b {
			t.Errorf("%s differs:\n%s", name, testutil.Diff(mf[name], b))
		}
	}
}

// plainTempDir is a temporary directory whose path has no comma (a
// subtest's t.TempDir has its name).
func plainTempDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "nsysx-plan-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
