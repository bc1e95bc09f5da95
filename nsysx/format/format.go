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
// converted cell texts of the visible columns. Cells are rendered on demand,
// row by row, so that writing a trace of millions of rows holds no more than
// one row of text at a time.
type textTable struct {
	heads []string
	cols  []*nsysx.ResultCol
	convs []func(string) string
	rows  int
}

func newTextTable(r *nsysx.Result, u Units) *textTable {
	t := &textTable{rows: r.Len()}
	for _, c := range r.Visible() {
		plan := planColumn(c.Name, u)
		t.heads = append(t.heads, plan.header)
		t.cols = append(t.cols, c)
		t.convs = append(t.convs, plan.conv)
	}
	return t
}

// ncols is the number of visible columns.
func (t *textTable) ncols() int { return len(t.cols) }

// cell is the converted text of column j, row i.
func (t *textTable) cell(j, i int) string { return t.text(j, t.cols[j].Value(i)) }

// text is the converted text of value v of column j.
func (t *textTable) text(j int, v nsysx.Value) string {
	s := v.String()
	if conv := t.convs[j]; conv != nil {
		s = conv(s)
	}
	return s
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
