package nsysx_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/internal/sqlite"
)

// mutatedSpecs read the biggest tables of sync (kernels, runtime, NVTX,
// OS runtime, memory operations, StringIds).
var mutatedSpecs = []string{"cuda_api_sum", "cuda_gpu_kern_sum", "nvtx_sum", "osrt_sum", "cuda_gpu_trace",
	"cuda_api_trace", "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum"}

// reportsCSV runs the specs on a profile: each one's csv, or its error.
func reportsCSV(t *testing.T, path string) ([]string, []error, error) {
	p, err := nsysx.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer p.Close()
	out, errs := make([]string, len(mutatedSpecs)), make([]error, len(mutatedSpecs))
	for i, spec := range mutatedSpecs {
		r, err := p.Stats(context.Background(), spec)
		if errs[i] = err; err == nil {
			out[i] = statsCSV(t, r)
		}
	}
	return out, errs, nil
}

var namesPage = regexp.MustCompile(`page \d+`)

// ownLeafAtRoot reports whether one of the pages is the root of a table
// that, in the mutated file, reads as a strict subset of its intact rows.
func ownLeafAtRoot(t *testing.T, orig, mut []byte, pages ...int) bool {
	a, err1 := sqlite.FromBytes(orig)
	b, err2 := sqlite.FromBytes(mut)
	if err1 != nil || err2 != nil {
		return false
	}
	for _, tb := range a.Tables() {
		if !slices.Contains(pages, int(tb.Root)) {
			continue
		}
		rows := func(db *sqlite.DB) map[int64]string {
			out := map[int64]string{}
			var cols []string
			for _, c := range tb.Columns {
				cols = append(cols, c.Name)
			}
			db.Scan(db.Table(tb.Name), cols, func(rowid int64, vals []sqlite.Value) error {
				out[rowid] = fmt.Sprint(vals)
				return nil
			})
			return out
		}
		intact, got := rows(a), rows(b)
		sub := len(got) < len(intact)
		for k, v := range got {
			sub = sub && intact[k] == v
		}
		if sub {
			t.Logf("table %s (root page %d) reads as %d of its %d rows", tb.Name, tb.Root, len(got), len(intact))
			return true
		}
	}
	return false
}

// A real profile with two pages swapped, or one page copied over another
// (the header page left alone), still passes for a SQLite file; each report
// either fails with an error naming a page, or gives exactly what the
// intact file gives. The one exception no check of the pages read can
// catch: a table's root replaced by one of its own leaves reads as a
// smaller table (its rows a subset of the intact ones); that is checked.
func TestSwappedAndDuplicatedPages(t *testing.T) {
	src := testutil.Profile(t, "sync")
	orig := testutil.ReadFile(t, src)
	want, _, err := reportsCSV(t, src)
	if err != nil {
		t.Fatal(err)
	}
	ps := int(orig[16])<<8 | int(orig[17])
	n := len(orig) / ps
	rng := rand.New(rand.NewPCG(12, 12))
	dir := t.TempDir()
	failed := 0
	for k := 0; k < 120; k++ {
		i, j := 2+rng.IntN(n-1), 2+rng.IntN(n-1)
		if i == j {
			continue
		}
		b := append([]byte(nil), orig...)
		pi, pj := b[(i-1)*ps:i*ps], b[(j-1)*ps:j*ps]
		what := fmt.Sprintf("page %d copied over page %d", i, j)
		if k%2 == 0 {
			what = fmt.Sprintf("pages %d and %d swapped", i, j)
			tmp := append([]byte(nil), pi...)
			copy(pi, pj)
			copy(pj, tmp)
		} else {
			copy(pj, pi)
		}
		path := filepath.Join(dir, fmt.Sprintf("m%d.sqlite", k))
		if err := os.WriteFile(path, b, 0o444); err != nil {
			t.Fatal(err)
		}
		got, errs, err := reportsCSV(t, path)
		if err != nil {
			if !namesPage.MatchString(err.Error()) {
				t.Errorf("%s: Open: %v (names no page)", what, err)
			}
			failed++
			continue
		}
		for s, spec := range mutatedSpecs {
			switch {
			case errs[s] != nil && !namesPage.MatchString(errs[s].Error()):
				t.Errorf("%s: %s: %v (names no page)", what, spec, errs[s])
			case errs[s] != nil:
				failed++
			case got[s] != want[s] && !ownLeafAtRoot(t, orig, b, i, j):
				t.Errorf("%s: %s gives other rows than the intact file: %s", what, spec, testutil.Diff(got[s], want[s]))
			}
		}
		os.Remove(path)
	}
	t.Logf("%d reports or opens failed with a page named", failed)
}
