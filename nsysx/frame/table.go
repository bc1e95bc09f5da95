package frame

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/internal/suggest"
	"github.com/nsysx/nsysx/nsysx/model"
)

// The table methods of a Result read like a data frame's: each returns a new
// Result (the receiver is never changed) so that calls chain,
//
//	k.Where("Instances", ">", 10).Sort("-Avg").Select("Name", "Avg").Head(5)
//
// An error (an unknown column, a bad operator) is kept in the returned
// Result, passed along the chain and reported by Err; the notebook shows it
// in place of the table. Column names are labels ("Total Time") or full
// names with their unit tag ("Total Time:dur_ns").

// Err returns the error of the table operation that made r, or nil.
func (r *Result) Err() error {
	if r == nil {
		return errors.New("nsysx: nil result")
	}
	return r.err
}

// failed returns a Result carrying err, or nil when r and err are fine.
func (r *Result) failed(err error) *Result {
	if r == nil {
		return &Result{err: errors.New("nsysx: nil result")}
	}
	if r.err != nil {
		return r
	}
	if err != nil {
		return &Result{Report: r.Report, Title: r.Title, Args: r.Args, Source: r.Source, err: err}
	}
	return nil
}

// Column returns the column with the given label or full name, or an error
// naming the report and the closest column.
func (r *Result) Column(name string) (*ResultCol, error) {
	if err := r.Err(); err != nil {
		return nil, err
	}
	if c := r.col(name); c != nil {
		return c, nil
	}
	return nil, r.noColumn(name)
}

func (r *Result) noColumn(name string) error {
	var names []string
	for _, c := range r.Visible() {
		names = append(names, c.Label())
	}
	what := r.Report
	if what == "" {
		what = "result"
	}
	if r.Skipped != "" {
		return fmt.Errorf("nsysx: %s was SKIPPED (%s): it has no column %q", what, r.Skipped, name)
	}
	return fmt.Errorf("nsysx: %s has no column %q%s; its columns: %s", what, name, suggest.Suggest(name, names), strings.Join(names, ", "))
}

// columns resolves names, or returns the error for the first unknown one.
func (r *Result) columns(names []string) ([]*ResultCol, error) {
	out := make([]*ResultCol, len(names))
	for i, n := range names {
		c, err := r.Column(n)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// Columns lists the labels of the visible columns, in order.
func (r *Result) Columns() []string {
	var out []string
	for _, c := range r.Visible() {
		out = append(out, c.Label())
	}
	return out
}

// Schema describes the visible columns as a table: Column (label), Unit
// (the nsys unit tag, e.g. "dur_ns"), Type (int, float, text or null: the
// kind of the first non-NULL cell) and Non-Null (cells that are not NULL).
func (r *Result) Schema() *Result {
	if f := r.failed(nil); f != nil {
		return f
	}
	s := NewResult(r.Report, r.Title+" (schema)", "Column", "Unit", "Type", "Non-Null")
	s.Source = r.Source
	for _, c := range r.Visible() {
		n := 0
		for i := 0; i < c.Len(); i++ {
			if !c.Value(i).IsNull() {
				n++
			}
		}
		s.Add(TextV(c.Label()), TextV(c.Tag()), TextV(c.cellKind().String()), IntV(int64(n)))
	}
	return s
}

// derive makes an empty result with r's metadata and the given columns.
func (r *Result) derive(cols []*ResultCol) *Result {
	out := &Result{Report: r.Report, Title: r.Title, Args: r.Args, Source: r.Source}
	for _, c := range cols {
		out.Cols = append(out.Cols, newCells(c.Name))
	}
	return out
}

// take returns the rows idx of r (every column, hidden ones too).
func (r *Result) take(idx []int) *Result {
	out := r.derive(r.Cols)
	for j, c := range r.Cols {
		oc := out.Cols[j]
		oc.Grow(len(idx))
		for _, i := range idx {
			oc.Append(c.Value(i))
		}
		if oc.Kind == NullKind {
			oc.Kind = c.cellKind()
		}
	}
	return out
}

// Sort orders the rows by one or more columns, ascending; a name starting
// with '-' sorts that column descending ("-Avg"). Ties keep their order.
// NULL sorts before numbers and numbers before text, as in SQLite.
func (r *Result) Sort(by ...string) *Result {
	if f := r.failed(nil); f != nil {
		return f
	}
	desc := make([]bool, len(by))
	names := make([]string, len(by))
	for i, b := range by {
		names[i] = b
		if strings.HasPrefix(b, "-") && r.col(b) == nil {
			names[i], desc[i] = b[1:], true
		}
	}
	cols, err := r.columns(names)
	if f := r.failed(err); f != nil {
		return f
	}
	idx := r.rowIndexes()
	sort.SliceStable(idx, func(a, b int) bool {
		for k, c := range cols {
			d := model.Compare(c.Value(idx[a]), c.Value(idx[b]))
			if desc[k] {
				d = -d
			}
			if d != 0 {
				return d < 0
			}
		}
		return false
	})
	return r.take(idx)
}

func (r *Result) rowIndexes() []int {
	idx := make([]int, r.Len())
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// Filter keeps the rows for which keep returns true. keep reads cells by
// column name (row.Float("Avg")); an unknown name makes the result an error.
func (r *Result) Filter(keep func(row Row) bool) *Result {
	if f := r.failed(nil); f != nil {
		return f
	}
	st := &rowState{r: r}
	var idx []int
	for i := 0; i < r.Len(); i++ {
		if keep(Row{st: st, i: i}) {
			idx = append(idx, i)
		}
		if st.err != nil {
			return r.failed(st.err)
		}
	}
	return r.take(idx)
}

// Select keeps the named columns, in the order given.
func (r *Result) Select(names ...string) *Result {
	if f := r.failed(nil); f != nil {
		return f
	}
	cols, err := r.columns(names)
	if f := r.failed(err); f != nil {
		return f
	}
	out := &Result{Report: r.Report, Title: r.Title, Args: r.Args, Source: r.Source, Cols: cols}
	return out.take(r.rowIndexes())
}

// Head keeps the first n rows (all when there are fewer).
func (r *Result) Head(n int) *Result {
	if f := r.failed(nil); f != nil {
		return f
	}
	n = max(0, min(n, r.Len()))
	return r.take(r.rowIndexes()[:n])
}

// Tail keeps the last n rows (all when there are fewer).
func (r *Result) Tail(n int) *Result {
	if f := r.failed(nil); f != nil {
		return f
	}
	n = max(0, min(n, r.Len()))
	return r.take(r.rowIndexes()[r.Len()-n:])
}

// Row is one row of a Result, as Filter's predicate sees it.
type Row struct {
	st *rowState
	i  int
}

type rowState struct {
	r    *Result
	err  error
	seen map[string]*ResultCol
}

// Index is the row's position in the result.
func (w Row) Index() int { return w.i }

// Value returns the cell of the named column (NULL for an unknown name,
// which also makes Filter's result an error).
func (w Row) Value(col string) Value {
	c := w.st.seen[col]
	if c == nil {
		var err error
		if c, err = w.st.r.Column(col); err != nil {
			if w.st.err == nil {
				w.st.err = err
			}
			return Null
		}
		if w.st.seen == nil {
			w.st.seen = map[string]*ResultCol{}
		}
		w.st.seen[col] = c
	}
	return c.Value(w.i)
}

// Float returns the named cell as a number (NaN for NULL or text).
func (w Row) Float(col string) float64 { return w.Value(col).AsFloat() }

// Int returns the named cell as an integer (reals truncated, 0 for NULL or text).
func (w Row) Int(col string) int64 { return w.Value(col).Int() }

// String returns the named cell as nsys prints it.
func (w Row) String(col string) string { return w.Value(col).String() }
