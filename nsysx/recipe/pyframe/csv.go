package pyframe

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteCSV writes f as pandas' DataFrame.to_csv does with its defaults
// (docs/recipes.md §1.6): the index first (a named index under its names,
// an unnamed one under an empty header, a RangeIndex as its labels, no
// index for NoIndex frames), then the data columns; NULL and NaN as empty
// fields; floats as Python's repr; list cells as Python lists ("[0, 1]");
// Python csv's minimal quoting; "\n" line ends.
func WriteCSV(w io.Writer, f *Frame) error {
	if err := f.Check(); err != nil {
		return err
	}
	return WriteCSVGroups(w, f, func(yield func(*Frame) error) error { return yield(f) })
}

// WriteCSVGroups writes the frame whose header is head's and whose rows are
// the groups' rows, one after another, as WriteCSV writes that whole frame
// (a RangeIndex counts its labels on across the groups).
func WriteCSVGroups(w io.Writer, head *Frame, groups func(yield func(*Frame) error) error) error {
	if err := head.Check(); err != nil {
		return err
	}
	f := head
	bw := bufio.NewWriter(w)
	idx, data := csvColumns(f)
	header := make([]string, 0, len(idx)+len(data))
	for _, c := range idx {
		header = append(header, csvIndexName(f, c))
	}
	if f.Index == RangeIndex {
		header = append(header, f.RangeName)
	}
	for _, c := range data {
		header = append(header, c.Name)
	}
	writeCSVRow(bw, header)
	row := make([]string, len(header))
	label := 0
	err := groups(func(g *Frame) error {
		if err := g.Check(); err != nil {
			return err
		}
		idx, data := csvColumns(g)
		for i := 0; i < g.Rows(); i++ {
			row = row[:0]
			for _, c := range idx {
				row = append(row, csvCell(c, i))
			}
			if g.Index == RangeIndex {
				row = append(row, strconv.Itoa(label))
			}
			label++
			for _, c := range data {
				row = append(row, csvCell(c, i))
			}
			writeCSVRow(bw, row)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing csv: %w", err)
	}
	return nil
}

// csvColumns splits the columns into the stored index columns (in index
// order) and the data columns.
func csvColumns(f *Frame) (idx, data []*Column) {
	isIdx := map[string]bool{}
	if f.Index == NamedIndex || f.Index == LevelIndex {
		for _, n := range f.IndexCols {
			isIdx[n] = true
			idx = append(idx, f.Find(n))
		}
	}
	for _, c := range f.Cols {
		if !isIdx[c.Name] {
			data = append(data, c)
		}
	}
	return idx, data
}

func csvIndexName(f *Frame, c *Column) string {
	if f.Index == LevelIndex && c.Name == LevelIndexName {
		return ""
	}
	return c.Name
}

// csvCell is row i of c as pandas writes it.
func csvCell(c *Column, i int) string {
	if c.IsNull(i) {
		return ""
	}
	switch c.Type {
	case Uint64:
		return strconv.FormatUint(uint64(c.IntVals[i]), 10)
	case Float64:
		if x := c.FloatVals[i]; x == x {
			return PyFloat(x)
		}
		return ""
	case String:
		return c.Strs[i]
	case ListInt64:
		parts := make([]string, len(c.Lists[i]))
		for j, v := range c.Lists[i] {
			parts[j] = strconv.FormatInt(v, 10)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return strconv.FormatInt(c.IntVals[i], 10)
}

// writeCSVRow writes one record with Python csv's QUOTE_MINIMAL rules: a
// field holding a comma, a quote, CR or LF is quoted with quotes doubled,
// and a record that is a single empty field is written as "".
func writeCSVRow(w *bufio.Writer, fields []string) {
	if len(fields) == 1 && fields[0] == "" {
		w.WriteString("\"\"\n")
		return
	}
	for i, s := range fields {
		if i > 0 {
			w.WriteByte(',')
		}
		if strings.ContainsAny(s, ",\"\r\n") {
			w.WriteByte('"')
			w.WriteString(strings.ReplaceAll(s, `"`, `""`))
			w.WriteByte('"')
		} else {
			w.WriteString(s)
		}
	}
	w.WriteByte('\n')
}
