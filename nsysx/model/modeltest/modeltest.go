// Package modeltest builds profiles held in memory for tests: tables of
// int64, string or nil (NULL) cells served through model.Source, so a test
// case reads as the rows it is made of.
package modeltest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/model"
)

// MemTable is one in-memory table: column names and rows of int64, string
// or nil (NULL) cells.
type MemTable struct {
	Name string
	Cols []string
	Rows [][]any
}

// MemSource serves MemTables through the source interface.
type MemSource struct{ Tables []*MemTable }

func (s *MemSource) Schema() []*model.TableSchema {
	var out []*model.TableSchema
	for _, t := range s.Tables {
		ts := &model.TableSchema{Name: t.Name, Columns: t.Cols}
		for j := range t.Cols {
			typ := model.Int
			for _, r := range t.Rows {
				if _, ok := r[j].(string); ok {
					typ = model.Text
				}
			}
			ts.Types = append(ts.Types, typ)
		}
		out = append(out, ts)
	}
	return out
}

func (s *MemSource) Close() error { return nil }

func (s *MemSource) Load(_ context.Context, ts *model.TableSchema, cols []string) (*model.Table, error) {
	var mt *MemTable
	for _, t := range s.Tables {
		if strings.EqualFold(t.Name, ts.Name) {
			mt = t
		}
	}
	out := model.NewTable(mt.Name, len(mt.Rows))
	for i := range mt.Rows {
		out.RowIDs = append(out.RowIDs, int64(i+1))
	}
	for _, name := range cols {
		j := -1
		for k, c := range mt.Cols {
			if strings.EqualFold(c, name) {
				j = k
			}
		}
		col := &model.Column{Name: name, Type: ts.Types[j]}
		for i, r := range mt.Rows {
			switch v := r[j].(type) {
			case nil:
				if col.Type == model.Text {
					col.Strs = append(col.Strs, "")
				} else {
					col.Ints = append(col.Ints, 0)
				}
				col.SetNull(i)
			case string:
				col.Strs = append(col.Strs, v)
			case int:
				col.Ints = append(col.Ints, int64(v))
			case int64:
				col.Ints = append(col.Ints, v)
			default:
				return nil, fmt.Errorf("MemSource: cell %T", v)
			}
		}
		out.AddCol(col)
	}
	return out, nil
}

// Add appends a row.
func (t *MemTable) Add(cells ...any) *MemTable {
	if len(cells) != len(t.Cols) {
		panic(fmt.Sprintf("%s: %d cells for %d columns", t.Name, len(cells), len(t.Cols)))
	}
	t.Rows = append(t.Rows, cells)
	return t
}

// Profile opens tables as a profile named fx.sqlite; t fails when the
// tables are not an export (no StringIds, no known table).
func Profile(t testing.TB, tables ...*MemTable) *model.Profile {
	t.Helper()
	p, err := model.NewProfile("fx.sqlite", "memory", &MemSource{Tables: tables})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
