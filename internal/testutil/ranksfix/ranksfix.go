// Package ranksfix builds the reports of a multi-rank job from one real
// single-rank export, where the answers are known: every rank is a copy of
// the export, on a clock of its own (a later session start, every
// timestamp earlier by as much: the same moments), with its NCCL kernels
// starting a little later or earlier (deterministic jitter), and with
// delays injected on chosen ranks before chosen collectives. It is apart
// from testutil so that only the tests that build jobs link SQLite.
package ranksfix

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/nsysx/nsysx/internal/testutil"
	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
)

// Rank is one rank's copy of the export.
type Rank struct {
	// Clock is added to the session start (UTC) and taken from every
	// timestamp: the rank's clock, which alignment must undo.
	Clock int64
	// Jitter: each NCCL kernel of the rank starts later by a deterministic
	// amount in [0, Jitter) (its end stays): arrival noise that names no
	// straggler.
	Jitter int64
	// Drop leaves out the rank's first Drop NCCL kernels: a capture that
	// started later than the others'.
	Drop int
}

// Delay injects D ns on rank Rank before the export's NCCL kernel number
// Collective (0-based, in start order): that rank's events from the
// kernel's start on happen D later (ranges open at that moment end D
// later). Every other rank waits for it: its copy of the collective ends
// D later, and its events after the collective's start happen D later
// (ranges open then end D later).
type Delay struct {
	Rank, Collective int
	D                int64
}

// ncclKernels is the SQL condition of an NCCL kernel row.
const ncclKernels = `shortName IN (SELECT id FROM StringIds WHERE value LIKE 'nccl%')`

// Job writes rank<i>.sqlite under dir for each rank, copies of the test
// profile name with the delays injected, and returns their paths.
func Job(t testing.TB, name, dir string, ranks []Rank, delays []Delay) []string {
	t.Helper()
	src := testutil.Profile(t, name)
	timed := timedTables(t, src)
	delays = slices.Clone(delays)
	// later points first, so that an earlier delay moves the later ones
	slices.SortStableFunc(delays, func(a, b Delay) int { return cmp.Compare(b.Collective, a.Collective) })
	var paths []string
	for i, r := range ranks {
		var stmts []string
		for _, d := range delays {
			at := sqlitecopy.Int64(t, src, "SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE "+ncclKernels+
				" ORDER BY start LIMIT 1 OFFSET ?", strconv.Itoa(d.Collective))
			stmts = append(stmts, delay(timed, at, d.D, d.Rank == i)...)
		}
		if r.Jitter > 0 {
			stmts = append(stmts, fmt.Sprintf(`UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = start + (rowid * 7919 + %d * 104729) %% %d WHERE %s`, i, r.Jitter, ncclKernels))
		}
		if r.Drop > 0 {
			stmts = append(stmts, fmt.Sprintf(`DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid IN
				(SELECT rowid FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE %s ORDER BY start LIMIT %d)`, ncclKernels, r.Drop))
		}
		for _, tn := range timed {
			stmts = append(stmts, fmt.Sprintf(`UPDATE %q SET start = start - %d, end = end - %d`, tn, r.Clock, r.Clock))
		}
		stmts = append(stmts, fmt.Sprintf(`UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = utcEpochNs + %d`, r.Clock))
		paths = append(paths, sqlitecopy.Profile(t, name, dir, "rank"+strconv.Itoa(i)+".sqlite", stmts...))
	}
	return paths
}

// delay is the SQL of one delay of d ns at time at, on the delayed rank
// (late) or on one that waits for it.
func delay(timed []string, at, d int64, late bool) []string {
	var out []string
	moved, open := "start >= %d", "start < %d AND end >= %d"
	if !late {
		moved, open = "start > %d", "start <= %d AND end > %d"
		out = append(out, fmt.Sprintf(`UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = end + %d WHERE start = %d AND %s`, d, at, ncclKernels))
	}
	for _, tn := range timed {
		out = append(out, fmt.Sprintf(`UPDATE %q SET start = start + %d, end = end + %d WHERE `+moved, tn, d, d, at))
	}
	out = append(out, fmt.Sprintf(`UPDATE NVTX_EVENTS SET end = end + %d WHERE `+open, d, at, at))
	return out
}

// timedTables lists the tables of the SQLite file at path that have a
// start and an end column.
func timedTables(t testing.TB, path string) []string {
	t.Helper()
	conn, err := sqlite3.OpenFlags("file:"+filepath.ToSlash(path)+"?mode=ro&immutable=1", sqlite3.OPEN_READONLY|sqlite3.OPEN_URI)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	st, _, err := conn.Prepare(`SELECT name FROM sqlite_master m WHERE type = 'table'
		AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'start')
		AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'end') ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out []string
	for st.Step() {
		out = append(out, st.ColumnText(0))
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
