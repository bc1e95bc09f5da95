package nsysx_test

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// On bt, self times add up to cuda_gpu_kern_sum's total under every option,
// no function is inclusive of more than the total, and the options do what
// they say to the frames.
func TestKernStackSumBT(t *testing.T) {
	p := nsysxtest.Open(t, testutil.Profile(t, "bt"))
	total := nsysxtest.KernSumTotal(t, p)
	for _, spec := range []string{"cuda_kern_stack_sum", "cuda_kern_stack_sum:noruntime:foldpy",
		"cuda_kern_stack_sum:kernels:base:sort=inclusive", "cuda_kern_stack_sum:depth=3"} {
		r, err := p.Stats(context.Background(), spec)
		if err != nil || r.Skipped != "" {
			t.Fatalf("%s: %v %s", spec, err, r.Skipped)
		}
		var self int64
		for i := 0; i < r.Len(); i++ {
			row := r.Row(i)
			self += row[1].I
			if row[4].I > total || row[4].I < row[1].I {
				t.Errorf("%s: %s inclusive %d, self %d, total %d", spec, row[5].S, row[4].I, row[1].I, total)
			}
		}
		if self != total {
			t.Errorf("%s: self times sum to %d, cuda_gpu_kern_sum to %d", spec, self, total)
		}
	}
	runtime := regexp.MustCompile(`^(libcupti|libcuda\.|libcudart|libToolsInjection)`)
	for _, o := range []nsysx.StackOptions{{NoRuntime: true, FoldPython: true}, {Depth: 5}} {
		ks, err := p.KernelStacks(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ks.Stacks {
			if o.Depth > 0 && len(s.Frames) > o.Depth {
				t.Errorf("depth=%d: %d frames", o.Depth, len(s.Frames))
			}
			for i, f := range s.Frames {
				base := path.Base(f.Module)
				if o.NoRuntime && runtime.MatchString(base) {
					t.Errorf("noruntime kept %s (%s)", f.Function, base)
				}
				if o.FoldPython && i > 0 && strings.HasPrefix(base, "python") && strings.HasPrefix(path.Base(s.Frames[i-1].Module), "python") {
					t.Errorf("foldpy left two Python frames in a row: %s, %s", s.Frames[i-1].Function, f.Function)
				}
			}
		}
	}
}

// The stacks view: one row per stack; the launch stack of the embedding
// gather kernel is there, innermost first, Python frames folded.
func TestKernStackSumStacksView(t *testing.T) {
	p := nsysxtest.Open(t, testutil.Profile(t, "bt"))
	r, err := p.Stats(context.Background(), "cuda_kern_stack_sum:view=stacks:noruntime:foldpy")
	if err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^[^←]*gather_kernel[^←]* ← .*at::native::gather_cuda_kernel\(.* ← .*at::native::embedding.* ← .*THPVariable_embedding\(.* ← \[python\]`)
	var n, total int64
	found := false
	for i := 0; i < r.Len(); i++ {
		row := r.Row(i)
		n += row[2].I
		total += row[1].I
		found = found || want.MatchString(row[6].S)
	}
	if n != 1664 || total != nsysxtest.KernSumTotal(t, p) || !found {
		t.Errorf("%d kernels (want 1664), %d ns, embedding stack found: %v", n, total, found)
	}
}

func TestKernStackSumSkipped(t *testing.T) {
	p := nsysxtest.Open(t, testutil.Profile(t, "train"))
	r, err := p.Stats(context.Background(), "cuda_kern_stack_sum")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Skipped, "does not contain CUDA API call stacks") || !strings.Contains(r.Skipped, "--cudabacktrace=all") {
		t.Errorf("SKIPPED %q", r.Skipped)
	}
	if _, err := p.Stats(context.Background(), "cuda_kern_stack_sum:view=stack"); err == nil || !strings.Contains(err.Error(), "did you mean stacks") {
		t.Errorf("view=stack: %v", err)
	}
}

// A frame with an empty symbol (resolved, but nameless) is named after its
// module, [libname], as unresolved frames are, never a blank Function: bt
// with one frame's symbol made empty.
func TestKernStackSumEmptySymbol(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bt.sqlite")
	src, err := os.ReadFile(testutil.Profile(t, "bt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sqlite3.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	// the resolved frames of the module of the most-used resolved frame
	var module string
	st, _, err := db.Prepare(`SELECT m.value FROM CUDA_CALLCHAINS c JOIN StringIds m ON m.id = c.module
		WHERE c.unresolved IS NOT 1 GROUP BY c.module ORDER BY count(*) DESC LIMIT 1`)
	if err == nil && st.Step() {
		module = st.ColumnText(0)
	}
	if err == nil {
		err = st.Close()
	}
	if err == nil {
		err = db.Exec(`INSERT INTO StringIds (id, value) VALUES ((SELECT max(id) + 1 FROM StringIds), '');
			UPDATE CUDA_CALLCHAINS SET symbol = (SELECT max(id) FROM StringIds)
			WHERE unresolved IS NOT 1 AND module = (SELECT id FROM StringIds WHERE value = '` + strings.ReplaceAll(module, "'", "''") + `' LIMIT 1)`)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil || module == "" {
		t.Fatalf("making the profile: %v (module %q)", err, module)
	}
	p := nsysxtest.Open(t, file)
	r, err := p.Stats(context.Background(), "cuda_kern_stack_sum")
	if err != nil || r.Skipped != "" {
		t.Fatalf("%v %s", err, r.Skipped)
	}
	want, found := "["+path.Base(module)+"]", false
	for i := 0; i < r.Len(); i++ {
		row := r.Row(i)
		if row[5].S == "" {
			t.Errorf("row %d: blank Function (Module %s)", i, row[6].S)
		}
		found = found || row[5].S == want && row[6].S == path.Base(module)
	}
	if !found {
		t.Errorf("no function %s of module %s", want, module)
	}
}
