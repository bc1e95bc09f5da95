package events

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/model"
)

// eachRow streams the named columns of table into fn, row by row in table
// order: through the loader's streaming scan when it has one (nothing is
// kept per row), else from the loaded columns. A column the table lacks
// reads as NULL; a table the export lacks has no rows. Text fields alias
// the file during the callback only.
func eachRow(ctx context.Context, p *model.Profile, table string, cols []string, fn func(f *model.Fields) error) error {
	if !p.HasTable(table) {
		return nil
	}
	if rs, ok := p.Source().(model.RecordScanner); ok && rs.HasRecords(table) {
		o := model.ScanOptions{Context: ctx, AbsentNull: true}
		return rs.ScanRecords(table, cols, o, func(_ int64, f *model.Fields) error { return fn(f) })
	}
	var have []string
	for _, c := range cols {
		if p.HasColumn(table, c) {
			have = append(have, c)
		}
	}
	t, err := p.Load(ctx, table, have...)
	if err != nil {
		return err
	}
	cs := make([]*model.Column, len(cols))
	for k, c := range cols {
		cs[k] = t.Col(c)
	}
	var f model.Fields
	for i := 0; i < t.N; i++ {
		for k, c := range cs {
			switch {
			case c == nil || c.IsNull(i):
				f.Set(k, model.RecValue{Type: model.RecNull})
			case c.Type == model.Text:
				f.Set(k, model.RecValue{Type: model.RecText, B: []byte(c.Strs[i])})
			case c.Type == model.Float:
				f.Set(k, model.RecValue{Type: model.RecFloat, F: c.Floats[i]})
			default:
				f.Set(k, model.RecValue{Type: model.RecInteger, I: c.Ints[i]})
			}
		}
		if err := fn(&f); err != nil {
			return err
		}
	}
	return nil
}

// isNull reports whether field k of f is NULL.
func isNull(f *model.Fields, k int) bool { return f.Null&(1<<k) != 0 }

// intOr is field k of f, or def when it is NULL.
func intOr(f *model.Fields, k int, def int64) int64 {
	if isNull(f, k) {
		return def
	}
	return f.I[k]
}
