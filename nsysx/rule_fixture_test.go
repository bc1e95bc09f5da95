package nsysx

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nsysx/nsysx/nsysx/model"
)

// Hand-built profiles for the rules' edge cases: a source that serves
// tables held in memory, so each case reads as the rows it is made of.

// memTable is one in-memory table: column names and rows of int64, string
// or nil (NULL) cells.
type memTable struct {
	name string
	cols []string
	rows [][]any
}

// memSource serves memTables through the source interface.
type memSource struct{ tabs []*memTable }

func (s *memSource) Schema() []*TableSchema {
	var out []*TableSchema
	for _, t := range s.tabs {
		ts := &TableSchema{Name: t.name, Columns: t.cols}
		for j := range t.cols {
			typ := Int
			for _, r := range t.rows {
				if _, ok := r[j].(string); ok {
					typ = Text
				}
			}
			ts.Types = append(ts.Types, typ)
		}
		out = append(out, ts)
	}
	return out
}

func (s *memSource) Close() error { return nil }

func (s *memSource) Load(_ context.Context, ts *TableSchema, cols []string) (*Table, error) {
	var mt *memTable
	for _, t := range s.tabs {
		if strings.EqualFold(t.name, ts.Name) {
			mt = t
		}
	}
	out := model.NewTable(mt.name, len(mt.rows))
	for i := range mt.rows {
		out.RowIDs = append(out.RowIDs, int64(i+1))
	}
	for _, name := range cols {
		j := -1
		for k, c := range mt.cols {
			if strings.EqualFold(c, name) {
				j = k
			}
		}
		col := &Column{Name: name, Type: ts.Types[j]}
		for i, r := range mt.rows {
			switch v := r[j].(type) {
			case nil:
				if col.Type == Text {
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
				return nil, fmt.Errorf("memSource: cell %T", v)
			}
		}
		out.AddCol(col)
	}
	return out, nil
}

// fx builds a profile from tables.
type fx struct{ tabs []*memTable }

// table adds a table and returns it for rows.
func (f *fx) table(name string, cols ...string) *memTable {
	t := &memTable{name: name, cols: cols}
	f.tabs = append(f.tabs, t)
	return t
}

// add appends a row.
func (t *memTable) add(cells ...any) *memTable {
	if len(cells) != len(t.cols) {
		panic(fmt.Sprintf("%s: %d cells for %d columns", t.name, len(cells), len(t.cols)))
	}
	t.rows = append(t.rows, cells)
	return t
}

func (f *fx) profile(t *testing.T) *Profile {
	t.Helper()
	p, err := newProfile("fx.sqlite", "memory", &memSource{tabs: f.tabs})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gpid makes a globalPid (bit 48 set as in real exports) and gtid a globalTid.
func gpid(pid int64) int64      { return 1<<48 | pid<<24 }
func gtid(pid, tid int64) int64 { return 1<<48 | pid<<24 | tid }

// kernels adds a kernel table with rows (start, end, globalPid, deviceId,
// contextId) and returns the fixture.
func (f *fx) kernels(rows ...[5]any) *fx {
	t := f.table(tKernel, "start", "end", "deviceId", "contextId", "greenContextId", "streamId", "correlationId", "globalPid")
	for i, r := range rows {
		t.add(r[0], r[1], r[3], r[4], nil, 7, i+1, r[2])
	}
	return f
}

// csvOf renders a result's visible cells as CSV-ish lines (no header, no
// unit conversion), for compact expectations.
func csvOf(r *Result) string {
	var b strings.Builder
	for i := 0; i < r.Len(); i++ {
		for j, c := range r.Visible() {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(c.Text(i))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// analyze runs a rule and fails on errors and SKIPPED.
func analyze(t *testing.T, p *Profile, spec string) *Result {
	t.Helper()
	r, err := p.Analyze(context.Background(), spec)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	if r.Skipped != "" {
		t.Fatalf("%s: SKIPPED: %s", spec, r.Skipped)
	}
	return r
}

func wantRows(t *testing.T, r *Result, want string) {
	t.Helper()
	if got := csvOf(r); got != want {
		t.Errorf("%s:%s rows:\n%s\nwant:\n%s", r.Report, r.Args, got, want)
	}
}
