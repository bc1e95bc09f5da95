package recipe

import (
	"context"
	"fmt"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/internal/stringids"
)

// Mask marks the non-NULL rows of a composite column; a nil Mask means no
// NULLs.
type Mask []bool

// Valid reports whether row i is non-NULL.
func (m Mask) Valid(i int) bool { return m == nil || m[i] }

// pick returns the mask restricted to rows (nil stays nil).
func (m Mask) pick(rows []int) Mask {
	if m == nil {
		return nil
	}
	return pick(m, rows)
}

// loadTable loads cols of table under ctx. A missing table is empty
// (docs/recipes.md §1.2): it returns (nil, nil). Columns in optional that
// the table lacks are skipped; the caller sees them as all-NULL.
func loadTable(ctx context.Context, p *nsysx.Profile, table string, cols, optional []string) (*nsysx.Table, error) {
	if !p.HasTable(table) {
		return nil, nil
	}
	want := append([]string(nil), cols...)
	for _, c := range optional {
		if p.HasColumn(table, c) {
			want = append(want, c)
		}
	}
	t, err := p.Load(ctx, table, want...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", table, err)
	}
	return t, nil
}

// rows is a loaded table's row count (0 for a missing table).
func rows(t *nsysx.Table) int {
	if t == nil {
		return 0
	}
	return t.N
}

// ints returns an integer column's values and its NULL mask. A column the
// table lacks (or a missing table) gives n zeros, all NULL.
func ints(t *nsysx.Table, name string) ([]int64, Mask) {
	n := rows(t)
	c := t.Col(name)
	if c == nil {
		return make([]int64, n), make(Mask, n)
	}
	var v []int64
	if c.Type == nsysx.Int {
		v = c.Ints
	} else {
		v = make([]int64, n)
		for i := range v {
			v[i] = c.Int(i)
		}
	}
	if !c.HasNulls() {
		return v, nil
	}
	m := make(Mask, n)
	for i := range m {
		m[i] = !c.IsNull(i)
	}
	return v, m
}

// strs resolves a StringIds-id column to text through a left join: an id
// that StringIds lacks (or a NULL id) gives NULL.
func strs(ctx context.Context, p *nsysx.Profile, t *nsysx.Table, name string) ([]string, Mask) {
	ids, valid := ints(t, name)
	out := make([]string, len(ids))
	var m Mask
	for i, id := range ids {
		if !valid.Valid(i) {
			m = setNull(m, len(ids), i)
			continue
		}
		s, ok := p.String(ctx, id)
		if !ok {
			m = setNull(m, len(ids), i)
			continue
		}
		out[i] = s
	}
	return out, m
}

// idText is strs once the string table is known to have loaded and to
// hold names (namesErr is returned instead).
func idText(ctx context.Context, p *nsysx.Profile, t *nsysx.Table, name string) ([]string, Mask, error) {
	if err := namesErr(ctx, p); err != nil {
		return nil, nil, err
	}
	v, m := strs(ctx, p, t, name)
	return v, m, nil
}

// noNamesError is a report without names to resolve (stringids.Missing):
// MapReport skips it with the message, as stats SKIPs its reports.
type noNamesError struct{ msg string }

func (e *noNamesError) Error() string { return "SKIPPED: " + e.msg }

// namesErr is StringsErr (StringIds cannot be read), or a *noNamesError
// when StringIds is absent or holds no names.
func namesErr(ctx context.Context, p *nsysx.Profile) error {
	msg, err := stringids.Check(ctx, p, p.Path, func(t *nsysx.Table) int { return t.N })
	if err == nil && msg != "" {
		err = &noNamesError{msg}
	}
	return err
}

// eventCols are the start, end and globalTid columns of an event table,
// with globalTid's NULL mask.
func eventCols(t *nsysx.Table) (start, end, gtid []int64, gtidValid Mask) {
	start, _ = ints(t, "start")
	end, _ = ints(t, "end")
	gtid, gtidValid = ints(t, "globalTid")
	return start, end, gtid, gtidValid
}

// setNull marks row i of an n-row mask NULL, allocating it on first use.
func setNull(m Mask, n, i int) Mask {
	if m == nil {
		m = make(Mask, n)
		for k := range m {
			m[k] = true
		}
	}
	m[i] = false
	return m
}

// pidOf is the process id of a globalPid or globalTid: bits 24..47.
func pidOf(g int64) int64 { return (g >> 24) & 0xFFFFFF }

// tidOf is the thread id of a globalTid: bits 0..23.
func tidOf(g int64) int64 { return g & 0xFFFFFF }

// derive maps every value of g through f.
func derive(g []int64, f func(int64) int64) []int64 {
	out := make([]int64, len(g))
	for i, v := range g {
		out[i] = f(v)
	}
	return out
}

// pick returns v restricted to rows, in their order.
func pick[T any](v []T, rows []int) []T {
	out := make([]T, len(rows))
	for k, i := range rows {
		out[k] = v[i]
	}
	return out
}

// seq returns 0..n-1.
func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
