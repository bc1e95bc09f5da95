package nsysx_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/nsysx/nsysx/internal/nsysxtest"
	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// scanTables are the columns TestScanMatchesLoad scans: integers, and TEXT
// with and without NULLs.
var scanTables = []struct {
	prof, table string
	cols        []string
}{
	{"sync", "CUPTI_ACTIVITY_KIND_KERNEL", []string{"start", "end", "demangledName"}},
	{"rank0", "NVTX_EVENTS", []string{"text"}},
}

// Scan delivers the rows Load holds, in the same order (nil / "" for a NULL
// TEXT); an absent column reads as NULL.
func TestScanMatchesLoad(t *testing.T) {
	for _, c := range scanTables {
		p := nsysxtest.Open(t, testutil.Profile(t, c.prof))
		k, err := p.Load(t.Context(), c.table, c.cols...)
		if err != nil {
			t.Fatal(err)
		}
		i, absent, texts := 0, len(c.cols), 0
		err = p.Scan(t.Context(), c.table, nil, append(slices.Clone(c.cols), "noSuchColumn"), func(r nsysx.ScanRow) error {
			for j, name := range c.cols {
				col := k.Col(name)
				if !sameCell(r, j, col, i) {
					t.Fatalf("%s.%s row %d differs from Load", c.table, name, i)
				}
				if col.Type == nsysx.Text && !col.IsNull(i) {
					texts++
				}
			}
			if !r.IsNull(absent) || r.Has(absent) || !r.Has(0) {
				t.Fatal("an absent column should read as NULL")
			}
			i++
			return nil
		})
		if err != nil || i != k.N || i == 0 || (c.table == "NVTX_EVENTS") != (texts > 0) {
			t.Fatalf("%s: %d rows of %d, %d with text: %v", c.table, i, k.N, texts, err)
		}
	}
}

// sameCell tells whether cell j of a scanned row is cell i of a loaded
// column: the same NULL, integer or TEXT.
func sameCell(r nsysx.ScanRow, j int, c *nsysx.Column, i int) bool {
	if r.IsNull(j) != c.IsNull(i) {
		return false
	}
	if c.Type != nsysx.Text {
		return r.Int(j) == c.Int(i)
	}
	b := r.Bytes(j)
	return (b == nil) == c.IsNull(i) && string(b) == c.Str(i) && r.Str(j) == c.Str(i)
}

// The callback's error, a missing table, a filter that cannot apply and a
// cancelled context stop Scan with their errors.
func TestScanErrors(t *testing.T) {
	p := nsysxtest.Open(t, testutil.Profile(t, "sync"))
	const tb = "CUPTI_ACTIVITY_KIND_KERNEL"
	stop := errors.New("stop")
	if err := p.Scan(t.Context(), tb, nil, []string{"start"}, func(nsysx.ScanRow) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("callback error: %v", err)
	}
	var mt *nsysx.MissingTableError
	if err := p.Scan(t.Context(), "NO_TABLE", nil, nil, nil); !errors.As(err, &mt) {
		t.Errorf("missing table: %v", err)
	}
	nf, _ := nsysx.ParseNVTXFilter("no such range")
	var skip *nsysx.SkipError
	if err := p.Scan(t.Context(), tb, nf, []string{"start"}, func(nsysx.ScanRow) error { return nil }); !errors.As(err, &skip) {
		t.Errorf("filter that cannot apply: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := p.Scan(ctx, tb, nil, []string{"start"}, func(nsysx.ScanRow) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}
