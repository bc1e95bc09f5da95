// Package frame holds the library's one table type, below the analyses
// that build it and the formatters that render it.
//
// Frame is every table: what a report or rule returns (Result is its other
// name), what a recipe's mapper returns and the writers store. It holds
// one column type, Column (ResultCol is its other name), in one of three
// forms: typed (Type: int64, uint64, uint32, float64, string, all-NULL,
// list<int64>, categorical; values in IntVals, FloatVals, Strs, Lists,
// with a validity mask), which recipes build and the Parquet writers store;
// cells, each with its own Kind as nsys's SQL results mix them, which
// reports and rules build with Append; or computed on demand (ComputedCol),
// which traces of millions of rows use so that no copy of the rows is
// kept. Every form reads as Values (Value, Len, IsNull, Float...).
//
// A report's frame carries nsys's column specs (the unit tag in a column's
// name: label, unit, rounding) and report metadata (Report, Title, Args,
// Skipped, Advice...); a recipe's frame a pandas index kind (IndexKind).
// The table methods (Sort, Where, GroupBy(...).Agg(...), Join, Select,
// Head, Tail) read any frame and return one of cell columns. Pandas'
// describe over groups (Describe, DescribeGrouped, GroupRows) and exact
// integer sums (AddInt, Elapsed; an *OverflowError rather than a wrap)
// work on typed columns.
//
// Frame.Result is a recipe's frame as the formatters render a report's (its
// columns in pandas' display order, each a computed view over the typed
// one, no copy); FromResult is a report's result as typed columns with a
// RangeIndex, so that it can be written as pandas writes a DataFrame
// (package pyframe, through internal/parquetio's pandas option). Typed
// tells a recipe's table from a report's result, where both may come.
package frame
