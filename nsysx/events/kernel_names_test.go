package events_test

import (
	"testing"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
)

// TestKernelNames checks the kernels' names under each naming against
// SQLite on every shipped profile: how many kernels have a name, how many
// distinct names, and the sum of their StringIds ids (the picked column,
// else demangledName).
func TestKernelNames(t *testing.T) {
	for _, name := range testutil.Profiles {
		path := testutil.Profile(t, name)
		q := func(sql string) int64 { return sqlitecopy.Int64(t, path, sql) }
		if q("SELECT count(*) FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL'") == 0 {
			continue
		}
		mangled := "demangledName"
		if q("SELECT count(*) FROM pragma_table_info('CUPTI_ACTIVITY_KIND_KERNEL') WHERE name = 'mangledName'") > 0 {
			mangled = "coalesce(mangledName, demangledName)"
		}
		p, err := nsysx.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			n    events.KernelNaming
			expr string
		}{{events.NameDemangled, "demangledName"}, {events.NameBase, "coalesce(shortName, demangledName)"}, {events.NameMangled, mangled}} {
			cols := events.KernelNameColumns(p.Profile, c.n)
			tb, err := events.Kernels(t.Context(), p.Profile, nil).Load(cols...)
			if err != nil {
				t.Fatal(err)
			}
			names := events.KernelNameColsOf(tb, cols)
			var got [3]int64
			seen := map[int64]bool{}
			for i := 0; i < tb.N; i++ {
				if id, ok := names.ID(i); ok {
					got[0], got[2] = got[0]+1, got[2]+id
					seen[id] = true
				}
			}
			got[1] = int64(len(seen))
			sel := " FROM CUPTI_ACTIVITY_KIND_KERNEL"
			want := [3]int64{q("SELECT count(" + c.expr + ")" + sel), q("SELECT count(DISTINCT " + c.expr + ")" + sel), q("SELECT coalesce(sum(" + c.expr + "), 0)" + sel)}
			if got != want || want[0] == 0 {
				t.Errorf("%s naming %d (%v): (named, distinct, Σid) %v, SQLite %v", name, c.n, cols, got, want)
			}
		}
		p.Close()
	}
}
