package nsysx_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/nsysx"
)

// Scan delivers the rows Load holds, in the same order; an absent column
// reads as NULL; the callback's error and a cancelled context stop it.
func TestScan(t *testing.T) {
	p, err := nsysx.Open(testutil.Profile(t, "sync"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	const tb = "CUPTI_ACTIVITY_KIND_KERNEL"
	k, err := p.Load(context.Background(), tb, "start", "end", "demangledName")
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	err = p.Scan(context.Background(), tb, nil, []string{"start", "end", "demangledName", "noSuchColumn"}, func(r nsysx.ScanRow) error {
		if r.Int(0) != k.Col("start").Int(i) || r.Int(1) != k.Col("end").Int(i) || r.Int(2) != k.Col("demangledName").Int(i) {
			t.Fatalf("row %d differs from Load", i)
		}
		if !r.IsNull(3) || r.Has(3) || !r.Has(0) {
			t.Fatal("an absent column should read as NULL")
		}
		i++
		return nil
	})
	if err != nil || i != k.N || i == 0 {
		t.Fatalf("%d rows of %d: %v", i, k.N, err)
	}
	stop := errors.New("stop")
	if err := p.Scan(context.Background(), tb, nil, []string{"start"}, func(nsysx.ScanRow) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("callback error: %v", err)
	}
	var mt *nsysx.MissingTableError
	if err := p.Scan(context.Background(), "NO_TABLE", nil, nil, nil); !errors.As(err, &mt) {
		t.Errorf("missing table: %v", err)
	}
	nf, _ := nsysx.ParseNVTXFilter("no such range")
	var skip *nsysx.SkipError
	if err := p.Scan(context.Background(), tb, nf, []string{"start"}, func(nsysx.ScanRow) error { return nil }); !errors.As(err, &skip) {
		t.Errorf("filter that cannot apply: %v", err)
	}
}

// ScanRow.Bytes and Str give the TEXT Load holds (nil / "" for NULL), for
// a table with NULL and non-NULL text.
func TestScanBytes(t *testing.T) {
	p, err := nsysx.Open(testutil.Profile(t, "rank0"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	nv, err := p.Load(context.Background(), "NVTX_EVENTS", "text")
	if err != nil {
		t.Fatal(err)
	}
	c, i, texts := nv.Col("text"), 0, 0
	err = p.Scan(context.Background(), "NVTX_EVENTS", nil, []string{"text"}, func(r nsysx.ScanRow) error {
		b := r.Bytes(0)
		switch {
		case c.IsNull(i) != r.IsNull(0), c.IsNull(i) && b != nil:
			t.Fatalf("row %d: NULL differs", i)
		case string(b) != c.Str(i) || r.Str(0) != c.Str(i):
			t.Fatalf("row %d: %q, Load has %q", i, b, c.Str(i))
		}
		if b != nil {
			texts++
		}
		i++
		return nil
	})
	if err != nil || i != nv.N || texts == 0 {
		t.Fatalf("%d rows of %d, %d with text: %v", i, nv.N, texts, err)
	}
}
