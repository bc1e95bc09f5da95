package compare

import (
	"context"
	"errors"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
)

// A duration or a total past 64 bits fails the comparison with an
// *nsysx.OverflowError instead of a wrapped (negative) average reported as
// "no change": 4 kernels of 2^62 ns, or kernels starting at INT64_MIN.
func TestCompareOverflow(t *testing.T) {
	const k = "CUPTI_ACTIVITY_KIND_KERNEL"
	first := func(n, set string) string {
		return "UPDATE " + k + " SET " + set + " WHERE rowid IN (SELECT rowid FROM " + k + " ORDER BY rowid LIMIT " + n + ")"
	}
	dir := t.TempDir()
	before := profile(t, "sync", "before")
	for _, c := range []struct{ name, file string }{
		{"4 kernels of 2^62 ns", sqlitecopy.Profile(t, "sync", dir, "long.sqlite", first("4", "end = start + (1 << 62)"))},
		{"2 kernels starting at INT64_MIN", sqlitecopy.Profile(t, "sync", dir, "min.sqlite", first("2", "start = -9223372036854775808"))},
	} {
		after, err := nsysx.Open(c.file)
		if err != nil {
			t.Fatal(err)
		}
		cmp, err := Profiles(context.Background(), before, after, nil)
		after.Close()
		var oe *nsysx.OverflowError
		if !errors.As(err, &oe) {
			var rows []Row
			if cmp != nil {
				rows = cmp.Rows
			}
			t.Errorf("%s: want an overflow error, got %v (%d rows)", c.name, err, len(rows))
		}
	}
}
