package format

import (
	"bufio"
	"fmt"
	"io"

	"github.com/nsysx/nsysx/nsysx"
)

// Write renders r in format s exactly as nsys's formatter does. It writes
// nothing for a SKIPPED result (r.Skipped), whose line the caller prints, and
// returns an error for an unknown format and for the binary arrow and parquet
// formats, which the Arrow writer handles.
func Write(w io.Writer, r *nsysx.Result, s Spec) error {
	f, ok := lookupFormat(s.Name)
	if !ok {
		return unknownFormat(s.Name)
	}
	if !f.units {
		return fmt.Errorf("format %s is binary: write it with WriteArrow or WriteParquet (the arrow writer), not Write", s.Name)
	}
	if r == nil || r.Skipped != "" {
		return nil
	}
	t := newTextTable(r, s.units())
	bw := bufio.NewWriterSize(w, 64<<10)
	switch s.Name {
	case "csv":
		writeDelimited(bw, t, s.NoHeader, ',', csvField)
	case "tsv":
		field := tsvField
		if s.Escape {
			field = tsvEscField
		}
		writeDelimited(bw, t, s.NoHeader, '\t', field)
	case "json":
		writeJSON(bw, t)
	case "htable":
		writeHTable(bw, t)
	case "hdoc":
		writeHDoc(bw, r, t, s)
	case "column", "table":
		writeConsole(bw, r, t, s, s.Name == "table")
	}
	return bw.Flush()
}

// textTable is a result as the formatters see it: the headers and the
// converted cell texts of the visible columns.
type textTable struct {
	heads []string
	cells [][]string // [column][row]
	rows  int
}

func newTextTable(r *nsysx.Result, u Units) *textTable {
	t := &textTable{rows: r.Len()}
	for _, c := range r.Visible() {
		plan := planColumn(c.Name, u)
		col := make([]string, t.rows)
		for i := range col {
			col[i] = c.Text(i)
			if plan.conv != nil {
				col[i] = plan.conv(col[i])
			}
		}
		t.heads = append(t.heads, plan.header)
		t.cells = append(t.cells, col)
	}
	return t
}

// row copies row i into buf.
func (t *textTable) row(i int, buf []string) []string {
	buf = buf[:0]
	for _, c := range t.cells {
		buf = append(buf, c[i])
	}
	return buf
}

// Headers returns the headers format s shows for r's visible columns, e.g.
// "Total Time (us)" for "Total Time:dur_ns" with time=us.
func Headers(r *nsysx.Result, s Spec) []string {
	u := s.units()
	var out []string
	for _, c := range r.Visible() {
		out = append(out, planColumn(c.Name, u).header)
	}
	return out
}
