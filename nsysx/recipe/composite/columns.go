package composite

import (
	"context"
	"fmt"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
	"github.com/nsysx/nsysx/nsysx/recipe"
	"github.com/nsysx/nsysx/nsysx/recipe/pyframe"
)

// LoadTable loads cols of table under ctx. A missing table is empty
// (docs/recipes.md §1.2): it returns (nil, nil). Columns in optional that
// the table lacks are skipped; the caller sees them as all-NULL.
func LoadTable(ctx context.Context, p *nsysx.Profile, table string, cols, optional []string) (*nsysx.Table, error) {
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

// Ints returns an integer column's values and its NULL mask. A column the
// table lacks (or a missing table) gives n zeros, all NULL.
func Ints(t *nsysx.Table, name string) ([]int64, pyframe.Mask) {
	n := rows(t)
	c := t.Col(name)
	if c == nil {
		return make([]int64, n), make(pyframe.Mask, n)
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
	m := make(pyframe.Mask, n)
	for i := range m {
		m[i] = !c.IsNull(i)
	}
	return v, m
}

// strs resolves a StringIds-id column to text through a left join: an id
// that StringIds lacks (or a NULL id) gives NULL.
func strs(ctx context.Context, p *nsysx.Profile, t *nsysx.Table, name string) ([]string, pyframe.Mask) {
	ids, valid := Ints(t, name)
	out := make([]string, len(ids))
	var m pyframe.Mask
	for i, id := range ids {
		if !valid.Valid(i) {
			m = pyframe.SetNull(m, len(ids), i)
			continue
		}
		s, ok := p.String(ctx, id)
		if !ok {
			m = pyframe.SetNull(m, len(ids), i)
			continue
		}
		out[i] = s
	}
	return out, m
}

// IDText is strs once the string table is known to have loaded and to
// hold names (namesErr is returned instead).
func IDText(ctx context.Context, p *nsysx.Profile, t *nsysx.Table, name string) ([]string, pyframe.Mask, error) {
	if err := NamesErr(ctx, p); err != nil {
		return nil, nil, err
	}
	v, m := strs(ctx, p, t, name)
	return v, m, nil
}

// NamesErr is StringsErr (StringIds cannot be read), or a *noNamesError
// when StringIds is absent or holds no names.
func NamesErr(ctx context.Context, p *nsysx.Profile) error {
	msg, err := events.CheckNames(ctx, p.Profile, p.Path)
	if err == nil && msg != "" {
		err = &recipe.NoNamesError{Msg: msg}
	}
	return err
}

// eventCols are the start, end and globalTid columns of an event table,
// with globalTid's NULL mask.
func eventCols(t *nsysx.Table) (start, end, gtid []int64, gtidValid pyframe.Mask) {
	start, _ = Ints(t, "start")
	end, _ = Ints(t, "end")
	gtid, gtidValid = Ints(t, "globalTid")
	return start, end, gtid, gtidValid
}

// PidOf is the process id of a globalPid or globalTid: bits 24..47.
func PidOf(g int64) int64 { return (g >> 24) & 0xFFFFFF }

// TidOf is the thread id of a globalTid: bits 0..23.
func TidOf(g int64) int64 { return g & 0xFFFFFF }

// Derive maps every value of g through f.
func Derive(g []int64, f func(int64) int64) []int64 {
	out := make([]int64, len(g))
	for i, v := range g {
		out[i] = f(v)
	}
	return out
}
