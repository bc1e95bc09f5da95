package recipes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/internal/testutil/sqlitecopy"
	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/recipe"
)

// first4 sets column col of the first 4 rows of table (rowid order) that
// match where (SQL) to v.
func first4(table, col, v, where string) string {
	return fmt.Sprintf("UPDATE %s SET %s = %s WHERE rowid IN (SELECT rowid FROM %s WHERE %s ORDER BY rowid LIMIT 4)", table, col, v, table, where)
}

// runFiles runs recipe name on the files (their stems are the ranks).
func runFiles(t *testing.T, name string, o *recipe.Options, files ...string) (*recipe.Result, error) {
	t.Helper()
	r, err := recipe.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	o.Input = files
	return recipe.Run(context.Background(), r, o, nil)
}

// Sums past 64 bits fail the recipe with an *nsysx.OverflowError, in the
// map (one rank's group) or in the reduce (all_stats over ranks), instead
// of a wrapped Sum (sync with 4 kernels of 2^62 ns gave Sum -4.6e18; 4
// copies of 2^62 bytes a plausible 268451840).
func TestRecipeOverflow(t *testing.T) {
	const k, m, rt = "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_RUNTIME"
	dir := t.TempDir()
	sameKind := fmt.Sprintf("copyKind = (SELECT copyKind FROM %s ORDER BY rowid LIMIT 1)", m)
	for _, c := range []struct {
		recipe string
		files  []string
	}{
		{"cuda_gpu_kern_sum", []string{sqlitecopy.Profile(t, "sync", dir, "kern.sqlite", first4(k, "end", "start + (1 << 62)", "1"))}},
		{"cuda_gpu_mem_size_sum", []string{sqlitecopy.Profile(t, "sync", dir, "size.sqlite", first4(m, "bytes", "1 << 62", sameKind))}},
		{"cuda_api_sum", []string{sqlitecopy.Profile(t, "sync", dir, "api.sqlite", first4(rt, "end", "start + (1 << 62)", "1"))}},
		// Each rank's sum fits (one kernel of 1.5 × 2^62 ns); their total does not.
		{"cuda_gpu_kern_sum", []string{
			sqlitecopy.Profile(t, "sync", dir, "r0.sqlite", "UPDATE "+k+" SET end = start + (3 << 61) WHERE rowid = (SELECT min(rowid) FROM "+k+")"),
			sqlitecopy.Profile(t, "sync", dir, "r1.sqlite", "UPDATE "+k+" SET end = start + (3 << 61) WHERE rowid = (SELECT min(rowid) FROM "+k+")"),
		}},
	} {
		o := recipe.Defaults()
		o.Strict = true
		res, err := runFiles(t, c.recipe, o, c.files...)
		var oe *nsysx.OverflowError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), c.recipe) {
			var all string
			if err == nil {
				all = fmt.Sprint(res.Output.Table("all_stats").Find("Sum").IntVals)
			}
			t.Errorf("%s on %d files: want an overflow error naming the recipe, got %v (all_stats Sum %s)", c.recipe, len(c.files), err, all)
		}
	}
}

// A sum that fits is exact: sync with one kernel of 2^62 ns, whose group's
// Sum is SQLite's sum of its positive durations.
func TestRecipeSumExact(t *testing.T) {
	const k = "CUPTI_ACTIVITY_KIND_KERNEL"
	path := sqlitecopy.Profile(t, "sync", t.TempDir(), "one.sqlite",
		"UPDATE "+k+" SET end = start + (1 << 62) WHERE rowid = (SELECT min(rowid) FROM "+k+")")
	want := sqlitecopy.Int64(t, path, "SELECT sum(end - start) FROM "+k+
		" WHERE shortName = (SELECT shortName FROM "+k+" ORDER BY rowid LIMIT 1) AND end > start AND start >= 0")
	o := recipe.Defaults()
	o.Strict = true
	res, err := runFiles(t, "cuda_gpu_kern_sum", o, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"rank_stats", "all_stats"} {
		if got := res.Output.Table(table).Find("Sum").IntVals; !containsInt(got, want) {
			t.Errorf("%s Sum %v, want one of %d", table, got, want)
		}
	}
}

func containsInt(v []int64, x int64) bool {
	for _, y := range v {
		if y == x {
			return true
		}
	}
	return false
}

// A report without names (StringIds dropped or emptied) is SKIPPED with
// the reason, as stats does, instead of giving blank or no names; one
// whose StringIds cannot be read fails, naming the table.
func TestRecipeNoNames(t *testing.T) {
	dir := t.TempDir()
	damaged, _ := sqlitecopy.DamageTable(t, "sync", dir, "damaged.sqlite", "StringIds")
	for _, c := range []struct{ file, want string }{
		{sqlitecopy.Profile(t, "sync", dir, "nostr.sqlite", "DROP TABLE StringIds"), "file does not contain StringIds table."},
		{sqlitecopy.Profile(t, "sync", dir, "empty.sqlite", "DELETE FROM StringIds"), "file has an empty StringIds table"},
		{damaged, ""},
	} {
		for _, name := range []string{"cuda_gpu_kern_sum", "cuda_api_sum"} {
			var logs []string
			o := recipe.Defaults()
			o.Mode = "none"
			o.Log = func(s string) { logs = append(logs, s) }
			_, err := runFiles(t, name, o, c.file)
			log := strings.Join(logs, "\n")
			switch {
			case c.want == "" && !strings.Contains(log, "StringIds"):
				t.Errorf("%s on %s: want an error naming StringIds, got %v, log %q", name, c.file, err, log)
			case c.want != "" && (!errors.Is(err, recipe.ErrNoData) || !strings.Contains(log, "SKIPPED: "+c.file+" "+c.want)):
				t.Errorf("%s on %s: want SKIPPED %q and no data, got %v, log %q", name, c.file, c.want, err, log)
			}
		}
	}
}
