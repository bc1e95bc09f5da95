package plots

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
)

// NCCL kernel times past 64 bits (4 NCCL kernels of 2^62 ns in rank0) fail
// the chart with an *nsysx.OverflowError instead of a wrapped total.
func TestNCCLOverflow(t *testing.T) {
	const k = "CUPTI_ACTIVITY_KIND_KERNEL"
	path := sqlitecopy.Profile(t, "rank0", t.TempDir(), "rank0.sqlite", "UPDATE "+k+" SET end = start + (1 << 62) WHERE rowid IN "+
		"(SELECT k.rowid FROM "+k+" k JOIN StringIds s ON s.id = k.shortName WHERE s.value LIKE 'nccl%' ORDER BY k.rowid LIMIT 4)")
	p, err := nsysx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := NCCL(context.Background(), []*nsysx.Profile{p}, nil)
	var oe *nsysx.OverflowError
	if !errors.As(err, &oe) {
		var rows []NCCLRow
		if c != nil && c.data != nil {
			rows = c.data.(*NCCLData).Rows
		}
		for _, r := range rows {
			t.Logf("%s: NCCL %d ns", r.Label, r.NCCLTime)
		}
		t.Errorf("want an overflow error, got %v", err)
	}
}

// A session table that exists but cannot be read fails the binned charts
// with an error naming it, instead of charts aligned without it.
func TestBinnedUnreadableSession(t *testing.T) {
	for _, table := range []string{"TARGET_INFO_SESSION_START_TIME", "ANALYSIS_DETAILS"} {
		path, page := sqlitecopy.DamageTable(t, "sync", t.TempDir(), "sync.sqlite", table)
		p, err := nsysx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = GPUUtil(context.Background(), []*nsysx.Profile{p}, nil)
		p.Close()
		if err == nil || !strings.Contains(err.Error(), table) {
			t.Errorf("%s (root page %d) unreadable: want an error naming it, got %v", table, page, err)
		}
	}
}
